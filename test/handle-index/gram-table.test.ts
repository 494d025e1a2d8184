import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GramTable } from '../../src/handle-index/gram-table.js';

/** The values of `key`, most recent first, by walking the table. */
function valuesOf(table: GramTable, key: number): number[] {
  const values: number[] = [];
  for (let entry = table.first(key); entry >= 0; entry = table.following(entry, key)) values.push(table.value(entry));
  return values;
}

describe('GramTable', () => {
  it('holds what a map of lists holds (a value repeated right after itself once), most recent first, as it grows', () => {
    // Keys that share low bits land in one slot: chains hold several keys.
    const key = fc.oneof(
      fc.nat({ max: 40 }),
      fc.nat({ max: 40 }).map((low) => low + 1024 * 7),
      fc.nat(0x3fffffff),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.nat({ max: 5 })), { maxLength: 1500 }), fc.nat(3000), (adds, sized) => {
        // Sized for any number of entries (fewer or more than are added), it holds the same.
        const table = sized % 2 === 0 ? new GramTable() : new GramTable(sized);
        const model = new Map<number, number[]>();
        for (const [k, value] of adds) {
          table.add(k, value);
          const list = model.get(k) ?? [];
          if (list[list.length - 1] !== value) list.push(value);
          model.set(k, list);
        }
        for (const [k, list] of model) {
          expect(valuesOf(table, k)).toEqual([...list].reverse());
          expect(table.count(k)).toBe(list.length);
        }
        expect(table.count(0x3fffffff + 1)).toBe(0);
      }),
      { numRuns: 60, seed: 13 },
    );
  });
});
