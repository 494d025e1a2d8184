import { describe, expect, it } from 'vitest';
import { firstIndexWhere } from '../../src/collections/sorted-search.js';

describe('firstIndexWhere', () => {
  it('finds the lower bound of every value in a sorted array with repeats, and the length past the end', () => {
    const sorted = [1, 3, 3, 3, 7, 9, 9];
    for (let value = 0; value <= 10; value++) {
      const expected = sorted.findIndex((item) => item >= value);
      const found = firstIndexWhere(sorted.length, (index) => (sorted[index] ?? 0) >= value);
      expect(found).toBe(expected === -1 ? sorted.length : expected);
    }
  });

  it('returns 0 for an empty range without calling the test', () => {
    let calls = 0;
    expect(
      firstIndexWhere(0, () => {
        calls += 1;
        return true;
      }),
    ).toBe(0);
    expect(calls).toBe(0);
  });
});
