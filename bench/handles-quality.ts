/**
 * Handle-extraction quality benchmark (`npm run bench handles-quality`): per-kind
 * precision/recall of `extractHandles` over the labelled fixture set (and, separately, its
 * held-out subset), written by the runner to `bench/results/handles-quality.json`.
 */
import type { BenchResult, ResultTable } from './bench-result.js';
import type { BenchContext } from './bench-context.js';
import type { Benchmark } from './benchmark.js';
import { round } from './bench-result.js';
import { scoreExtraction } from '../test/handles/score.js';
import type { ExtractionScore } from '../test/handles/score.js';
import { HANDLE_FIXTURES, HOLDOUT_FIXTURES } from '../test/handles/fixtures.js';

function kindTable(title: string, score: ExtractionScore): ResultTable {
  const rows = Object.entries(score.kinds).map(([kind, kindScore]) => [
    kind,
    round(kindScore.precision, 3),
    round(kindScore.recall, 3),
    kindScore.tp,
    kindScore.fp,
    kindScore.fn,
  ]);
  return {
    title: `${title} (${score.fixtures} labelled strings)`,
    columns: ['kind', 'precision', 'recall', 'tp', 'fp', 'fn'],
    rows,
  };
}

async function run(context: BenchContext): Promise<BenchResult> {
  const all = scoreExtraction(HANDLE_FIXTURES);
  const holdout = scoreExtraction(HOLDOUT_FIXTURES);
  return {
    name: 'handles-quality',
    title: 'Handle extraction quality (labelled fixtures)',
    date: new Date().toISOString(),
    quick: context.quick,
    machine: context.machine,
    notes: [
      'Fixtures: test/handles/fixtures.ts; a handle counts when its (kind, text) pair matches a label exactly. --quick changes nothing here.',
    ],
    tables: [kindTable('Handle extraction quality', all), kindTable('Held-out subset', holdout)],
    targets: [],
    data: { kinds: all.kinds, holdout: holdout.kinds },
  };
}

/** The handle-extraction quality entry of the runner. */
export const handlesQualityBench: Benchmark = { name: 'handles-quality', run };
