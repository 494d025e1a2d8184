/**
 * Recall latency by handle at a large session vs a small one, and vs a raw indexed SQLite
 * lookup of the same key. Sessions are filled with direct `store.append` of synthetic spans
 * (handles placed by construction, approximate token counts); recall goes through the same
 * `recall()` that `session.recall` calls (no compaction records), so opening a 1M-span
 * window is not part of the measurement.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { recall } from '../../src/recall.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { atMost, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { speedResult } from './speed-result.js';
import { requestId, syntheticEntries } from './synthetic-spans.js';
import { percentile, timeMs } from './timing.js';

const QUERIES = 400;

interface Latency {
  readonly spans: number;
  readonly recall: number[];
  readonly raw: number[];
  readonly plan: string;
}

async function measure(context: BenchContext, spans: number): Promise<Latency> {
  const path = join(context.tempDir, `recall-${spans}.db`);
  const store = createSqliteStore({ path });
  await store.openSession('recall');
  let byte = 0;
  for (let from = 0; from < spans; from += 5000) {
    const { entries, byteEnd } = syntheticEntries(from, Math.min(spans, from + 5000), byte);
    await store.append('recall', from, entries);
    byte = byteEnd;
    if (from % 100_000 === 0) context.log(`recall latency: ${from}/${spans} spans written`);
  }
  const db = new Database(path, { readonly: true });
  const sql = 'SELECT * FROM handles WHERE session_id = ? AND key = ? ORDER BY seq, start, position';
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('recall', 'x') as { detail: string }[])
    .map((row) => row.detail)
    .join('; ');
  const lookup = db.prepare(sql);
  const recallTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let query = 0; query < QUERIES; query++) {
    const key = requestId(Math.floor(((query * 7919) % QUERIES) * (spans / QUERIES)));
    recallTimes.push(
      await timeMs(async () => {
        const result = await recall({ store, sessionId: 'recall', records: [] }, key);
        if (result.status !== 'verified') throw new Error(`recall of ${key} was ${result.status}`);
      }),
    );
    rawTimes.push(await timeMs(() => lookup.all('recall', key)));
  }
  db.close();
  await store.close();
  return { spans, recall: recallTimes, raw: rawTimes, plan };
}

/** Run the recall latency benchmark. */
export async function runRecallLatencyBench(context: BenchContext): Promise<BenchResult> {
  const large = context.quick ? 100_000 : 1_000_000;
  const small = await measure(context, 10_000);
  const big = await measure(context, large);
  const p = (values: number[], fraction: number) => percentile(values, fraction);
  const rows = [small, big].map((latency) => [
    latency.spans,
    round(p(latency.recall, 0.5), 4),
    round(p(latency.recall, 0.99), 4),
    round(p(latency.raw, 0.5), 4),
    round(p(latency.raw, 0.99), 4),
  ]);
  const label = `${large / 1000}k`;
  return speedResult(context, 'speed-recall', 'Recall latency', {
    notes: [
      context.quick ? '--quick: the large session has 100k spans, not 1M.' : 'The large session has 1M spans.',
      `${QUERIES} recalls of unique request-id handles spread over the session; each checked verified. Times in ms.`,
      `Raw lookup: the store's own SQL on a second, read-only better-sqlite3 connection; plan: ${big.plan}. (Without the ORDER BY, SQLite's planner picks a primary-key range scan of the whole session instead of the handles_key index: 9 ms per lookup at 10k spans.)`,
    ],
    tables: [
      {
        title: 'Recall latency (ms)',
        columns: ['spans', 'recall p50', 'recall p99', 'raw lookup p50', 'raw lookup p99'],
        rows,
      },
    ],
    targets: [
      atMost(`recall p50 @${label} / @10k`, round(p(big.recall, 0.5) / p(small.recall, 0.5), 3), 1.5),
      atMost(`recall p99 @${label} / @10k`, round(p(big.recall, 0.99) / p(small.recall, 0.99), 3), 1.5),
      atMost(`recall p50 / raw indexed lookup @${label}`, round(p(big.recall, 0.5) / p(big.raw, 0.5), 3), 2),
      atMost(`recall p99 / raw indexed lookup @${label}`, round(p(big.recall, 0.99) / p(big.raw, 0.99), 3), 2),
    ],
  });
}
