import type { BenchResult } from './bench-result.js';
import type { BenchContext } from './bench-context.js';

/** One benchmark the runner knows. */
export interface Benchmark {
  /** Name (`npm run bench NAME`, and `bench/results/NAME.json`). */
  readonly name: string;
  /** Run it. */
  run(context: BenchContext): Promise<BenchResult>;
}
