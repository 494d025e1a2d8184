import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlap, overlapsOver } from '../../src/summarizers/word-overlap.js';

/** A set whose lookups are counted. */
class CountedSet extends Set<string> {
  lookups = 0;
  override has(value: string): boolean {
    this.lookups++;
    return super.has(value);
  }
}

const words = fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta', 'iota'), {
  maxLength: 9,
});

describe('word overlap of summary lines (compaction speed)', () => {
  it('answers overlap(a, b) > limit', () => {
    fc.assert(
      fc.property(words, words, fc.constantFrom(0, 0.3, 0.5, 0.6, 0.9), (a, b, limit) => {
        const left = new Set(a);
        const right = new Set(b);
        expect(overlapsOver(left, right, limit)).toBe(overlap(left, right) > limit);
        expect(overlap(left, right)).toBe(overlap(right, left));
      }),
      { numRuns: 500, seed: 5 },
    );
  });

  it('does not compare sets whose sizes alone keep their overlap at or under the limit', () => {
    const long = new CountedSet(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    const short = new CountedSet(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(overlapsOver(long, short, 0.6)).toBe(false);
    expect(long.lookups + short.lookups).toBe(0);
  });

  it('walks the smaller set when it compares them', () => {
    const long = new CountedSet(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    const short = new CountedSet(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(overlapsOver(long, short, 0.6)).toBe(true);
    expect(long.lookups).toBe(7);
    expect(short.lookups).toBe(0);
  });
});
