import type { BenchResult } from './bench-result.js';
import type { BenchContext } from './bench-context.js';

/** One benchmark the runner knows. */
export interface Benchmark {
  /** Name (`npm run bench NAME`, and `bench/results/NAME.json`). */
  readonly name: string;
  /**
   * The budgets at which it applies `--window` to its context-ledger arm (checked before any benchmark runs); none:
   * it runs with the default window options and is not given them.
   */
  readonly windowBudgets?: readonly number[] | undefined;
  /** Run it. */
  run(context: BenchContext): Promise<BenchResult>;
}
