/**
 * Latency of appending one agent turn of 1–20 KB (the real messages of that size from the data
 * sets), one append per turn, after a history of earlier turns: `session.append` (chunk, hash,
 * o200k count, extract, write) and `store.append` of the turn's already built entries (the
 * store's share). Targets: session.append p99 <= 5 ms on SQLite, <= 15 ms on PostgreSQL.
 * PostgreSQL runs when `CONTEXT_LEDGER_PG_URL` is set.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createLedger } from '../../src/session/ledger.js';
import { messageToEntries } from '../../src/ingest/ingest.js';
import { TokenMemo } from '../../src/handles/token-memo.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { AppendEntry } from '../../src/stores/store.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
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
  readonly samples: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** p99 of each sample's time minus what this thread spent waiting for a CPU (NaN where unknown). */
  readonly p99Own: number;
  /** p99 of the CPU time of the whole process (all threads) during each sample: the work, without waits or I/O. */
  readonly p99Cpu: number;
}

/** Linux: milliseconds this thread has waited on a run queue (other processes had the CPU); NaN elsewhere. */
const SCHEDSTAT = '/proc/thread-self/schedstat';
const hasSchedstat = existsSync(SCHEDSTAT);
function runQueueWaitMs(): number {
  return hasSchedstat ? Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[1]) / 1e6 : Number.NaN;
}

/** User + system CPU time of the process so far (ms; all threads: exact, unlike schedstat's tick-granular run time). */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One timed call: wall time, wall time minus the run-queue wait meanwhile, CPU time of the process, turn size. */
interface Sample {
  readonly wall: number;
  readonly own: number;
  readonly cpu: number;
  readonly bytes: number;
}

/** Times one call of a turn of `bytes` bytes. */
async function timed(body: () => Promise<unknown>, bytes: number, out: Sample[]): Promise<void> {
  const waited = runQueueWaitMs();
  const cpu = processCpuMs();
  const started = performance.now();
  await body();
  const wall = performance.now() - started;
  out.push({ wall, own: wall - (runQueueWaitMs() - waited), cpu: processCpuMs() - cpu, bytes });
}

/**
 * Between two timed appends the bench yields to the event loop once (a 1 ms timer), as an agent waits for its
 * model between turns: work a store defers off the append (SQLite's text index, PostgreSQL's pending-list clean)
 * runs there, as it would in use, instead of piling up until close.
 */
function betweenTurns(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}

function summarize(samples: readonly Sample[]): Latencies {
  const wall = samples.map((sample) => sample.wall);
  return {
    samples: samples.length,
    p50: percentile(wall, 0.5),
    p99: percentile(wall, 0.99),
    max: percentile(wall, 1),
    p99Own: percentile(
      samples.map((sample) => sample.own),
      0.99,
    ),
    p99Cpu: percentile(
      samples.map((sample) => sample.cpu),
      0.99,
    ),
  };
}

/** Size buckets of the table: every turn, then small and large turns apart. */
const BUCKETS: readonly { readonly label: string; readonly from: number; readonly to: number }[] = [
  { label: '1-20 KB', from: 1_000, to: 20_000 },
  { label: '1-5 KB', from: 1_000, to: 5_000 },
  { label: '5-20 KB', from: 5_001, to: 20_000 },
];

