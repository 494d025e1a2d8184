import { describe, expect, it } from 'vitest';
import { createO200kCounter } from '../../src/index.js';
import type { TokenCounter } from '../../src/index.js';
import {
  MOSTLY_UNCACHED_BELOW,
  PRICE_MODEL,
  addPrompt,
  cachedCost,
  cachedPrefixTokens,
  createPromptCacheMeter,
  emptyTally,
  poolTallies,
  prefixShare,
  promptTokens,
  relativeCost,
  sharedLineStart,
} from '../../bench/real/prompt-cache.js';
import type { PromptMessage } from '../../bench/real/prompt-cache.js';
import { CACHE_ARMS, pooledCacheRuns } from '../../bench/real/prompt-cache-bench.js';
import type { CacheRun } from '../../bench/real/prompt-cache-bench.js';

/** One token a word: every figure below can be checked by hand. */
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;
const wordCounter: TokenCounter = { name: 'words', count: words };

const system: PromptMessage = { role: 'system', content: 'you fix bugs' };
const task: PromptMessage = { role: 'user', content: 'fix the parser' };

describe('sharedLineStart', () => {
  it('is the whole text for equal texts and 0 when the first line already differs', () => {
    expect(sharedLineStart('same text', 'same text')).toBe(9);
    expect(sharedLineStart('abc', 'abd')).toBe(0);
  });

  it('cuts the common text back to the start of its last common line', () => {
    expect(sharedLineStart('x\ny\nz1', 'x\ny\nz2')).toBe(4);
    expect(sharedLineStart('line one\nline two\nold', 'line one\nline two\nnew')).toBe(18);
    // One text a prefix of the other: the last line of the shorter one may still grow in the longer.
    expect(sharedLineStart('a\nbc', 'a\nbcd')).toBe(2);
  });

  it('does not stop before a line starting with white space or a slash (o200k may join those to the newline)', () => {
    expect(sharedLineStart('a\n b1', 'a\n b2')).toBe(0);
    expect(sharedLineStart('a.\n/b1', 'a.\n/b2')).toBe(0);
  });

  it('stops at a point where o200k splits both texts the same way', () => {
    const counter = createO200kCounter();
    const before = 'def parse(text):\n    return json.loads(text)\nraise ValueError("old")';
    const after = 'def parse(text):\n    return json.loads(text)\nraise TypeError("new")';
    const at = sharedLineStart(before, after);
    expect(before.slice(0, at)).toBe('def parse(text):\n    return json.loads(text)\n');
    for (const text of [before, after])
      expect(counter.count(text.slice(0, at)) + counter.count(text.slice(at))).toBe(counter.count(text));
  });
});

describe('promptTokens and cachedPrefixTokens', () => {
  it('counts content plus 4 framing tokens a message', () => {
    expect(promptTokens([system, task], words)).toBe(3 + 4 + 3 + 4);
    expect(promptTokens([], words)).toBe(0);
  });

  it('gives the first prompt no cached prefix, and an unchanged prompt a whole one', () => {
    expect(cachedPrefixTokens(undefined, [system, task], words)).toBe(0);
    expect(cachedPrefixTokens([system, task], [system, task], words)).toBe(14);
  });

  it('counts the previous prompt whole when the new one only appends to it', () => {
    const reply: PromptMessage = { role: 'assistant', content: 'done' };
    expect(cachedPrefixTokens([system, task], [system, task, reply], words)).toBe(14);
  });

  it('counts the first differing message up to its last shared line, and nothing after it', () => {
    const before = [system, { role: 'user', content: 'one two\nthree\nold tail' }, task];
    const after = [system, { role: 'user', content: 'one two\nthree\nnew tail' }, task];
    // system 3 + 4, then "one two\nthree\n" = 3; the equal third message does not count after a difference.
    expect(cachedPrefixTokens(before, after, words)).toBe(7 + 3);
  });

  it('stops at a message whose role changed or that was dropped', () => {
    expect(cachedPrefixTokens([{ role: 'user', content: 'x' }], [{ role: 'assistant', content: 'x' }], words)).toBe(0);
    const later: PromptMessage = { role: 'tool', content: 'ok' };
    expect(cachedPrefixTokens([system, task, later], [system, later], words)).toBe(7);
  });
});

