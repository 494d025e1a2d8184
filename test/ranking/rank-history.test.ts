import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HISTORY_LOOKBACK_SEQS,
  RankHistory,
  historyOccurrence,
  lookbackRange,
  rankSpanOf,
} from '../../src/ranking/rank-history.js';
import { mergeHandles } from '../../src/handles/handle-sets.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { createLedger } from '../../src/session/ledger.js';
import { fillerTurns, SEED_OPENING } from '../helpers.js';

/** A store that counts, per seq, how often its handle rows and occurrences were read. */
function countingStore(store: LedgerStore) {
  const handleReads = new Map<number, number>();
  const occurrenceReads = new Map<number, number>();
  const count = (reads: Map<number, number>, range: { fromSeq?: number; toSeq?: number } | undefined, next: number) => {
    const from = range?.fromSeq ?? 0;
    const to = range?.toSeq ?? next - 1;
    for (let seq = from; seq <= to; seq++) reads.set(seq, (reads.get(seq) ?? 0) + 1);
  };
  let next = 0;
  const counted: LedgerStore = Object.create(store) as LedgerStore;
  Object.assign(counted, {
    append: async (...args: Parameters<LedgerStore['append']>) => {
      const written = await store.append(...args);
      next = args[1] + written.length;
      return written;
    },
    handles: (sessionId: string, range?: { fromSeq?: number; toSeq?: number }) => {
      count(handleReads, range, next);
      return store.handles(sessionId, range);
    },
    occurrences: (sessionId: string, range?: { fromSeq?: number; toSeq?: number }) => {
      count(occurrenceReads, range, next);
      return store.occurrences(sessionId, range);
    },
  });
  return { store: counted, handleReads, occurrenceReads };
}

/** A session of `messages` appended to a memory store (no compaction: a huge window). */
async function appended(messages: readonly TranscriptMessage[]) {
  const store = createMemoryStore();
  const ledger = createLedger({ store });
  const session = await ledger.session('history', { window: { maxTokens: 1_000_000 } });
  for (const message of messages) await session.append(message);
  return { store, spans: await store.nextSeq('history') };
}

/** What the ranking's lookback before `regionFrom` is when recomputed from the store. */
async function fromStore(store: LedgerStore, regionFrom: number, lookback: number) {
  const range = lookbackRange(regionFrom, lookback);
  if (!range) return { occurrences: [], handles: [] };
  const occurrences = await store.occurrences('history', range);
  return {
    occurrences: occurrences.map(historyOccurrence),
    handles: await store.handles('history', range),
  };
}

