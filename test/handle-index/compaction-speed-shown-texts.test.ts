import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import * as nearDuplicates from '../../src/handle-index/near-duplicates.js';
import { ShownTexts } from '../../src/handle-index/shown-texts.js';

// Count the texts a search compares with the needle (the real check still answers).
vi.mock('../../src/handle-index/near-duplicates.js', async (importOriginal) => {
  const real = await importOriginal<typeof nearDuplicates>();
  return { ...real, containsAtBoundary: vi.fn(real.containsAtBoundary) };
});
const compared = vi.mocked(nearDuplicates.containsAtBoundary);

/** Paths and words from a small pool, so texts share their first 4 characters (and often their first 8). */
const piece = fc.constantFrom('src/', 'app', 'alpha', 'zeta', '.ts', '_', '-', ' ', '/', 'x1', 'comp', 'onent');
const text = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

describe('ShownTexts, needles of 8 characters and more (compaction speed)', () => {
  it('compares a needle only with texts that hold its first 8 characters where a word may start', () => {
    const shown = new ShownTexts(Array.from({ length: 50 }, (_, index) => `src/alpha-${index}.ts`));
    compared.mockClear();
    // Every text starts with the needle's first 4 characters ("src/"), none with its first 8 ("src/zeta").
    expect(shown.contain('src/zeta.ts')).toBe(false);
    expect(compared.mock.calls.length).toBeLessThanOrEqual(1);
    // A needle under 8 characters is still found by its first 4.
    expect(shown.contain('src/alpha-7')).toBe(true);
  });

  it('answers like containsAtBoundary on each text, for long and short needles, from any mark', () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 12 }),
        fc.array(text, { minLength: 1, maxLength: 10 }),
        (texts, needles) => {
          const shown = new ShownTexts();
          const added: string[] = [];
          const marks: { mark: ReturnType<ShownTexts['mark']>; from: number }[] = [];
          for (const item of [...texts, ...needles]) {
            marks.push({ mark: shown.mark(), from: added.length });
            for (const needle of needles) {
              expect(shown.contain(needle)).toBe(added.some((held) => nearDuplicates.containsAtBoundary(held, needle)));
              for (const { mark, from } of marks)
                expect(shown.containSince(needle, mark)).toBe(
                  added.slice(from).some((held) => nearDuplicates.containsAtBoundary(held, needle)),
                );
            }
            shown.add(item);
            added.push(item);
          }
        },
      ),
      { numRuns: 60, seed: 37 },
    );
  });
});
