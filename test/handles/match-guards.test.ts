/**
 * The guards that keep a pattern from running (and compiling) on a text it cannot match: they pass every text the
 * pattern matches and hold back the ones without their words.
 */
import { describe, expect, it } from 'vitest';
import { GuardedPattern, holdsAny, leadingWord, OpeningPattern } from '../../src/text/match-guards.js';

describe('match guards', () => {
  it('reads the opening ASCII word in lower case', () => {
    expect(leadingWord('Ask me first')).toBe('ask');
    expect(leadingWord("don't")).toBe('don');
    expect(leadingWord('  ask')).toBe('');
    expect(leadingWord('élan')).toBe('');
  });

  it('finds a needle in any case', () => {
    expect(holdsAny('Keep it UNDER $200', ['under'])).toBe(true);
    expect(holdsAny('Keep it below', ['under', 'above'])).toBe(false);
  });

  it('runs a guarded pattern only on a text holding a needle, with the same result', () => {
    const guarded = new GuardedPattern(/\bmust\s+(\w+)/i, ['must']);
    expect(guarded.exec('You MUST sign')?.[1]).toBe('sign');
    expect(guarded.test('you must go')).toBe(true);
    expect(guarded.test('you may go')).toBe(false);
    // a text without a needle is never handed to the pattern
    const pattern = /x/;
    let runs = 0;
    pattern.test = (text: string) => {
      runs++;
      return RegExp.prototype.test.call(pattern, text);
    };
    expect(new GuardedPattern(pattern, ['x']).test('abc')).toBe(false);
    expect(runs).toBe(0);
  });

  it('leaves a skipped global pattern as a failed match does', () => {
    const pattern = /a/g;
    pattern.lastIndex = 2;
    expect(new GuardedPattern(pattern, ['a']).exec('bbb')).toBeNull();
    expect(pattern.lastIndex).toBe(0);
  });

  it('runs an opening pattern only on a text opening with one of its words', () => {
    const opening = new OpeningPattern(/^(?:stop|pause)\s+and\s+ask\b/i, ['stop', 'pause']);
    expect(opening.test('Pause and ask first')).toBe(true);
    expect(opening.test('Then stop and ask')).toBe(false);
    expect(opening.words.has('stop')).toBe(true);
  });
});
