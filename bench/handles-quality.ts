/**
 * Handle-extraction quality benchmark (`npm run bench handles-quality`): per-kind
 * precision/recall of `extractHandles` over the labelled fixture set (and, separately, its
 * held-out subset), and on the real transcripts (when `--data` holds them) extraction recall
 * against the yardstick with the index noise beside it, per half (see
 * `quality/extraction-recall.ts`); written by the runner to `bench/results/handles-quality.json`.
 */
import type { BenchResult, ResultTable } from './bench-result.js';
import type { BenchContext } from './bench-context.js';
import type { Benchmark } from './benchmark.js';
import { round } from './bench-result.js';
import { scoreExtraction } from '../test/handles/score.js';
import type { ExtractionScore } from '../test/handles/score.js';
import { HANDLE_FIXTURES, HOLDOUT_FIXTURES } from '../test/handles/fixtures.js';
import { findDataSet, loadTranscripts } from './data-sets.js';
import { cutsOf } from './quality/cut-quality.js';
import { tallyHalves } from './quality/extraction-recall.js';

/** Extraction recall and noise on the real transcripts, per data set and half; notes say what is missing. */
async function realDataTable(context: BenchContext, notes: string[]): Promise<ResultTable> {
  const rows: (string | number | null)[][] = [];
  for (const name of ['claude-code', 'swe-agent'] as const) {
    const dataSet = await findDataSet(context.dataDir, name);
    if (dataSet.missing) {
      notes.push(`MISSING: ${dataSet.missing}; no real-data extraction figures for it.`);
      continue;
    }
    const halves = tallyHalves(name, cutsOf(name, await loadTranscripts(dataSet)));
    for (const [half, tally] of Object.entries(halves))
      rows.push([
        name,
        half,
        tally.cuts,
        tally.needed,
        tally.missed,
        round(1 - tally.missed / Math.max(1, tally.needed), 3),
        round(tally.handles / Math.max(1, tally.spans), 2),
        round(tally.distinct / Math.max(1, tally.cuts), 0),
        round(tally.distinctUsed / Math.max(1, tally.distinct), 3),
      ]);
  }
  return {
    title: 'Extraction recall on real transcripts (future-needed tokens inside some handle before the cut)',
    columns: [
      'data set',
      'half',
      'cuts',
      'future-needed',
      'never extracted',
      'extraction recall',
      'handles per span',
      'distinct handles per cut',
      'share used after the cut',
    ],
    rows,
    notes: [
      'Cuts as in the quality benchmark; tune half = even SWE-agent trajectories and the first Claude Code session, report half = the rest.',
      'Share used after the cut: distinct handle texts before the cut that the agent wrote after it (a real-data precision proxy).',
    ],
  };
}

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
  const notes = [
    'Fixtures: test/handles/fixtures.ts; a handle counts when its (kind, text) pair matches a label exactly. --quick changes nothing here.',
  ];
  const real = await realDataTable(context, notes);
  return {
    name: 'handles-quality',
    title: 'Handle extraction quality (labelled fixtures)',
    date: new Date().toISOString(),
    quick: context.quick,
    machine: context.machine,
    notes,
    tables: [kindTable('Handle extraction quality', all), kindTable('Held-out subset', holdout), real],
    targets: [],
    data: { kinds: all.kinds, holdout: holdout.kinds },
  };
}

/** The handle-extraction quality entry of the runner. */
export const handlesQualityBench: Benchmark = { name: 'handles-quality', run };
