import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countO200kTokens } from '../../src/tokens/o200k-count.js';
import { createApproximateCounter, createO200kCounter } from '../../src/tokens/token-counter.js';
import { countBlock, SegmentCounts } from '../../src/window/window-count.js';

const o200k = createO200kCounter();

/** Characters around the block's cuts (line starts, ` | `, `. `) and the pre-tokenizer's special cases. */
const unit = fc.constantFrom(
  'a',
  'Z',
  '7',
  ' ',
  ' ',
  '|',
  '.',
  '\n',
  '\n',
  '/',
  '\t',
  '\r',
  "'",
  'é',
  '日',
  '-',
  '_',
  ':',
);

describe('countBlock', () => {
  it('equals countO200kTokens of the whole text', () => {
    const segments = new SegmentCounts();
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 300 }), (text) => {
        expect(countBlock(text, o200k, segments)).toBe(countO200kTokens(text));
        // Counted again from the remembered segments.
        expect(countBlock(text, o200k, segments)).toBe(countO200kTokens(text));
      }),
      { numRuns: 500, seed: 13 },
    );
  });

  it('equals it on ledger-block lines and when a stretch is longer than a counting piece (counted whole)', () => {
    const entries = Array.from({ length: 300 }, (_, index) => `src/module-${index}/file.ts`);
    const block = [
      '[context-ledger]',
      'Summary: The user asked for a fix. It was made. Tests pass.',
      `path: ${entries.join(' | ')}`,
      '- [user instruction] do not touch prod.',
    ].join('\n');
    expect(countBlock(block, o200k, new SegmentCounts())).toBe(countO200kTokens(block));
    for (const run of ['x'.repeat(2500), ' '.repeat(1500), `a | ${'y'.repeat(1200)} | b`]) {
      const text = `${block}\n${run}\nend. | tail`;
      expect(countBlock(text, o200k, new SegmentCounts())).toBe(countO200kTokens(text));
    }
  });

  it('counts whole with any other counter', () => {
    const counter = createApproximateCounter();
    const calls: string[] = [];
    const spy = { name: counter.name, count: (text: string) => (calls.push(text), counter.count(text)) };
    expect(countBlock('a | b\nc. d', spy, new SegmentCounts())).toBe(counter.count('a | b\nc. d'));
    expect(calls).toEqual(['a | b\nc. d']);
  });

  it('keeps its segment counts in the SegmentCounts passed in, nowhere else', () => {
    const block = 'Summary: The user asked for a fix. It was made.\npath: src/a.ts | src/b.ts';
    const first = new SegmentCounts();
    expect(countBlock(block, o200k, first)).toBe(countO200kTokens(block));
    expect(first.size).toBeGreaterThan(0);
    // Another memo starts empty, and counts the same.
    const second = new SegmentCounts();
    expect(second.size).toBe(0);
    expect(countBlock(block, o200k, second)).toBe(countO200kTokens(block));
    expect(second.size).toBe(first.size);
  });
});
