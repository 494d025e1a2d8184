/** The CLI the speed benchmarks spawn. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the built CLI sits below the project root. */
const CLI = join('dist', 'cli', 'main.js');

/**
 * `CONTEXT_LEDGER_BENCH_CLI` when set (a copy of a build, so a long background run is not broken
 * by `npm run build` deleting dist/), else the project's built `dist/cli/main.js`: the nearest folder above the
 * compiled benchmark that holds one (the benchmarks build to `.bench-build/`, or to any folder a developer picks).
 */
export function benchCli(): string {
  if (process.env.CONTEXT_LEDGER_BENCH_CLI !== undefined) return process.env.CONTEXT_LEDGER_BENCH_CLI;
  const here = dirname(fileURLToPath(import.meta.url));
  for (let folder = here; ; folder = dirname(folder)) {
    if (existsSync(join(folder, CLI))) return join(folder, CLI);
    if (dirname(folder) === folder) break;
  }
  throw new Error(
    `no built CLI (${CLI}) in a folder above ${here}: run \`npm run build\` first, or set CONTEXT_LEDGER_BENCH_CLI to a built main.js`,
  );
}
