import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inRange, sliceBySeq } from '../../src/stores/store-input.js';

describe('sliceBySeq', () => {
  it('selects exactly what filtering with inRange selects, in the same order', () => {
    const bound = fc.option(fc.oneof(fc.integer({ min: -3, max: 40 }), fc.double({ min: -3, max: 40, noNaN: false })), {
      nil: undefined,
    });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 })), bound, bound, (seqs, fromSeq, toSeq) => {
        const sorted = [...seqs].sort((a, b) => a - b).map((seq, index) => ({ seq, index }));
        const range = { fromSeq, toSeq };
        expect(sliceBySeq(sorted, range)).toEqual(sorted.filter((item) => inRange(item.seq, range)));
      }),
    );
  });

  it('returns every item without a range and none for an inverted one', () => {
    const sorted = [{ seq: 0 }, { seq: 1 }, { seq: 1 }, { seq: 4 }];
    expect(sliceBySeq(sorted, undefined)).toEqual(sorted);
    expect(sliceBySeq(sorted, { fromSeq: 1, toSeq: 1 })).toEqual([{ seq: 1 }, { seq: 1 }]);
    expect(sliceBySeq(sorted, { fromSeq: 3, toSeq: 2 })).toEqual([]);
    expect(sliceBySeq(sorted, { fromSeq: 2, toSeq: 3 })).toEqual([]);
  });
});
