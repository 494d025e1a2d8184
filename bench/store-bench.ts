/**
 * The store benchmark (`bench/stores.ts`) as a named benchmark of the runner (`speed-stores`):
 * its rows (which it also writes to `bench/results/stores.json`) are re-shaped into a table
 * here. PostgreSQL is included only when `CONTEXT_LEDGER_PG_URL` is set.
 */
import type { BenchResult, ResultTable } from './bench-result.js';
import type { BenchContext } from './bench-context.js';
import type { Benchmark } from './benchmark.js';
import { runStoreBench } from './stores.js';
import type { BenchBackend, StoreBenchRow } from './stores.js';

async function run(context: BenchContext): Promise<BenchResult> {
  const base = {
    name: 'speed-stores',
    title: 'Store backends (bench/stores.ts)',
    date: new Date().toISOString(),
    quick: context.quick,
    machine: context.machine,
    targets: [],
  };
  const sizes = context.quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const backends: BenchBackend[] = [
    'memory',
    'sqlite',
    ...(process.env.CONTEXT_LEDGER_PG_URL ? (['postgres'] as const) : []),
  ];
  const result = (await runStoreBench({ sizes, backends })) as { rows?: StoreBenchRow[] };
  const table: ResultTable = {
    title: 'Append throughput and lookup latency per backend',
    columns: [
      'backend',
      'spans',
      'append spans/s',
      'findHandles p50 ms',
      'findHandles p99 ms',
      'searchText p50 ms',
      'searchText p99 ms',
    ],
    rows: (result.rows ?? []).map((row) => [
      row.backend,
      row.spans,
      row.appendSpansPerSecond,
      row.findHandles.p50Ms,
      row.findHandles.p99Ms,
      row.searchText.p50Ms,
      row.searchText.p99Ms,
    ]),
  };
  const pgNote = process.env.CONTEXT_LEDGER_PG_URL ? '' : ' (set CONTEXT_LEDGER_PG_URL to include PostgreSQL)';
  const notes = [
    `Sizes ${sizes.join(', ')}${context.quick ? ' (--quick)' : ''}; backends ${backends.join(', ')}${pgNote}.`,
  ];
  return { ...base, notes, tables: [table] };
}

/** The store benchmark entry of the runner. */
export const storeBench: Benchmark = { name: 'speed-stores', run };
