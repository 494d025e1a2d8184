/**
 * A program's result heading ("File created successfully at: src/a.ts") is ranked on its own evidence, not its
 * value's: the bare value is the handle worth showing (quality-claude-code @4k lost a handle when such headings took
 * their paths' evidence), while a labelled fact keeps its value's evidence.
 */
import { describe, expect, it } from 'vitest';
import { handleFeatures } from '../../src/ranking/rank-handles.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

function handle(kind: HandleKind, text: string, seq: number, role: Role): Handle {
  return { kind, text, key: text, start: 0, end: text.length, spanId: `sha256:${seq}`, seq, role, tokens: 4 } as Handle;
}

function featuresOf(binding: Handle, value: Handle) {
  const occurrences = [binding, { ...value, seq: 1, role: 'tool' as Role }, value];
  return handleFeatures([binding], { occurrences, spans: new Map(), fromSeq: 0, toSeq: 10 }).get(binding);
}

describe('result headings and their values', () => {
  it("ranks a tool's result heading on its own evidence", () => {
    const heading = handle('assignment', 'created successfully at: /home/u/src/a.ts', 1, 'tool');
    const features = featuresOf(heading, handle('path', '/home/u/src/a.ts', 5, 'assistant'));
    expect(features?.agentUsed).toBe(false);
    expect(features?.toolOnly).toBe(true);
  });

  it('gives a labelled fact the evidence of its value, whoever said it', () => {
    const fact = handle('assignment', 'primary region is eu-west-1', 1, 'tool');
    const features = featuresOf(fact, handle('identifier', 'eu-west-1', 5, 'user'));
    expect(features?.userSaid).toBe(true);
    const said = handle('assignment', 'primary region: eu-west-1', 1, 'user');
    expect(featuresOf(said, handle('identifier', 'eu-west-1', 5, 'assistant'))?.agentUsed).toBe(true);
  });
});
