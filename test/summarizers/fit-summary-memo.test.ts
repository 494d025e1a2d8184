import { describe, expect, it } from 'vitest';
import { fitSummary } from '../../src/summarizers/sections.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';

/** A counter that counts a token per character and records what it was asked to count. */
function countingCounter(name: string, perCharacter: number): TokenCounter & { readonly texts: string[] } {
  const texts: string[] = [];
  return { name, texts, count: (text: string) => (texts.push(text), text.length * perCharacter) };
}

describe('fitSummary: the count it remembers belongs to one counter', () => {
  const claims = [
    { text: 'Alpha task sentence one.', spanIds: ['a'] },
    { text: 'Beta decision one.', spanIds: ['b'] },
  ];
  const structured = `Task:\n- ${claims[0]?.text}\nDecisions:\n- ${claims[1]?.text}`;

  it('keeps each counter its own last fit: two sessions compacting in turn do not push out each other', () => {
    const first = countingCounter('first', 1);
    const second = countingCounter('second', 3);
    const fittedFirst = fitSummary(structured, claims, 1_000, first);
    const fittedSecond = fitSummary(structured, claims, 10_000, second);
    expect(fittedSecond.tokens).toBe(structured.length * 3);
    const counted = first.texts.length;
    // The compaction of the first session fits its summarizer's summary again, after the second session's fit.
    expect(fitSummary(fittedFirst.summary, fittedFirst.claims, 1_000, first)).toEqual(fittedFirst);
    expect(first.texts.length).toBe(counted);
  });

  it('never answers one counter with the count another gave for the same text', () => {
    const small = countingCounter('small', 1);
    const large = countingCounter('large', 5);
    fitSummary(structured, claims, 10_000, small);
    expect(fitSummary(structured, claims, 10_000, large).tokens).toBe(structured.length * 5);
    expect(fitSummary(structured, claims, 10_000, small).tokens).toBe(structured.length);
  });
});