describe('the price model', () => {
  it('reads a cached token at 0.1x and writes every other at 1.25x the base price', () => {
    expect(PRICE_MODEL.cacheRead).toBe(0.1);
    expect(PRICE_MODEL.cacheWrite).toBe(1.25);
    expect(PRICE_MODEL.uncached).toBe(1);
    expect(cachedCost(100, 0)).toBe(125);
    expect(cachedCost(100, 100)).toBeCloseTo(10, 10);
    expect(cachedCost(100, 90)).toBeCloseTo(9 + 12.5, 10);
  });

  it('tallies share, mostly uncached prompts and the cost relative to no caching', () => {
    const tally = emptyTally();
    addPrompt(tally, 100, 0);
    addPrompt(tally, 100, 90);
    addPrompt(tally, 200, 99);
    expect(tally).toEqual({ prompts: 3, tokens: 400, prefixTokens: 189, mostlyUncached: 2, cost: 125 + 21.5 + 136.15 });
    expect(prefixShare(tally)).toBeCloseTo(189 / 400, 10);
    expect(relativeCost(tally)).toBeCloseTo((125 + 21.5 + 136.15) / 400, 10);
    expect(MOSTLY_UNCACHED_BELOW).toBe(0.5);
  });

  it('reports nothing for no tokens and refuses a prefix larger than its prompt', () => {
    expect(prefixShare(emptyTally())).toBeNull();
    expect(relativeCost(emptyTally())).toBeNull();
    expect(() => addPrompt(emptyTally(), 10, 11)).toThrow(/outside the prompt's 10 tokens/);
  });
});

describe('createPromptCacheMeter', () => {
  it('measures each prompt against the one before it', () => {
    const meter = createPromptCacheMeter(wordCounter);
    const reply: PromptMessage = { role: 'assistant', content: 'looking now' };
    expect(meter.measure([system, task])).toEqual({ tokens: 14, prefix: 0 });
    expect(meter.measure([system, task, reply])).toEqual({ tokens: 20, prefix: 14 });
    // A compaction replaces everything after the system prompt.
    expect(meter.measure([system, { role: 'user', content: 'summary' }])).toEqual({ tokens: 12, prefix: 7 });
    expect(meter.tally).toMatchObject({ prompts: 3, tokens: 46, prefixTokens: 21, mostlyUncached: 1 });
    expect(relativeCost(meter.tally)).toBeCloseTo((21 * 0.1 + 25 * 1.25) / 46, 10);
  });

  it('compares with the previous prompt as it was measured, even when the caller appends to that array later', () => {
    const meter = createPromptCacheMeter(wordCounter);
    const prompt: PromptMessage[] = [task];
    meter.measure(prompt);
    prompt.push({ role: 'assistant', content: 'looking now' });
    // The appended message is new to the cache: only the task (3 + 4) is a cached prefix.
    expect(meter.measure(prompt)).toEqual({ tokens: 13, prefix: 7 });
  });
});

describe('pooled sessions', () => {
  const tally = (prompts: number, tokens: number, prefix: number) => {
    const value = emptyTally();
    for (let index = 0; index < prompts; index++) addPrompt(value, tokens, prefix);
    return value;
  };

  it('sum every count, so a pooled share weighs each session by its tokens', () => {
    const pooled = poolTallies([tally(2, 100, 90), tally(1, 1000, 100)]);
    expect(pooled).toMatchObject({ prompts: 3, tokens: 1200, prefixTokens: 280, mostlyUncached: 1 });
    expect(prefixShare(pooled)).toBeCloseTo(280 / 1200, 6);
    expect(pooled.cost).toBeCloseTo(2 * cachedCost(100, 90) + cachedCost(1000, 100), 6);
    expect(poolTallies([])).toEqual(emptyTally());
  });

  it('pool the sessions of a data set per window and arm, and keep a lone session as it is', () => {
    const run = (session: string, dataSet: CacheRun['dataSet'], arm: string, compactions: number | null): CacheRun => ({
      session,
      dataSet,
      sessions: 1,
      window: 32000,
      arm,
      tally: tally(1, 100, 50),
      compactions,
    });
    const runs = [
      run('swe', 'swe-agent', CACHE_ARMS.ledger, 3),
      run('e1', 'entire', CACHE_ARMS.ledger, 1),
      run('e2', 'entire', CACHE_ARMS.ledger, 2),
      run('e1', 'entire', CACHE_ARMS.trim, null),
      run('e2', 'entire', CACHE_ARMS.trim, null),
    ];
    const pooled = pooledCacheRuns(runs);
    expect(pooled.map((item) => [item.session, item.arm, item.sessions, item.tally.prompts, item.compactions])).toEqual(
      [
        ['swe', CACHE_ARMS.ledger, 1, 1, 3],
        ['entire (Claude Code sessions): 2 sessions pooled', CACHE_ARMS.ledger, 2, 2, 3],
        ['entire (Claude Code sessions): 2 sessions pooled', CACHE_ARMS.trim, 2, 2, null],
      ],
    );
  });
});
