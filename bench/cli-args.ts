import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseWindowOption } from './window-options.js';
import type { BenchWindowOptions } from './window-options.js';

/** Parsed arguments of `npm run bench [name…] [-- --quick …]`. */
export interface BenchArguments {
  /** Benchmarks to run (positional names, or `--only a,b`); a name also selects `name-*`; empty = all. */
  readonly only: readonly string[];
  /** `--quick`. */
  readonly quick: boolean;
  /** `--data DIR`, else `CONTEXT_LEDGER_DATA`, else `../shared/data` (relative to the working directory). */
  readonly dataDir: string;
  /** `--out DIR` for `<name>.json` (default `bench/results`). */
  readonly outDir: string;
  /** `--report FILE` (default `bench/RESULTS.md`; with `--out` or `--window`, `RESULTS.md` in `--out`). */
  readonly reportFile: string;
  /** `--help`. */
  readonly help: boolean;
  /** `--window JSON`: window options of the context-ledger arm (none: the library defaults). */
  readonly window: BenchWindowOptions | undefined;
  /** The README whose real-data block is rebuilt (`README.md`; none with --quick, --window or an --out or --report of its own). */
  readonly readmeFile: string | undefined;
}

/** Usage text. */
export const USAGE = `usage: npm run bench [NAME…] [-- --quick] [--data DIR] [--out DIR] [--report FILE] [--window JSON]
  NAME      run only these benchmarks (see the list below); a name also selects every NAME-* benchmark
            (\`quality\` runs quality-claude-code, quality-swe-agent, quality-locomo); RESULTS.md is
            rebuilt from every results file
  --only    the same as NAME, comma-separated
  --quick   smaller sizes (each result says what was reduced)
  --data    folder holding claude-code/, swe-agent/, locomo/ (default ../shared/data, else ../../shared/data)
  --out     where <name>.json results go (default bench/results; with --quick .bench-build/results-quick)
  --report  the markdown report (default bench/RESULTS.md; with --quick .bench-build/RESULTS-quick.md; with --out,
            RESULTS.md in that folder, so results kept elsewhere never rebuild the recorded report)
            a full run with the default --out and --report also rebuilds README.md's real-data block
  --window  window options of the context-ledger arm in prompt-cache, quality-claude-code, quality-swe-agent and
            quality-turns, e.g. '{"compactAt":1,"targetFill":0.8}', or per budget
            '{"8000":{"targetFill":0.8},"4000":{"targetFill":0.9}}' (maxTokens is always the budget measured);
            needs --out, the report defaults to RESULTS.md there, and each result notes the options
  env CONTEXT_LEDGER_DATA  the same as --data (the flag wins)`;

/** Where a --quick run writes by default: a dev run does not overwrite the recorded results. */
export const QUICK_OUT = '.bench-build/results-quick';
/** The report of a --quick run by default. */
export const QUICK_REPORT = '.bench-build/RESULTS-quick.md';

/**
 * The default `--data`: `../shared/data` from the working directory (a checkout next to the data), or
 * `../../shared/data` when only that exists (a worktree one level deeper).
 */
export function defaultDataDir(cwd: string): string {
  const near = resolve(cwd, '../shared/data');
  const deeper = resolve(cwd, '../../shared/data');
  return !existsSync(near) && existsSync(deeper) ? deeper : near;
}

/** Parse `argv` (without node and script). Throws on an unknown flag or a missing value. */
export function parseBenchArguments(
  argv: readonly string[],
  cwd = process.cwd(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): BenchArguments {
  const only: string[] = [];
  let quick = false;
  let help = false;
  let dataDir: string | undefined;
  let outDir: string | undefined;
  let reportFile: string | undefined;
  let window: BenchWindowOptions | undefined;
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index] ?? '';
    const value = () => {
      const next = argv[++index];
      if (next === undefined || next.startsWith('--')) throw new Error(`${flag} needs a value\n${USAGE}`);
      return next;
    };
    if (flag === '--quick') quick = true;
    else if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--only')
      only.push(
        ...value()
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      );
    else if (flag === '--data') dataDir = value();
    else if (flag === '--out') outDir = value();
    else if (flag === '--report') reportFile = value();
    else if (flag === '--window') window = parseWindowOption(value());
    else if (!flag.startsWith('-')) only.push(flag);
    else throw new Error(`unknown argument ${JSON.stringify(flag)}\n${USAGE}`);
  }
  if (window !== undefined && outDir === undefined && !help)
    throw new Error(
      `--window needs --out DIR: results with other window options must not replace the recorded ones\n${USAGE}`,
    );
  const resolvedOut = resolve(cwd, outDir ?? (quick ? QUICK_OUT : 'bench/results'));
  return {
    only,
    quick,
    help,
    window,
    dataDir: resolve(cwd, dataDir ?? (env.CONTEXT_LEDGER_DATA || defaultDataDir(cwd))),
    outDir: resolvedOut,
    reportFile: resolve(
      cwd,
      reportFile ??
        (window !== undefined || outDir !== undefined
          ? join(resolvedOut, 'RESULTS.md')
          : quick
            ? QUICK_REPORT
            : 'bench/RESULTS.md'),
    ),
    readmeFile:
      quick || window !== undefined || reportFile !== undefined || outDir !== undefined
        ? undefined
        : resolve(cwd, 'README.md'),
  };
}
