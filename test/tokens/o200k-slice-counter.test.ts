import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/ingest/chunks.js';
import { isPreTokenBoundary } from '../../src/tokens/o200k-count.js';
import { MARK_SPACING, countMarks, o200kSliceCounter } from '../../src/tokens/o200k-slice-counter.js';
import { countO200kTokens, createO200kCounter } from '../../src/tokens/token-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';

/** The o200k counter without its slice counter: every chunk counted on its own. */
const plain: TokenCounter = { name: 'o200k_base', count: countO200kTokens };

const word = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9_./:-]{1,12}$/),
  fc.constantFrom('\n', '\n\n', '  ', '\t', ' /path', '\n/x', 'é', '🙂', ' <|endoftext|>', '"key": "v"'),
);
/** Text with boundaries everywhere, and sometimes a long run with none (counted slice by slice). */
const text = fc.oneof(
  { weight: 4, arbitrary: fc.array(word, { minLength: 300, maxLength: 1500 }).map((words) => words.join(' ')) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(word, { minLength: 100, maxLength: 600 }), fc.integer({ min: 1000, max: 5000 }))
      .map(([words, run]) => `${words.join(' ')} ${'x'.repeat(run)} ${words.join('\n')}`),
  },
);

describe('o200kSliceCounter', () => {
  it('counts every slice exactly as countO200kTokens counts the sliced text', () => {
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 12 }), (value, ranges) => {
        const count = o200kSliceCounter(value);
        expect(count(0, value.length)).toBe(countO200kTokens(value));
        for (const [a, b] of ranges) {
          const start = Math.min(a, b) % (value.length + 1);
          const end = Math.min(value.length, start + (Math.max(a, b) % (value.length + 1)));
          expect(count(start, end)).toBe(countO200kTokens(value.slice(start, end)));
        }
      }),
      { numRuns: 60, seed: 13, endOnFailure: true },
    );
  });

  it('a long run without a boundary falls back to counting the slice itself', () => {
    const value = `${'word '.repeat(500)}${'y'.repeat(4000)} ${'more words '.repeat(300)}`;
    const count = o200kSliceCounter(value);
    for (const [start, end] of [
      [0, value.length],
      [7, 3500],
      [2400, 6000],
      [2499, value.length - 3],
    ] as const)
      expect(count(start, end)).toBe(countO200kTokens(value.slice(start, end)));
  });

  it('chunkText gives the same chunks with it as with counting each chunk', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(64, 300, 2000), (value, maxTokens) => {
        expect(chunkText(value, maxTokens, createO200kCounter())).toEqual(chunkText(value, maxTokens, plain));
      }),
      { numRuns: 40, seed: 14, endOnFailure: true },
    );
  });
});

describe('countMarks', () => {
  const value = Array.from(
    { length: 400 },
    (_, line) => `line ${line}: const value_${line} = read("src/app/${line}.ts"); // é 🙂 done`,
  ).join('\n');

  it('marks pre-token boundaries a few dozen characters apart, with the exact count before each', () => {
    const marks = countMarks(value);
    expect(marks).toBeDefined();
    const { bounds, before } = marks as NonNullable<typeof marks>;
    expect(bounds[0]).toBe(0);
    expect(bounds.at(-1)).toBe(value.length);
    expect(before.at(-1)).toBe(countO200kTokens(value));
    // A slice is counted as its edges up to the nearest marks: they stay short, not a counting piece long.
    const gaps = bounds.slice(1).map((bound, index) => bound - (bounds[index] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThan(0);
    expect(Math.max(...gaps)).toBeLessThan(MARK_SPACING * 3);
    for (const [index, bound] of bounds.entries()) {
      if (bound > 0 && bound < value.length) expect(isPreTokenBoundary(value, bound)).toBe(true);
      if (index % 37 === 0) expect(before[index]).toBe(countO200kTokens(value.slice(0, bound)));
    }
  });

  it('leaves a text with a stretch as long as a counting piece to be counted slice by slice', () => {
    expect(countMarks(`${'word '.repeat(300)}${'z'.repeat(1500)} tail`)).toBeUndefined();
  });
});
