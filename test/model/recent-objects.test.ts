import { describe, expect, it } from 'vitest';
import { RECENT_OBJECT_ENTRIES, RecentObjects } from '../../src/model/recent-objects.js';

/** Fill a memo's current generation with fresh keys, `count` of them. */
function fill(memo: RecentObjects<number>, count: number): void {
  for (let index = 0; index < count; index++) memo.set({}, index);
}

describe('RecentObjects', () => {
  it('moves an old entry read again to the current generation by default, so it outlives the next turn-over', () => {
    const memo = new RecentObjects<number>();
    const key = {};
    memo.set(key, 1);
    fill(memo, RECENT_OBJECT_ENTRIES); // `key` is now in the old generation
    expect(memo.get(key)).toBe(1); // and moved back to the current one
    fill(memo, RECENT_OBJECT_ENTRIES);
    expect(memo.get(key)).toBe(1);
  });

  it('without refreshOnRead, reads an old entry where it is: it falls out at the next turn-over', () => {
    const memo = new RecentObjects<number>(false);
    const key = {};
    memo.set(key, 1);
    fill(memo, RECENT_OBJECT_ENTRIES);
    expect(memo.get(key)).toBe(1);
    fill(memo, RECENT_OBJECT_ENTRIES);
    expect(memo.get(key)).toBeUndefined();
  });
});
