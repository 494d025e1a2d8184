/**
 * Latency of appending one agent turn of 1–20 KB (the real messages of that size from the data
 * sets), one append per turn, after a history of earlier turns: `session.append` (chunk, hash,
 * o200k count, extract, write) and `store.append` of the turn's already built entries (the
 * store's share). Targets: session.append p99 <= 5 ms on SQLite, <= 15 ms on PostgreSQL.
 * PostgreSQL runs when `CONTEXT_LEDGER_PG_URL` is set.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createLedger } from '../../src/ledger.js';
import { messageToEntries } from '../../src/ingest.js';
import type { TranscriptMessage } from '../../src/messages.js';
import type { AppendEntry } from '../../src/stores/store.js';
import { createO200kCounter } from '../../src/token-counter.js';
import { atMost, round } from '../bench-result.js';
import type { BenchResult, TargetCheck } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { openBackend, type BenchBackend } from '../stores.js';
import { loadCorpus } from './corpus.js';
import { speedResult } from './speed-result.js';
import { percentile } from './timing.js';

const TARGET_P99_MS: Record<string, number> = { sqlite: 5, postgres: 15 };

/** Turns of 1–20 KB from the corpus, in corpus order. */
function agentTurns(texts: readonly string[]): TranscriptMessage[] {
  return texts
    .filter((text) => {
      const bytes = Buffer.byteLength(text);
      return bytes >= 1_000 && bytes <= 20_000;
    })
    .map((content, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content }));
}

interface Latencies {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** p99 of each sample's time minus what this thread spent waiting for a CPU (NaN where unknown). */
  readonly p99Own: number;
}

/** Linux: nanoseconds this thread has waited on a run queue (other processes had the CPU); undefined elsewhere. */
const SCHEDSTAT = '/proc/thread-self/schedstat';
const hasSchedstat = existsSync(SCHEDSTAT);
function runQueueWaitMs(): number {
  return hasSchedstat ? Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[1]) / 1e6 : Number.NaN;
}

/** Times one call: wall time, and wall time minus the run-queue wait of the main thread meanwhile. */
async function timed(body: () => Promise<unknown>, wall: number[], own: number[]): Promise<void> {
  const waited = runQueueWaitMs();
  const started = performance.now();
  await body();
  const elapsed = performance.now() - started;
  wall.push(elapsed);
  own.push(elapsed - (runQueueWaitMs() - waited));
}

function summarize(times: readonly number[], own: readonly number[]): Latencies {
  return {
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: percentile(times, 1),
    p99Own: percentile(own, 0.99),
  };
}

async function measure(
  backend: BenchBackend,
  turns: readonly TranscriptMessage[],
  history: number,
  samples: number,
): Promise<{ session: Latencies; store: Latencies }> {
  const counter = createO200kCounter();
  const { store, dispose } = await openBackend(backend);
  try {
    const built = (from: number, count: number, byteStart: number): { entries: AppendEntry[]; byteEnd: number } => {
      const entries: AppendEntry[] = [];
      let byte = byteStart;
      for (let index = from; index < from + count; index += 1) {
        const ingested = messageToEntries(turns[index % turns.length] as TranscriptMessage, {
          maxSpanTokens: 2000,
          counter,
          byteStart: byte,
        });
        entries.push(...ingested.entries);
        byte = ingested.byteEnd;
      }
      return { entries, byteEnd: byte };
    };
    // History: earlier turns written straight to the store in batches (their entries built once).
    await store.openSession('turns');
    const { entries: past, byteEnd } = built(0, history, 0);
    for (let from = 0; from < past.length; from += 500) await store.append('turns', from, past.slice(from, from + 500));
    // store.append: one turn's pre-built entries per call.
    const storeTimes: number[] = [];
    const storeOwn: number[] = [];
    let seq = past.length;
    let byte = byteEnd;
    for (let sample = 0; sample < samples; sample += 1) {
      const turn = built(history + sample, 1, byte);
      await timed(() => store.append('turns', seq, turn.entries), storeTimes, storeOwn);
      seq += turn.entries.length;
      byte = turn.byteEnd;
    }
    // session.append: the whole path, on the same session reopened through a ledger.
    const session = await createLedger({ store, tokenCounter: counter }).session('turns', {
      window: { maxTokens: 10_000_000 },
    });
    const sessionTimes: number[] = [];
    const sessionOwn: number[] = [];
    for (let sample = 0; sample < samples; sample += 1) {
      const turn = turns[(history + samples + sample) % turns.length] as TranscriptMessage;
      await timed(() => session.append(turn), sessionTimes, sessionOwn);
    }
    return { session: summarize(sessionTimes, sessionOwn), store: summarize(storeTimes, storeOwn) };
  } finally {
    await store.close();
    await dispose();
  }
}

/** Run the append latency benchmark. */
export async function runAppendLatencyBench(context: BenchContext): Promise<BenchResult> {
  const corpus = await loadCorpus(context, 14e6);
  const turns = agentTurns(corpus.texts);
  const history = context.quick ? 1_000 : 3_000;
  const samples = context.quick ? 300 : 1_000;
  const backends: BenchBackend[] = ['sqlite', ...(process.env.CONTEXT_LEDGER_PG_URL ? ['postgres' as const] : [])];
  const rows: (string | number | null)[][] = [];
  const targets: TargetCheck[] = [];
  const meanKb = turns.reduce((sum, turn) => sum + Buffer.byteLength(turn.content), 0) / turns.length / 1000;
  for (const backend of backends) {
    context.log(`append latency: ${backend}, history ${history} turns, ${samples} samples`);
    const result = await measure(backend, turns, history, samples);
    for (const [path, latencies] of [
      ['session.append (whole turn)', result.session],
      ['store.append (built entries)', result.store],
    ] as const)
      rows.push([
        backend,
        path,
        round(latencies.p50, 3),
        round(latencies.p99, 3),
        round(latencies.max, 3),
        Number.isNaN(latencies.p99Own) ? null : round(latencies.p99Own, 3),
      ]);
    targets.push(
      atMost(
        `session.append p99 of a 1-20 KB turn, ${backend} (ms)`,
        round(result.session.p99, 3),
        TARGET_P99_MS[backend] ?? 5,
      ),
    );
  }
  return speedResult(context, 'speed-append', 'Append latency of one agent turn', {
    notes: [
      `Turns: the ${turns.length} messages of 1-20 KB in ${corpus.source} (mean ${meanKb.toFixed(1)} KB), one turn per append, o200k counter; history ${history} turns first, then ${samples} timed appends per path.`,
      'p99 own: p99 of each append minus the time the main thread waited for a CPU meanwhile (Linux schedstat; other processes on a shared machine); the target is checked on the plain p99.',
      `Stores: ${backends.join(', ')}${process.env.CONTEXT_LEDGER_PG_URL ? '' : ' (set CONTEXT_LEDGER_PG_URL to include PostgreSQL)'}.`,
    ],
    tables: [{ title: 'Append latency (ms)', columns: ['store', 'path', 'p50', 'p99', 'max', 'p99 own'], rows }],
    targets,
  });
}
