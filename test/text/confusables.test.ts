import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldConfusables, isInvisible, removeInvisible } from '../../src/text/confusables.js';

/** What `removeInvisible` must give: every character that renders as nothing dropped, the rest kept in order. */
function withoutInvisible(text: string): string {
  return [...text].filter((character) => ![...character].some((unit) => isInvisible(unit.charCodeAt(0)))).join('');
}

describe('removeInvisible', () => {
  it('drops exactly the invisible characters, wherever they are, and returns a text without any as it is', () => {
    const character = fc.constantFrom('a', 'Z', ' ', '\n', 'é', '→', '\u00ad', '\u200b', '\u2060', '\ufeff', '\u034f');
    fc.assert(
      fc.property(fc.array(character, { maxLength: 40 }), (characters) => {
        const text = characters.join('');
        expect(removeInvisible(text)).toBe(withoutInvisible(text));
      }),
      { numRuns: 300, seed: 13 },
    );
    const plain = 'no invisible characters → here';
    expect(removeInvisible(plain)).toBe(plain);
    expect(removeInvisible('ig\u200Bnore\u00ad')).toBe('ignore');
    expect(isInvisible(0x00ac)).toBe(false);
    expect(isInvisible(0x00ad)).toBe(true);
  });

  it('flags exactly the listed ranges, for every UTF-16 code unit', () => {
    const ranges: [number, number][] = [
      [0x00ad, 0x00ad],
      [0x034f, 0x034f],
      [0x061c, 0x061c],
      [0x115f, 0x1160],
      [0x17b4, 0x17b5],
      [0x180b, 0x180f],
      [0x200b, 0x200f],
      [0x202a, 0x202e],
      [0x2060, 0x206f],
      [0x3164, 0x3164],
      [0xfe00, 0xfe0f],
      [0xfeff, 0xfeff],
      [0xffa0, 0xffa0],
    ];
    const wrong: number[] = [];
    for (let code = 0; code <= 0xffff; code++)
      if (isInvisible(code) !== ranges.some(([from, to]) => code >= from && code <= to)) wrong.push(code);
    expect(wrong).toEqual([]);
    expect(isInvisible(0x1f600)).toBe(false);
    expect(isInvisible(-1)).toBe(false);
  });

  it('leaves foldConfusables reading an invisible-split word as the word', () => {
    expect(foldConfusables('ig\u200Bnоre')).toBe('ignore');
  });
});
