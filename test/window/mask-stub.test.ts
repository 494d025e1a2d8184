import { describe, expect, it } from 'vitest';
import { createSpan } from '../../src/model/span.js';
import { maskStub } from '../../src/window/masking.js';
import { spanTargets } from '../../src/ranking/span-actions.js';

describe('caches keyed by the objects they read', () => {
  it('give a span with the same id but another token count its own stub', () => {
    const text = 'ERROR_CODE=E4001 in src/shards/shard_1.ts';
    const small = createSpan({ kind: 'tool-result', text, toolCallId: 'c', toolName: 'bash', tokens: 12 });
    const large = createSpan({ kind: 'tool-result', text, toolCallId: 'c', toolName: 'bash', tokens: 40 });
    expect(large.id).toBe(small.id);
    expect(maskStub(small)).toContain('[masked: 12 tokens');
    expect(maskStub(large)).toContain('[masked: 40 tokens');
    expect(maskStub(small)).toContain('[masked: 12 tokens');
  });

  it('read a tool call again when its fields are no longer the ones read', () => {
    const span = { kind: 'tool-call' as const, toolName: 'bash', text: '{"command":"echo 1 > a.txt"}', tokens: 5 };
    expect(spanTargets(span)).toEqual(['a.txt']);
    span.text = '{"command":"echo 1 > b.txt"}';
    expect(spanTargets(span)).toEqual(['b.txt']);
  });
});
