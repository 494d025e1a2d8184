/**
 * The store benchmark (`bench/stores.ts`, owned separately and compiled by
 * `tsc -p bench/tsconfig.stores.json` to `dist/bench-stores/bench/stores.js`), run from this
 * runner when it is built: its rows (which it also writes to `bench/results/stores.json`) are
 * re-shaped into a table here. PostgreSQL is included only when `CONTEXT_LEDGER_PG_URL` is set.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchResult, ResultTable } from './bench-result.js';
import type { BenchContext } from './bench-context.js';
import type { Benchmark } from './registry.js';

interface StoreRow {
  readonly backend: string;
  readonly spans: number;
  readonly appendSpansPerSecond: number;
  readonly findHandles: { readonly p50Ms: number; readonly p99Ms: number };
  readonly searchText: { readonly p50Ms: number; readonly p99Ms: number };
}

type RunStoreBench = (options: { sizes: number[]; backends: string[] }) => Promise<{ rows?: StoreRow[] }>;

async function run(context: BenchContext): Promise<BenchResult> {
  const base = { name: 'speed-stores', title: 'Store backends (bench/stores.ts)', date: new Date().toISOString(), quick: context.quick, machine: context.machine, targets: [] };
  const module = new URL('../bench-stores/bench/stores.js', import.meta.url);
  if (!existsSync(fileURLToPath(module))) {
    return { ...base, notes: ['Not run: bench/stores.ts is not built. Build it with `npx tsc -p bench/tsconfig.stores.json`, then run `--only speed-stores`.'], tables: [] };
  }
  const { runStoreBench } = (await import(module.href)) as { runStoreBench: RunStoreBench };
  const sizes = context.quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const backends = ['memory', 'sqlite', ...(process.env.CONTEXT_LEDGER_PG_URL ? ['postgres'] : [])];
  const result = await runStoreBench({ sizes, backends });
  const table: ResultTable = {
    title: 'Append throughput and lookup latency per backend',
    columns: ['backend', 'spans', 'append spans/s', 'findHandles p50 ms', 'findHandles p99 ms', 'searchText p50 ms', 'searchText p99 ms'],
    rows: (result.rows ?? []).map((row) => [row.backend, row.spans, row.appendSpansPerSecond, row.findHandles.p50Ms, row.findHandles.p99Ms, row.searchText.p50Ms, row.searchText.p99Ms]),
  };
  const notes = [`Sizes ${sizes.join(', ')}${context.quick ? ' (--quick)' : ''}; backends ${backends.join(', ')}${process.env.CONTEXT_LEDGER_PG_URL ? '' : ' (set CONTEXT_LEDGER_PG_URL to include PostgreSQL)'}.`];
  return { ...base, notes, tables: [table] };
}

/** The store benchmark entry of the runner. */
export const storeBench: Benchmark = { name: 'speed-stores', run };
