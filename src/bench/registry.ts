import type { BenchResult } from './bench-result.js';
import type { BenchContext } from './bench-context.js';
import { runAgentQuality } from './quality/agent-quality.js';

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
];
