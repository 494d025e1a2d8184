/**
 * One compaction cycle at a long session vs a short one (target: <= 1.2x — the cost should
 * follow the window, not the history). History is written with direct store appends of
 * synthetic spans, then one setup compaction folds it into a record (and its spill
 * checkpoint, as a long session's history would be); each measured cycle appends synthetic
 * messages through `session.append` until the window is over `compactAt` and times the
 * `render()` that compacts; the cycles of the two sizes alternate. The summarizer is a
 * constant one (one claim citing the region's first span), so the summarizer's own cost is excluded. Also timed, to locate hot spots:
 * the pieces a cycle does whose size follows the carried handle set.
 */
import { mergeHandles } from '../../src/handles/handle-sets.js';
import { createLedger } from '../../src/session/ledger.js';
import type { LedgerSession } from '../../src/session/session.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { Summarizer } from '../../src/summarizers/summarizer.js';
import { createApproximateCounter } from '../../src/tokens/token-counter.js';
import { atMost, round } from '../bench-result.js';
import type { BenchResult, TargetCheck } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { openBackend, type BenchBackend } from '../stores.js';
import { speedResult } from './speed-result.js';
import { syntheticEntries, syntheticLine } from './synthetic-spans.js';
import { median, timeMs } from './timing.js';

/** A summarizer that does no work: one fixed sentence citing the region's first span. */
export const constantSummarizer: Summarizer = {
  identity: { name: 'bench-constant', version: '1' },
  summarize: async (request) => {
    const first = request.units[0];
    const text = 'Earlier steps edited modules and ran their tests.';
    return { summary: text, claims: first ? [{ text, spanIds: first.spanIds }] : [] };
  },
};

interface Cycle {
  readonly history: number;
  readonly cycleMs: number;
  readonly carried: number;
  readonly recordsMs: number;
  readonly handlesRangeMs: number;
  readonly mergeMs: number;
  readonly serializeMs: number;
  readonly checkpointBytes: number;
}

/** A session with `history` spans behind it, ready for measured cycles. */
interface Prepared {
  readonly history: number;
  readonly store: LedgerStore;
  readonly session: LedgerSession;
  readonly times: number[];
  next: number;
}

async function prepare(store: LedgerStore, history: number): Promise<Prepared> {
  await store.openSession('cycle');
  let byte = 0;
  for (let from = 0; from < history; from += 5000) {
    const { entries, byteEnd } = syntheticEntries(from, Math.min(history, from + 5000), byte);
    await store.append('cycle', from, entries);
    byte = byteEnd;
  }
  const ledger = createLedger({ store, tokenCounter: createApproximateCounter(), summarizer: constantSummarizer });
  const session = await ledger.session('cycle', { window: { maxTokens: 8000 } });
  await session.compact(2000);
  return { history, store, session, times: [], next: history };
}

/** Append until the window is over `compactAt`, then time the `render()` that compacts. */
async function cycle(prepared: Prepared): Promise<void> {
  const { session } = prepared;
  while (session.peek().tokens <= session.config.compactAt * session.config.maxTokens) {
    const next = prepared.next++;
    await session.append({ role: next % 2 === 0 ? 'user' : 'assistant', content: syntheticLine(next).text });
  }
  const before = session.records().length;
  prepared.times.push(await timeMs(() => session.render()));
  if (session.records().length === before) throw new Error('render did not compact');
}

async function finish(prepared: Prepared): Promise<Cycle> {
  const { store, session, history } = prepared;
  const active = session.activeRecord();
  const checkpoint = session.records().find((record) => record.id === active?.checkpointId);
  const carried = session.handleIndex().length;
  const last = active?.droppedRange.toSeq ?? 0;
  return {
    history,
    cycleMs: median(prepared.times),
    carried,
    recordsMs: await timeMs(() => store.records('cycle')),
    handlesRangeMs: await timeMs(() => store.handles('cycle', { fromSeq: Math.max(0, last - 100), toSeq: last })),
    mergeMs: await timeMs(() => mergeHandles(active?.handles ?? [], checkpoint?.handles ?? [])),
    serializeMs: await timeMs(() => JSON.stringify(checkpoint ?? {})),
    checkpointBytes: JSON.stringify(checkpoint ?? {}).length,
  };
}

/**
 * Both sizes of one backend: the two sessions are prepared first, then their cycles alternate
 * (short, long, short, …) so a burst of load on the shared machine hits both sides alike.
 */
async function measureBackend(context: BenchContext, backend: BenchBackend, sizes: readonly number[], cycles: number) {
  const opened: { store: LedgerStore; dispose(): Promise<void> }[] = [];
  try {
    const prepared: Prepared[] = [];
    for (const history of sizes) {
      context.log(`compaction cycle: ${backend}, history ${history} spans`);
      const backendStore = await openBackend(backend);
      opened.push(backendStore);
      prepared.push(await prepare(backendStore.store, history));
    }
    for (let round = 0; round < cycles; round++) for (const side of prepared) await cycle(side);
    const results: Cycle[] = [];
    for (const side of prepared) results.push(await finish(side));
    return results;
  } finally {
    for (const { store, dispose } of opened) {
      await store.close();
      await dispose();
    }
  }
}

/** Run the compaction cycle benchmark. */
export async function runCompactionCycleBench(context: BenchContext): Promise<BenchResult> {
  const long = 100_000;
  const cycles = context.quick ? 5 : 11;
  const rows: (string | number | null)[][] = [];
  const targets: TargetCheck[] = [];
  const backends: BenchBackend[] = [
    'sqlite',
    'memory',
    ...(process.env.CONTEXT_LEDGER_PG_URL ? ['postgres' as const] : []),
  ];
  for (const backend of backends) {
    const results = await measureBackend(context, backend, [1000, long], cycles);
    for (const result of results)
      rows.push([
        backend,
        result.history,
        round(result.cycleMs, 2),
        result.carried,
        round(result.recordsMs, 2),
        round(result.handlesRangeMs, 2),
        round(result.mergeMs, 2),
        round(result.serializeMs, 2),
        result.checkpointBytes,
      ]);
    const [short, longResult] = results;
    if (short && longResult)
      targets.push(
        atMost(
          `compaction cycle @${long / 1000}k / @1k spans (${backend})`,
          round(longResult.cycleMs / short.cycleMs, 3),
          1.2,
        ),
      );
  }
  return speedResult(context, 'speed-compaction', 'Compaction cycle vs history length', {
    notes: [
      `Window 8000 tokens, approximate counter, constant summarizer; median of ${cycles} cycles per size, the two sizes' cycles alternating (1k, 100k, 1k, …) in one process.`,
      `Stores: ${backends.join(', ')}${process.env.CONTEXT_LEDGER_PG_URL ? '' : ' (set CONTEXT_LEDGER_PG_URL to include PostgreSQL)'}.`,
      "Columns after \"carried handles\" time pieces a cycle performs, measured separately at the end state: reading all records, reading the region's handles by seq range (last 100 spans), merging the active record's handles with its checkpoint's, and serializing the checkpoint record.",
    ],
    tables: [
      {
        title: 'Compaction cycle (ms)',
        columns: [
          'store',
          'history spans',
          'cycle median',
          'carried handles (index + checkpoint)',
          'records()',
          'handles(range)',
          'merge index+checkpoint',
          'serialize checkpoint',
          'checkpoint JSON bytes (rewritten every cycle)',
        ],
        rows,
      },
    ],
    targets,
  });
}
