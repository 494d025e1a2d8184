import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormedText } from '../../src/model/span.js';

/** Well-formed by definition: every high surrogate followed by a low one, every low one preceded by a high one. */
function wellFormedByCodes(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      index++;
    } else if (code >= 0xdc00 && code <= 0xdfff) return false;
  }
  return true;
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const text = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), loneSurrogate), { maxLength: 40 })
  .map((parts) => parts.join(''));

describe('isWellFormedText', () => {
  it('finds lone surrogates wherever they are', () => {
    expect(isWellFormedText('')).toBe(true);
    expect(isWellFormedText('plain ascii')).toBe(true);
    expect(isWellFormedText('emoji \u{1f600} and é')).toBe(true);
    expect(isWellFormedText('\ud83d')).toBe(false);
    expect(isWellFormedText('\ude00')).toBe(false);
    expect(isWellFormedText('end \ud83d')).toBe(false);
    expect(isWellFormedText('\ude00 start')).toBe(false);
    expect(isWellFormedText('swapped \ude00\ud83d pair')).toBe(false);
    expect(isWellFormedText('\ud83d\ud83d\ude00')).toBe(false);
    expect(isWellFormedText('\ud83d\ude00\ude00')).toBe(false);
  });

  it('agrees with a scan by code units on any text', () => {
    fc.assert(fc.property(text, (value) => isWellFormedText(value) === wellFormedByCodes(value)));
  });
});
