import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalSpanBytes,
  createSpan,
  frozenSpan,
  hasCurrentSpanId,
  spanId,
  verifySpan,
} from '../../src/model/span.js';
import type { SourceKind, Span } from '../../src/types.js';

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
/** Any field text: full Unicode, U+0000, lone surrogates, sometimes long. */
const value = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), loneSurrogate), { maxLength: 30 })
    .map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', minLength: 2000, maxLength: 6000 }),
);

describe('spanId', () => {
  it('is the SHA-256 of the canonical bytes, for every field content', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<SourceKind>('system', 'user', 'assistant', 'tool-call', 'tool-result'),
        fc.option(value, { nil: undefined }),
        fc.option(value, { nil: undefined }),
        value,
        (kind, toolName, toolCallId, text) => {
          const input = { kind, toolName, toolCallId, text };
          const expected = 'sha256:' + createHash('sha256').update(canonicalSpanBytes(input)).digest('hex');
          expect(spanId(input)).toBe(expected);
        },
      ),
      { numRuns: 300, seed: 21 },
    );
  });

  it('keeps the cl-span-v2 form byte for byte (stored ids depend on it)', () => {
    const input = { kind: 'tool-call' as const, toolName: 'Edit', text: 'h\u00e9llo\u0000' };
    const literal = 'cl-span-v2\n9:tool-call4:Edit-7:h\u00e9llo\u0000';
    expect(Buffer.from(canonicalSpanBytes(input)).equals(Buffer.from(literal, 'utf8'))).toBe(true);
    expect(spanId(input)).toBe('sha256:' + createHash('sha256').update(literal, 'utf8').digest('hex'));
  });

  it('tells an absent tool name from an empty one', () => {
    expect(spanId({ kind: 'tool-call', text: 'x', toolName: '' })).not.toBe(spanId({ kind: 'tool-call', text: 'x' }));
  });
});

describe('span verification memo', () => {
  it('trusts only spans whose fields cannot change: a mutable copy is hashed again at each check', () => {
    const span = createSpan({ kind: 'user', text: 'deploy to eu-west-1', tokens: 5 });
    expect(hasCurrentSpanId(span)).toBe(true);
    expect(verifySpan(span)).toBe(true);
    const copy = { ...span };
    expect(hasCurrentSpanId(copy)).toBe(true);
    copy.text = 'deploy to us-east-1';
    expect(hasCurrentSpanId(copy)).toBe(false);
    expect(verifySpan(copy)).toBe(false);
  });

  it('builds one frozen span per content, keeps a built one as it is, and checks a wrong id as wrong', () => {
    const span = createSpan({ kind: 'tool-result', text: 'ok', toolName: 'bash', toolCallId: 'c1', tokens: 1 });
    expect(frozenSpan(span)).toBe(span);
    const rebuilt = frozenSpan({ ...span, toolName: span.toolName });
    expect(rebuilt).not.toBe(span);
    expect(Object.isFrozen(rebuilt)).toBe(true);
    expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(span));
    expect(hasCurrentSpanId(rebuilt)).toBe(true);
    const forged = frozenSpan({ ...span, id: spanId({ kind: 'tool-result', text: 'not ok' }) });
    expect(hasCurrentSpanId(forged)).toBe(false);
    expect(hasCurrentSpanId(forged)).toBe(false);
    // A null tool field (JSON from outside) is held as undefined, as a store gives spans back.
    const fromJson = frozenSpan({ ...span, toolCallId: null } as unknown as Span);
    expect(fromJson.toolCallId).toBeUndefined();
  });
});
