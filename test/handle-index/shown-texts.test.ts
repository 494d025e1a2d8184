import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsAtBoundary } from '../../src/handle-index/near-duplicates.js';
import { LongTextPieces, ShownTexts } from '../../src/handle-index/shown-texts.js';

/** Short strings over word characters, boundaries and the joining character, so matches, edges and whole texts are common. */
const piece = fc.string({ unit: fc.constantFrom('a', 'b', '1', '_', '/', '.', ' ', '-', '\u0000'), maxLength: 9 });

describe('ShownTexts', () => {
  it('answers like containsAtBoundary on each text, as texts are added', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }),
        fc.array(piece, { minLength: 1, maxLength: 12 }),
        (texts, needles) => {
          const shown = new ShownTexts();
          const added: string[] = [];
          for (const text of [...texts, ...needles]) {
            for (const needle of needles)
              expect(shown.contain(needle)).toBe(added.some((held) => containsAtBoundary(held, needle)));
            shown.add(text);
            added.push(text);
          }
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });

  it('answers the same when its texts are given at once (its table sized for them) and many share pieces', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 300 }),
        fc.array(piece, { minLength: 1, maxLength: 12 }),
        (texts, needles) => {
          const shown = new ShownTexts(texts);
          for (const needle of [...needles, ...texts.slice(0, 12)])
            expect(shown.contain(needle)).toBe(texts.some((held) => containsAtBoundary(held, needle)));
        },
      ),
      { numRuns: 100, seed: 13 },
    );
  });

  it('answers the same for long texts (where their pieces start kept per text) and needles cut from them', () => {
    const long = fc.string({ unit: fc.constantFrom('a', 'b', '1', '/', ' ', '.'), minLength: 256, maxLength: 320 });
    fc.assert(
      fc.property(
        fc.array(long, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (texts, cuts) => {
          const shown = new ShownTexts(texts);
          for (const cut of cuts) {
            const text = texts[cut % texts.length] ?? '';
            const needle = text.slice(cut % 200, (cut % 200) + 4 + (cut % 41));
            // The needle with one character changed inside: its first and last pieces are still in the text.
            const middle = 2 + (cut % Math.max(1, needle.length - 4));
            const changed = `${needle.slice(0, middle)}${needle[middle] === 'a' ? 'b' : 'a'}${needle.slice(middle + 1)}`;
            for (const probe of [needle, `${needle}b`, changed, text, text.slice(1)])
              expect(shown.contain(probe)).toBe(texts.some((held) => containsAtBoundary(held, probe)));
          }
        },
      ),
      { numRuns: 200, seed: 13 },
    );
  });

  it('does not count a needle equal to a whole text as inside it, but finds it inside a longer one', () => {
    const shown = new ShownTexts(['src/app.ts', 'lib/src/app.ts.bak']);
    expect(shown.contain('src/app.ts')).toBe(true);
    expect(new ShownTexts(['src/app.ts', 'other']).contain('src/app.ts')).toBe(false);
    expect(new ShownTexts(['ReviewTokenStore']).contain('Review')).toBe(false);
  });

  it('searches only the texts added since a mark (short and long), as containsAtBoundary on those', () => {
    const long = fc.string({ unit: fc.constantFrom('a', 'b', '1', '/', ' ', '.'), minLength: 256, maxLength: 300 });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(piece, long), { maxLength: 10 }),
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        (texts, needles) => {
          const shown = new ShownTexts();
          const marks = [{ mark: shown.mark(), from: 0 }];
          texts.forEach((text, index) => {
            shown.add(text);
            marks.push({ mark: shown.mark(), from: index + 1 });
          });
          for (const { mark, from } of marks)
            for (const needle of [...needles, ...texts.map((text) => text.slice(1, 9))])
              expect(shown.containSince(needle, mark)).toBe(
                texts.slice(from).some((held) => containsAtBoundary(held, needle)),
              );
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });

  it('finds a needle in a text added after the mark, not in the same text added before it', () => {
    const shown = new ShownTexts(['lib/src/app.ts.bak']);
    const mark = shown.mark();
    expect(shown.containSince('src/app.ts', mark)).toBe(false);
    expect(shown.contain('src/app.ts')).toBe(true);
    shown.add('old/src/app.ts');
    expect(shown.containSince('src/app.ts', mark)).toBe(true);
    const long = `${'x'.repeat(300)} src/app.ts`;
    const withLong = new ShownTexts([long]);
    expect(withLong.containSince('src/app.ts', withLong.mark())).toBe(false);
    expect(withLong.containSince('src/app.ts', { short: 0, long: 0 })).toBe(true);
  });

  it('answers the same over long texts whether their piece starts are its own or shared with other lists', () => {
    const long = (words: readonly string[]) => words.join(' ').padEnd(300, ' x');
    fc.assert(
      fc.property(
        fc.array(fc.array(piece, { minLength: 20, maxLength: 60 }), { minLength: 1, maxLength: 3 }),
        fc.array(piece, { minLength: 1, maxLength: 12 }),
        (bodies, needles) => {
          const texts = bodies.map(long);
          const pieces = new LongTextPieces();
          const first = new ShownTexts(texts, pieces);
          const second = new ShownTexts(texts, pieces);
          const own = new ShownTexts(texts);
          for (const needle of needles) {
            const expected = texts.some((held) => containsAtBoundary(held, needle));
            expect([first.contain(needle), second.contain(needle), own.contain(needle)]).toEqual([
              expected,
              expected,
              expected,
            ]);
          }
        },
      ),
      { numRuns: 200, seed: 17 },
    );
  });

  it("finds a long text's piece starts once per LongTextPieces, and again in another", () => {
    const text = 'the summary of a compaction, long enough to be indexed by its pieces '.repeat(5);
    const pieces = new LongTextPieces();
    expect(pieces.of(text)).toBe(pieces.of(text));
    expect(new LongTextPieces().of(text)).not.toBe(pieces.of(text));
  });
});
