import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderEntryHandles } from '../../src/stores/store-input.js';

describe('orderEntryHandles', () => {
  it('orders by start, ties in the order given, and returns a new array', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 20 }), { maxLength: 40 }), fc.boolean(), (starts, presorted) => {
        const handles = (presorted ? [...starts].sort((a, b) => a - b) : starts).map((start, id) => ({ start, id }));
        const expected = handles
          .map((handle, position) => ({ handle, position }))
          .sort((a, b) => a.handle.start - b.handle.start || a.position - b.position)
          .map(({ handle }) => handle);
        const ordered = orderEntryHandles(handles);
        expect(ordered).toEqual(expected);
        expect(ordered).not.toBe(handles);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});