describe('RankHistory', () => {
  it('keeps only the text the ranking reads: a tool call keeps it, every other span drops it', () => {
    const span = { id: 'x', kind: 'tool-result' as const, text: 'long output', tokens: 3, toolName: 'bash' };
    expect(rankSpanOf({ span })).toEqual({ kind: 'tool-result', toolName: 'bash', tokens: 3, text: '' });
    const call = { ...span, kind: 'tool-call' as const, text: '{"command":"ls"}' };
    expect(rankSpanOf({ span: call }).text).toBe('{"command":"ls"}');
  });

  it('gives the same lookback and handle rows as the store on a randomized session, reading each seq once', async () => {
    const messages = [SEED_OPENING, ...fillerTurns(90)];
    const { store, spans } = await appended(messages);
    await fc.assert(
      fc.asyncProperty(
        // Window cuts (compactions) and jumps (a summary imported from another tool covers them, nothing compacted).
        fc.array(fc.record({ size: fc.integer({ min: 1, max: 40 }), jump: fc.boolean() }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 120 }),
        async (steps, lookahead, lookback) => {
          const counted = countingStore(store);
          const history = new RankHistory(counted.store, 'history', lookback);
          let windowStart = 0;
          for (const { size, jump } of steps) {
            const windowEnd = Math.min(spans - 1, windowStart + size + lookahead);
            if (windowStart >= spans) break;
            // What a refill plan reads: the window's handle rows.
            expect(await history.handles(windowStart, windowEnd)).toEqual(
              await store.handles('history', { fromSeq: windowStart, toSeq: windowEnd }),
            );
            const regionEnd = Math.min(spans - 1, windowStart + size - 1);
            if (jump) {
              history.forgetBefore(regionEnd + 1);
            } else {
              expect(await history.handles(windowStart, regionEnd)).toEqual(
                await store.handles('history', { fromSeq: windowStart, toSeq: regionEnd }),
              );
              expect(await history.before(windowStart)).toEqual(await fromStore(store, windowStart, lookback));
              history.compacted(await store.occurrences('history', { fromSeq: windowStart, toSeq: regionEnd }));
            }
            windowStart = regionEnd + 1;
          }
          // With no jumps, every seq's handle rows were read from the store once at most.
          if (steps.every((step) => !step.jump))
            for (const reads of counted.handleReads.values()) expect(reads).toBe(1);
        },
      ),
      { numRuns: 40, seed: 13 },
    );
  });

  it('answers a refill plan and the compaction after it with the same lookback, built once', async () => {
    const { store } = await appended([SEED_OPENING, ...fillerTurns(30)]);
    const history = new RankHistory(store, 'history', 20);
    const first = await history.before(25);
    expect(await history.before(25)).toBe(first);
    expect(first).toEqual(await fromStore(store, 25, 20));
    const distinct = await history.distinctBefore(25);
    expect(distinct).toEqual(mergeHandles(first.handles));
    expect(await history.distinctBefore(25)).toBe(distinct);
    const next = await history.before(27);
    expect(next).not.toBe(first);
    expect(next).toEqual(await fromStore(store, 27, 20));
  });

  it('lets a long session compact without re-reading the lookback from the store', async () => {
    const inner = createMemoryStore();
    const counted = countingStore(inner);
    const ledger = createLedger({ store: counted.store, now: () => new Date('2026-11-12T10:00:00Z') });
    const session = await ledger.session('long', { window: { maxTokens: 1500 } });
    await session.append(SEED_OPENING);
    for (let round = 0; round < 420; round++) {
      await session.append(fillerTurns(1, round));
      await session.compactIfDue();
    }
    const spans = await inner.nextSeq('long');
    expect(spans).toBeGreaterThan(HISTORY_LOOKBACK_SEQS);
    expect(session.records().length).toBeGreaterThan(50);
    // Before, every compaction re-read the handle rows and occurrences of up to 1,000 seqs; now the rows the session
    // appended are held from its appends, and none is read back.
    expect(counted.handleReads.size).toBe(0);
    expect(counted.occurrenceReads.size).toBe(0);
  }, 120_000);

  it('holds the handle rows of appended entries exactly as the store gives them back (memory and SQLite)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'context-ledger-history-'));
    try {
      const long = `Deploy notes.\n${Array.from({ length: 400 }, (_, line) => `line ${line}: set RETRY_LIMIT=${line} in /srv/app/conf-${line}.yaml`).join('\n')}`;
      const messages = [
        SEED_OPENING,
        ...fillerTurns(12),
        { role: 'tool' as const, content: long, toolCallId: 'call_11' },
      ];
      for (const inner of [createMemoryStore(), createSqliteStore({ path: join(directory, 'ledger.db') })]) {
        const counted = countingStore(inner);
        // A history fed from the start, and one made after the first appends (a resumed session), both fed.
        const fed = new RankHistory(counted.store, 'fed');
        let resumed: RankHistory | undefined;
        let resumedAt = 0;
        const store: LedgerStore = Object.create(counted.store) as LedgerStore;
        store.append = async (sessionId, expectedNextSeq, entries) => {
          const written = await counted.store.append(sessionId, expectedNextSeq, entries);
          fed.appended(expectedNextSeq, entries);
          resumed?.appended(expectedNextSeq, entries);
          return written;
        };
        const session = await createLedger({ store }).session('fed', { window: { maxTokens: 1_000_000 } });
        for (const [index, message] of messages.entries()) {
          if (index === 5) {
            resumed = new RankHistory(counted.store, 'fed');
            resumedAt = await inner.nextSeq('fed');
          }
          await session.append(message);
        }
        const spans = await inner.nextSeq('fed');
        expect(spans).toBeGreaterThan(messages.length);
        const stored = await inner.handles('fed', { fromSeq: 0, toSeq: spans - 1 });
        expect(stored.length).toBeGreaterThan(400);
        expect(await fed.handles(0, spans - 1)).toEqual(stored);
        expect(counted.handleReads.size).toBe(0);
        // The resumed history reads the seqs before its first append from the store, the rest it holds.
        expect(await resumed?.handles(0, spans - 1)).toEqual(stored);
        expect(resumedAt).toBeGreaterThan(0);
        expect([...counted.handleReads.keys()].sort((a, b) => a - b)).toEqual([...Array(resumedAt).keys()]);
        await inner.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
