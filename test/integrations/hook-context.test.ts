/**
 * The injected context's handle layout and ranking (the end-to-end hook test drives the whole
 * command; these pin the pieces a benchmark tuned).
 */
import { describe, expect, it } from 'vitest';
import type { IndexGroup } from '../../src/compaction/index-layout.js';
import { groupLines } from '../../src/integrations/claude-code/hook-context.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

let nextSeq = 0;
function handle(text: string, kind: HandleKind = 'identifier', role: Role = 'tool'): Handle {
  const seq = nextSeq++;
  return {
    kind,
    text,
    key: text.toLowerCase(),
    start: 0,
    end: text.length,
    spanId: `sha256:${seq}`,
    seq,
    role,
    tokens: Math.ceil(text.length / 4),
  };
}

describe('groupLines', () => {
  it('separates handles by one space, and handles holding a space by " | " on a second line', () => {
    const group: IndexGroup = {
      label: 'assignment',
      entries: [
        { handle: handle('lang="en"', 'assignment'), similar: 0 },
        { handle: handle('session_id: session.id', 'assignment'), similar: 0 },
        { handle: handle('pool_size=10', 'assignment'), similar: 0 },
        { handle: handle('style="margin: 0;"', 'assignment'), similar: 0 },
      ],
    };
    expect(groupLines(group)).toEqual([
      'assignment: lang="en" pool_size=10',
      'assignment: session_id: session.id | style="margin: 0;"',
    ]);
  });

  it('puts an entry with a "+N similar" note on the " | " line and leaves out empty lines', () => {
    const group: IndexGroup = { label: 'error', entries: [{ handle: handle('E042', 'error'), similar: 2 }] };
    expect(groupLines(group)).toEqual(['error: E042 (+2 similar)']);
    const words: IndexGroup = { label: 'path', entries: [{ handle: handle('src/a.ts', 'path'), similar: 0 }] };
    expect(groupLines(words)).toEqual(['path: src/a.ts']);
  });
});
