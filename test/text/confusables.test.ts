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

  it('leaves foldConfusables reading an invisible-split word as the word', () => {
    expect(foldConfusables('ig\u200Bnоre')).toBe('ignore');
  });
});
