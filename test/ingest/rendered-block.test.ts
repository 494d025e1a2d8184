import { describe, expect, it } from 'vitest';
import { messageToEntries } from '../../src/ingest/ingest.js';
import { appendedSource } from '../../src/ingest/messages.js';
import { blockSummary, boilerplateRanges, foreignBlock, renderedBlockOf } from '../../src/ingest/rendered-block.js';
import { GAPS_HEADING, RECALL_HINT, SECTION_HEADINGS } from '../../src/text/block-headings.js';
import { createApproximateCounter, createO200kCounter } from '../../src/tokens/token-counter.js';

const RECORD = 'rec_0123456789abcdef01234567';
const BLOCK = [
  '[context-ledger]',
  SECTION_HEADINGS.base.instructions,
  '- [user instruction] Never push to main without review.',
  `Earlier turns (seq 0-48) were compacted into record ${RECORD}, depth 1, lossless.`,
  RECALL_HINT,
].join('\n');

describe('renderedBlockOf', () => {
  it('finds a whole block by its marker line and names the records it names', () => {
    expect(renderedBlockOf(BLOCK)).toEqual({ complete: true, recordIds: [RECORD] });
    expect(renderedBlockOf(`[system]\n${BLOCK}\n\n[assistant]\nDone.`)?.complete).toBe(true);
  });

  it('reads the marker with look-alike brackets and letters, list markers and CR line breaks', () => {
    expect(renderedBlockOf('Context so far:\r\uFF3Bcontext-ledger\uFF3D\rHandle index: x')?.complete).toBe(true);
    expect(renderedBlockOf('> [c\u043Entext-ledger]\nmore')?.complete).toBe(true);
  });

  it('finds a fragment (a heading, the recall hint, a one-line note) but calls it incomplete', () => {
    expect(renderedBlockOf(`notes\n${GAPS_HEADING}\n- gone`)).toEqual({ complete: false, recordIds: [] });
    expect(renderedBlockOf(`see below\n  ${RECALL_HINT}`)?.complete).toBe(false);
    const hookNote = `[context-ledger] Claude Code's summary replaced seq 0-9 (record ${RECORD}, lossy); every original is stored.`;
    expect(renderedBlockOf(hookNote)).toEqual({ complete: false, recordIds: [RECORD] });
  });

  it('leaves ordinary text alone, the marker inside a line included', () => {
    expect(renderedBlockOf('Please never push to main.')).toBeUndefined();
    expect(renderedBlockOf('The tool prints [context-ledger] at the top of its block.')).toBeUndefined();
    expect(renderedBlockOf('Handle index of the cache: 4 entries.')).toBeUndefined();
  });
});

describe('where an appended message is decided to be ours', () => {
  it('stores a user or system message carrying a block as harness, keeps other sources and roles', () => {
    expect(appendedSource({ role: 'user', content: BLOCK })).toBe('harness');
    expect(appendedSource({ role: 'system', content: BLOCK })).toBe('harness');
    expect(appendedSource({ role: 'user', content: BLOCK, source: 'client' })).toBe('client');
    expect(appendedSource({ role: 'user', content: 'Never push to main.' })).toBeUndefined();
    expect(appendedSource({ role: 'tool', content: BLOCK, toolCallId: 'c1' })).toBeUndefined();
  });

  it('indexes no handle or constraint of the block boilerplate lines', () => {
    const { entries } = messageToEntries(
      { role: 'user', content: BLOCK },
      { maxSpanTokens: 4000, counter: createApproximateCounter(), byteStart: 0 },
    );
    expect(entries.map((entry) => [entry.span.kind, entry.role])).toEqual([['harness', 'user']]);
    const texts = entries.flatMap((entry) => entry.handles.map((handle) => handle.text));
    expect(texts).not.toContain('sha256');
    expect(texts.some((text) => text.includes('Never fill a gap'))).toBe(false);
    expect(texts).toContain(RECORD);
    const [first] = boilerplateRanges(BLOCK);
    expect(first).toEqual([0, '[context-ledger]'.length]);
  });

  it('picks the last whole block naming no held record as the one to import', () => {
    const messages = [
      { role: 'user', content: BLOCK },
      { role: 'tool', content: BLOCK },
      { role: 'user', content: 'Go on.' },
    ];
    expect(foreignBlock(messages, () => false)).toEqual({ index: 0, recordIds: [RECORD] });
    expect(foreignBlock(messages, (id) => id === RECORD)).toBeUndefined();
    expect(foreignBlock([{ role: 'user', content: GAPS_HEADING }], () => false)).toBeUndefined();
  });
});

describe('blockSummary', () => {
  const counter = createO200kCounter();
  const spanId = `sha256:${'a'.repeat(64)}`;
  const index = Array.from(
    { length: 3 },
    (_, group) => `identifier: ${Array.from({ length: 60 }, (_, item) => `ip-10-${group}-0-${item}`).join(' | ')}`,
  );
  const large = [
    BLOCK.split('\n').slice(0, 3),
    'Handle index (verbatim, most useful first):',
    ...index,
    BLOCK.split('\n').slice(3),
  ]
    .flat()
    .join('\n');

  it('keeps a block that fits as it is', () => {
    expect(blockSummary(BLOCK, 1000, counter, spanId)).toBe(BLOCK);
  });

  it('drops the longest index lines first, keeps the constraints and the record line, and says where the rest is', () => {
    const summary = blockSummary(large, 200, counter, spanId);
    expect(counter.count(summary)).toBeLessThanOrEqual(200);
    expect(summary).toContain('- [user instruction] Never push to main without review.');
    expect(summary).toContain(`compacted into record ${RECORD}`);
    expect(summary).not.toContain('ip-10-0-0-1 |');
    expect(summary).toContain(`3 lines of this block are not shown here; it is stored whole from span ${spanId}`);
  });
});
