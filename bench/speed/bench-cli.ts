/** The CLI the speed benchmarks spawn. */
import { fileURLToPath } from 'node:url';

/**
 * `CONTEXT_LEDGER_BENCH_CLI` when set (a copy of a build, so a long background run is not broken
 * by `npm run build` deleting dist/), else the project's built `dist/cli/main.js`.
 */
export function benchCli(): string {
  return process.env.CONTEXT_LEDGER_BENCH_CLI ?? fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
}