async function measure(
  backend: BenchBackend,
  turns: readonly TranscriptMessage[],
  history: number,
  samples: number,
): Promise<{ session: Sample[]; store: Sample[] }> {
  const counter = createO200kCounter();
  const { store, dispose } = await openBackend(backend);
  // One memo of token classifications for the session's turns, as a session keeps one.
  const tokenMemo = new TokenMemo();
  try {
    const built = (from: number, count: number, byteStart: number): { entries: AppendEntry[]; byteEnd: number } => {
      const entries: AppendEntry[] = [];
      let byte = byteStart;
      for (let index = from; index < from + count; index += 1) {
        const ingested = messageToEntries(turns[index % turns.length] as TranscriptMessage, {
          maxSpanTokens: 2000,
          counter,
          byteStart: byte,
          tokenMemo,
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
    const storeSamples: Sample[] = [];
    let seq = past.length;
    let byte = byteEnd;
    for (let sample = 0; sample < samples; sample += 1) {
      const turn = built(history + sample, 1, byte);
      const bytes = Buffer.byteLength((turns[(history + sample) % turns.length] as TranscriptMessage).content);
      await timed(() => store.append('turns', seq, turn.entries), bytes, storeSamples);
      await betweenTurns();
      seq += turn.entries.length;
      byte = turn.byteEnd;
    }
    // session.append: the whole path, on the same session reopened through a ledger.
    const session = await createLedger({ store, tokenCounter: counter }).session('turns', {
      window: { maxTokens: 10_000_000 },
    });
    const sessionSamples: Sample[] = [];
    for (let sample = 0; sample < samples; sample += 1) {
      const turn = turns[(history + samples + sample) % turns.length] as TranscriptMessage;
      await timed(() => session.append(turn), Buffer.byteLength(turn.content), sessionSamples);
      await betweenTurns();
    }
    return { session: sessionSamples, store: storeSamples };
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
  const samples = context.quick ? 300 : 2_000;
  const backends: BenchBackend[] = ['sqlite', ...(process.env.CONTEXT_LEDGER_PG_URL ? ['postgres' as const] : [])];
  const rows: (string | number | null)[][] = [];
  const targets: TargetCheck[] = [];
  const meanKb = turns.reduce((sum, turn) => sum + Buffer.byteLength(turn.content), 0) / turns.length / 1000;
  for (const backend of backends) {
    context.log(`append latency: ${backend}, history ${history} turns, ${samples} samples`);
    const result = await measure(backend, turns, history, samples);
    for (const [path, all] of [
      ['session.append (whole turn)', result.session],
      ['store.append (built entries)', result.store],
    ] as const)
      for (const bucket of BUCKETS) {
        const latencies = summarize(all.filter((sample) => sample.bytes >= bucket.from && sample.bytes <= bucket.to));
        const optional = (value: number) => (Number.isNaN(value) ? null : round(value, 3));
        rows.push([
          backend,
          path,
          bucket.label,
          latencies.samples,
          round(latencies.p50, 3),
          round(latencies.p99, 3),
          round(latencies.max, 3),
          optional(latencies.p99Own),
          optional(latencies.p99Cpu),
        ]);
      }
    const session = summarize(result.session);
    targets.push(
      atMost(
        `session.append p99 of a 1-20 KB turn, ${backend} (ms)`,
        round(session.p99, 3),
        TARGET_P99_MS[backend] ?? 5,
      ),
    );
  }
  return speedResult(context, 'speed-append', 'Append latency of one agent turn', {
    notes: [
      `Turns: the ${turns.length} messages of 1-20 KB in ${corpus.source} (mean ${meanKb.toFixed(1)} KB), one turn per append, o200k counter; history ${history} turns first, then ${samples} timed appends per path, each followed by one 1 ms yield to the event loop (a store's deferred work runs there, as between an agent's turns).`,
      'p99 own: p99 of each append minus the time the main thread waited for a CPU meanwhile (Linux schedstat; other processes on a shared machine); p99 cpu: p99 of the user+system CPU time of the whole process during each append (its work, background checkpoint and GC threads included; no waits, I/O or PostgreSQL server time); the target is checked on the plain p99 of all 1-20 KB turns.',
      `Stores: ${backends.join(', ')}${process.env.CONTEXT_LEDGER_PG_URL ? '' : ' (set CONTEXT_LEDGER_PG_URL to include PostgreSQL)'}.`,
    ],
    tables: [
      {
        title: 'Append latency (ms)',
        columns: ['store', 'path', 'turns', 'samples', 'p50', 'p99', 'max', 'p99 own', 'p99 cpu'],
        rows,
      },
    ],
    targets,
  });
}
