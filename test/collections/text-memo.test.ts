import { describe, expect, it } from 'vitest';
import { TextMemo } from '../../src/collections/text-memo.js';

describe('TextMemo', () => {
  it('remembers values by text and starts over past its entry bound', () => {
    const memo = new TextMemo<number>(2, 1_000);
    memo.set('a', 1);
    memo.set('b', 2);
    expect(memo.get('a')).toBe(1);
    memo.set('c', 3);
    expect(memo.get('a')).toBeUndefined();
    expect(memo.get('c')).toBe(3);
  });

  it('counts the characters of texts and string values, and keeps no pair over the bound', () => {
    const memo = new TextMemo<string>(100, 10);
    memo.set('abcd', 'ab');
    expect(memo.get('abcd')).toBe('ab');
    memo.set('efgh', 'ef');
    // 6 + 6 characters pass 10: the memo started over with the second pair.
    expect(memo.get('abcd')).toBeUndefined();
    expect(memo.get('efgh')).toBe('ef');
    memo.set('x'.repeat(11), '');
    expect(memo.get('x'.repeat(11))).toBeUndefined();
    expect(memo.get('efgh')).toBe('ef');
  });
});
