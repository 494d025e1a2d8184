import type { BenchResult } from './bench-result.js';
import type { BenchContext } from './bench-context.js';
import { runAgentQuality } from './quality/agent-quality.js';
import { runLocomoQuality } from './quality/locomo-recall.js';
import { runCompactionCycleBench } from './speed/compaction-cycle-bench.js';
import { runExtractionBench } from './speed/extraction-bench.js';
import { runIngestBench } from './speed/ingest-bench.js';
import { runRecallLatencyBench } from './speed/recall-latency-bench.js';
import { runRssBench } from './speed/rss-bench.js';
import { storeBench } from './store-bench.js';

/** One benchmark the runner knows. */
export interface Benchmark {
  /** Name (`--only NAME`, and `bench/results/NAME.json`). */
  readonly name: string;
  /** Run it. */
  run(context: BenchContext): Promise<BenchResult>;
}

/** Every benchmark, in run order. */
export const BENCHMARKS: readonly Benchmark[] = [
  { name: 'quality-claude-code', run: (context) => runAgentQuality(context, 'claude-code') },
  { name: 'quality-swe-agent', run: (context) => runAgentQuality(context, 'swe-agent') },
  { name: 'quality-locomo', run: runLocomoQuality },
  { name: 'speed-extraction', run: runExtractionBench },
  { name: 'speed-ingest', run: runIngestBench },
  { name: 'speed-recall', run: runRecallLatencyBench },
  { name: 'speed-compaction', run: runCompactionCycleBench },
  { name: 'speed-rss', run: runRssBench },
  storeBench,
];
