/**
 * Handle-extraction quality benchmark: per-kind precision/recall of `extractHandles` over
 * the labelled fixture set, written to `bench/results/handles-quality.json` and printed as
 * a markdown table. The held-out subset is reported separately in the printout.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoreExtraction } from '../src/handles/score.js';
import type { KindScore } from '../src/handles/score.js';
import type { HandleKind } from '../src/types.js';
import { HANDLE_FIXTURES, HOLDOUT_FIXTURES } from '../test/handles/fixtures.js';

/** Per-kind scores, as written to the JSON result. */
export type HandlesQualityResult = Record<HandleKind, KindScore>;

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function table(kinds: HandlesQualityResult): string {
  const rows = Object.entries(kinds).map(
    ([kind, score]) => `| ${kind} | ${score.precision.toFixed(3)} | ${score.recall.toFixed(3)} | ${score.tp} | ${score.fp} | ${score.fn} |`,
  );
  return ['| kind | precision | recall | tp | fp | fn |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

function rounded(kinds: HandlesQualityResult): HandlesQualityResult {
  const out = {} as HandlesQualityResult;
  for (const [kind, score] of Object.entries(kinds) as Array<[HandleKind, KindScore]>) {
    out[kind] = { ...score, precision: round(score.precision), recall: round(score.recall) };
  }
  return out;
}

/** Scores the fixture set, writes `bench/results/handles-quality.json` and prints the tables. */
export async function runHandlesQuality(outputDirectory = path.join('bench', 'results')): Promise<HandlesQualityResult> {
  const all = scoreExtraction(HANDLE_FIXTURES);
  const holdout = scoreExtraction(HOLDOUT_FIXTURES);
  const result = rounded(all.kinds);
  await mkdir(outputDirectory, { recursive: true });
  await writeFile(path.join(outputDirectory, 'handles-quality.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`## Handle extraction quality (${all.fixtures} labelled strings)\n\n${table(result)}\n`);
  console.log(`### Held-out subset (${holdout.fixtures} strings)\n\n${table(rounded(holdout.kinds))}\n`);
  return result;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runHandlesQuality();
}
