/**
 * The speed benchmarks spawn the built CLI: found from wherever the benchmark code runs (its source under vitest,
 * `.bench-build/`, or a folder a developer built it to), or taken from CONTEXT_LEDGER_BENCH_CLI.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { benchCli } from '../../bench/speed/bench-cli.js';

describe('benchCli', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('finds the project build from the benchmark source, not a folder above the project', () => {
    vi.stubEnv('CONTEXT_LEDGER_BENCH_CLI', undefined);
    const cli = benchCli();
    expect(cli).toBe(resolve(import.meta.dirname, '../../dist/cli/main.js'));
    expect(existsSync(cli)).toBe(true);
  });

  it('takes CONTEXT_LEDGER_BENCH_CLI when set', () => {
    const copy = join('/tmp', 'a-copy-of-the-build', 'main.js');
    vi.stubEnv('CONTEXT_LEDGER_BENCH_CLI', copy);
    expect(benchCli()).toBe(copy);
  });
});
