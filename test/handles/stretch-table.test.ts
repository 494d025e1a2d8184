import { describe, expect, it } from 'vitest';
import { StretchTable } from '../../src/handles/stretch-table.js';

describe('StretchTable', () => {
  it('finds a stretch by its characters, wherever in whichever string it sits', () => {
    const table = new StretchTable<number>(8);
    table.set('xx foo.bar yy', 2, 11, 1);
    expect(table.get('(foo.bar ', 0, 9)).toBeUndefined();
    expect(table.get('a foo.bar b', 1, 10)).toBe(1);
    expect(table.get(' foo.bar', 0, 8)).toBeUndefined();
    expect(table.get(' foo.baz ', 0, 9)).toBeUndefined();
    table.set(' foo.bar ', 0, 9, 2);
    expect([table.size, table.get('zz foo.bar zz', 2, 11)]).toEqual([1, 2]);
  });

  it('never holds more than its limit: it starts over when full, then remembers again', () => {
    const table = new StretchTable<number>(3);
    for (const [index, key] of ['a', 'b', 'c'].entries()) table.set(key, 0, 1, index);
    expect([table.size, table.get('a', 0, 1), table.get('c', 0, 1)]).toEqual([3, 0, 2]);
    table.set('d', 0, 1, 3);
    expect([table.size, table.get('a', 0, 1), table.get('d', 0, 1)]).toEqual([1, undefined, 3]);
    table.clear();
    expect([table.size, table.get('d', 0, 1)]).toEqual([0, undefined]);
  });

  it('starts over when its char pool is full, and skips a key longer than the pool', () => {
    const table = new StretchTable<number>(2);
    const long = 'x'.repeat(40);
    table.set(long, 0, 40, 1);
    table.set('y'.repeat(30), 0, 30, 2);
    expect([table.size, table.get(long, 0, 40), table.get('y'.repeat(30), 0, 30)]).toEqual([1, undefined, 2]);
    table.set('z'.repeat(65), 0, 65, 3);
    expect([table.size, table.get('z'.repeat(65), 0, 65)]).toEqual([1, undefined]);
  });

  it('keeps thousands of keys apart, the empty one included', () => {
    const table = new StretchTable<number>(4096);
    const keys = Array.from({ length: 4096 }, (_, index) => (index === 0 ? '' : `k${index.toString(36)}`));
    keys.forEach((key, index) => table.set(`(${key})`, 1, key.length + 1, index));
    expect(keys.every((key, index) => table.get(key, 0, key.length) === index)).toBe(true);
    expect(table.get('k', 0, 1)).toBeUndefined();
  });
});
