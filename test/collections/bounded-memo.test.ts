import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '../../src/collections/bounded-memo.js';

describe('BoundedMemo', () => {
  it('never holds more than its limit: it starts over when full, then remembers again', () => {
    const memo = new BoundedMemo<string, number>(3);
    for (const [index, key] of ['a', 'b', 'c'].entries()) memo.set(key, index);
    expect([memo.size, memo.get('a'), memo.get('c')]).toEqual([3, 0, 2]);
    memo.set('d', 3);
    expect([memo.size, memo.get('a'), memo.get('d')]).toEqual([1, undefined, 3]);
    memo.clear();
    expect([memo.size, memo.get('d')]).toEqual([0, undefined]);
  });
});
