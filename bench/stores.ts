/**
 * Store benchmark (not a test): append throughput and recall latency of each backend at
 * several session sizes. Run with `npm run bench speed-stores [-- --quick]` (see `store-bench.ts`);
 * writes `bench/results/stores.json` (keeping rows of earlier runs for other backend/size
 * pairs), progress on stderr.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createSpan } from '../src/model/span.js';
import { createMemoryStore } from '../src/stores/memory/index.js';
import { createPostgresStore } from '../src/stores/postgres/index.js';
import { createSqliteStore } from '../src/stores/sqlite/index.js';
import type { AppendEntry, LedgerStore } from '../src/stores/store.js';

/** A backend the bench can run. */
export type BenchBackend = 'memory' | 'sqlite' | 'postgres';

/** Latency percentiles of one recall operation, in milliseconds. */
export interface Latency {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** The numbers of one backend at one size. */
export interface StoreBenchRow {
  readonly backend: BenchBackend;
  readonly spans: number;
  readonly batchSize: number;
  readonly appendSeconds: number;
  readonly appendSpansPerSecond: number;
  readonly findHandles: Latency;
  readonly searchText: Latency;
}

const BATCH = 1_000;
const log = (line: string) => process.stderr.write(`[bench:stores] ${line}\n`);

/** Entry `index`: ~20 tokens of text with one identifier handle, made by hand (no extractor). */
function benchEntry(index: number): AppendEntry {
  const host = `host-${index}`;
  const text = `turn ${index}: deploy ${host} to eu-west-${index % 50}b with PORT=${8000 + (index % 1000)} and check /srv/app/${index % 97}.env`;
  const span = createSpan({ kind: index % 2 === 0 ? 'user' : 'assistant', text, tokens: 24 });
  const start = text.indexOf(host);
  const role = index % 2 === 0 ? 'user' : 'assistant';
  return {
    span,
    role,
    byteStart: index * 120,
    byteEnd: index * 120 + text.length,
    handles: [
      { kind: 'identifier', text: host, key: host, start, end: start + host.length, spanId: span.id, role, tokens: 4 },
    ],
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function latency(samples: number, operation: (sample: number) => Promise<unknown>): Promise<Latency> {
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    const started = performance.now();
    await operation(sample);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return { samples, p50Ms: round(percentile(times, 0.5)), p99Ms: round(percentile(times, 0.99)) };
}

/** Opens a fresh, empty store of `backend`; `dispose` removes what it created. */
export async function openBackend(backend: BenchBackend): Promise<{ store: LedgerStore; dispose(): Promise<void> }> {
  if (backend === 'memory') return { store: createMemoryStore(), dispose: async () => undefined };
  if (backend === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'context-ledger-bench-'));
    const store = createSqliteStore({ path: join(directory, 'ledger.db') });
    return { store, dispose: async () => rmSync(directory, { recursive: true, force: true }) };
  }
  const connectionString = process.env.CONTEXT_LEDGER_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `cl_bench_${process.pid}_${Date.now().toString(36)}`;
  const store = await createPostgresStore({ connectionString, schema, maxConnections: 2 });
  return {
    store,
    dispose: async () => {
      const client = new pg.Client({ connectionString });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

async function benchOne(backend: BenchBackend, spans: number): Promise<StoreBenchRow> {
  const { store, dispose } = await openBackend(backend);
  try {
    await store.openSession('bench');
    let appendMs = 0;
    for (let from = 0; from < spans; from += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, spans - from) }, (_, offset) => benchEntry(from + offset));
      const started = performance.now();
      await store.append('bench', from, batch);
      appendMs += performance.now() - started;
      if ((from / BATCH) % 100 === 99) log(`${backend} ${spans}: ${from + BATCH} appended`);
    }
    const random = (sample: number) => (sample * 7_919 + 13) % spans;
    const findHandles = await latency(200, (sample) => store.findHandles('bench', `host-${random(sample)}`));
    const searchSamples = backend === 'memory' && spans >= 100_000 ? 30 : 100;
    const searchText = await latency(searchSamples, (sample) =>
      store.searchText('bench', `host-${random(sample)}`, 10),
    );
    const row = {
      backend,
      spans,
      batchSize: BATCH,
      appendSeconds: Math.round(appendMs) / 1000,
      appendSpansPerSecond: Math.round(spans / (appendMs / 1000)),
      findHandles,
      searchText,
    };
    log(
      `${backend} ${spans}: ${row.appendSpansPerSecond} spans/s; findHandles p50 ${findHandles.p50Ms} ms p99 ${findHandles.p99Ms} ms; searchText p50 ${searchText.p50Ms} ms p99 ${searchText.p99Ms} ms`,
    );
    return row;
  } finally {
    await store.close();
    await dispose();
  }
}

/**
 * Measures append throughput (spans/s in batches of 1000, one session) and recall latency
 * p50/p99 (`findHandles` of a random existing key; `searchText` of a random identifier) for
 * every backend at every size, and writes `bench/results/stores.json`.
 */
export async function runStoreBench(options: { sizes: number[]; backends: BenchBackend[] }): Promise<object> {
  const rows: StoreBenchRow[] = [];
  for (const backend of options.backends) {
    for (const spans of options.sizes) {
      log(`${backend}: ${spans} spans …`);
      rows.push(await benchOne(backend, spans));
    }
  }
  const result = {
    benchmark: 'stores',
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: process.platform,
    },
    notes:
      'One session per run; spans of ~24 tokens with one identifier handle each; append in batches of 1000; PostgreSQL on 127.0.0.1 (pg_trgm index), SQLite WAL synchronous=NORMAL on local disk.',
    rows,
  };
  const file = join(process.cwd(), 'bench', 'results', 'stores.json');
  mkdirSync(join(process.cwd(), 'bench', 'results'), { recursive: true });
  // Rows of earlier runs for other backend/size pairs are kept, so a slow 1M run can be added later.
  const earlier = existsSync(file)
    ? ((JSON.parse(readFileSync(file, 'utf8')) as { rows?: StoreBenchRow[] }).rows ?? [])
    : [];
  const kept = earlier.filter((old) => !rows.some((row) => row.backend === old.backend && row.spans === old.spans));
  const merged = {
    ...result,
    rows: [...kept, ...rows].sort((a, b) => a.backend.localeCompare(b.backend) || a.spans - b.spans),
  };
  writeFileSync(file, JSON.stringify(merged, null, 2) + '\n');
  return merged;
}
