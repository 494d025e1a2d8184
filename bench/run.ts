/**
 * `npm run bench [NAME…] [-- --quick] [--data DIR]` (compiles `bench/tsconfig.json` to
 * `.bench-build/`, then runs `.bench-build/bench/run.js`): runs the benchmarks, writes `bench/results/<name>.json` for each, and rebuilds `bench/RESULTS.md`
 * from every results file. Progress goes to stderr.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeResult } from './bench-result.js';
import type { BenchResult } from './bench-result.js';
import { createBenchContext } from './bench-context.js';
import type { BenchContext } from './bench-context.js';
import { USAGE, parseBenchArguments } from './cli-args.js';
import { BENCHMARKS, selectBenchmarks } from './registry.js';
import { markdownTable, writeReport } from './results-markdown.js';
import { checkWindowFits, withWindowOptions } from './window-options.js';

async function main(): Promise<void> {
  const args = parseBenchArguments(process.argv.slice(2));
  const names = BENCHMARKS.map((benchmark) => benchmark.name);
  if (args.help) {
    process.stdout.write(`${USAGE}\nbenchmarks: ${names.join(', ')}\n`);
    return;
  }
  const unknown = args.only.filter((name) => selectBenchmarks(names, [name]).length === 0);
  if (unknown.length > 0)
    throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; choose from ${names.join(', ')}`);
  const selected = selectBenchmarks(names, args.only);
  if (args.window) checkWindowFits(args.window, BENCHMARKS, selected);
  const tempDir = await mkdtemp(join(tmpdir(), 'context-ledger-bench-'));
  const context: BenchContext = createBenchContext({ dataDir: args.dataDir, tempDir, quick: args.quick });
  context.log(
    `bench: data ${args.dataDir}${args.quick ? ' (--quick)' : ''}${args.window ? `; window options ${args.window.text}` : ''}; results to ${args.outDir}`,
  );
  try {
    for (const benchmark of BENCHMARKS) {
      if (!selected.includes(benchmark.name)) continue;
      const started = Date.now();
      const window = benchmark.windowBudgets ? args.window : undefined;
      context.log(
        `== ${benchmark.name}${args.window && !window ? ' (--window does not apply: default window options)' : ''}`,
      );
      const ran: BenchResult = await benchmark.run({ ...context, window });
      const result = window ? withWindowOptions(ran, window) : ran;
      const file = await writeResult(args.outDir, result);
      for (const table of result.tables)
        process.stdout.write(`\n### ${table.title}\n\n${markdownTable(table.columns, table.rows)}\n`);
      const missed = result.targets.filter((target) => target.met === false).length;
      context.log(
        `== ${benchmark.name}: ${((Date.now() - started) / 1000).toFixed(1)} s, ${result.targets.length} targets (${missed} missed) -> ${file}`,
      );
    }
    const readme = await writeReport(args.outDir, args.reportFile, args.readmeFile);
    context.log(`report: ${args.reportFile}${readme ? `; README real-data block: ${args.readmeFile}` : ''}`);
  } finally {
    await rm(tempDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
