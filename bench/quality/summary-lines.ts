/**
 * `quality-summary-lines` (issue 36, part 5): do the extractive summary's Task and Decisions lines carry weight?
 *
 * Two yardsticks the summarizer's code does not define:
 * - the hand-labelled sentences of `summary-lines-set.ts` (request / decision / filler / question / status, with a
 *   held-out part written before the summarizer was changed), each placed in a small session (`summary-lines-score.ts`);
 * - the Task and Decisions lines of real sessions replayed at 8k and 32k (`summary-lines-real.ts`), read against hand
 *   labels stored by session and text hash (`summary-lines-labels.ts`: every Task line and a seeded sample of the
 *   Decisions lines of the summarizer as it was; lines the current summarizer writes that were never labelled are
 *   counted as such, not guessed).
 */
import { createO200kCounter } from '../../src/index.js';
import type { BenchContext } from '../bench-context.js';
import { resultBase } from '../bench-result.js';
import type { BenchResult, ResultTable, TargetCheck } from '../bench-result.js';
import { SUMMARY_LINE_LABELS } from './summary-lines-labels.js';
import { scoreLabelledSet } from './summary-lines-score.js';
import type { LabelledScore } from './summary-lines-score.js';
import { realCuts, realSummaries } from './summary-lines-real.js';
import type { RealSummary } from './summary-lines-real.js';

/** Budgets the real sessions are replayed at. */
const REAL_BUDGETS = [8000, 32000] as const;
/** Labels that say nothing the resumed model can act on. */
const EMPTY_LABELS = new Set(['filler', 'question']);

interface Labels {
  readonly task: Record<string, string>;
  readonly decisions: Record<string, string>;
}

const share = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 1000) / 1000;

function setRows(name: string, score: LabelledScore): (string | number | null)[][] {
  return Object.entries(score.byLabel).map(([label, tally]) => [
    name,
    label,
    tally.sentences,
    share(tally.right, tally.sentences),
    tally.onTask,
    tally.onDecisions,
  ]);
}

/** Per section: lines, labelled lines, and labelled lines by label, pooled over the real summaries. */
function realCounts(summaries: readonly RealSummary[], labels: Labels) {
  const counts = {
    task: { lines: 0, labelled: 0, byLabel: new Map<string, number>() },
    decisions: { lines: 0, labelled: 0, byLabel: new Map<string, number>() },
  };
  let summariesWithEmpty = 0;
  for (const summary of summaries) {
    let empty = false;
    for (const line of summary.lines) {
      const tally = counts[line.section];
      tally.lines++;
      const label = labels[line.section][line.key] ?? labels.task[line.key] ?? labels.decisions[line.key];
      if (label === undefined) continue;
      tally.labelled++;
      tally.byLabel.set(label, (tally.byLabel.get(label) ?? 0) + 1);
      if (EMPTY_LABELS.has(label)) empty = true;
    }
    if (empty) summariesWithEmpty++;
  }
  return { counts, summariesWithEmpty };
}

/** Run the bench. */
export async function runSummaryLines(context: BenchContext): Promise<BenchResult> {
  const base = resultBase(context, 'quality-summary-lines', 'Summary lines that carry weight (Task and Decisions)');
  const counter = createO200kCounter();
  const tuned = await scoreLabelledSet(counter, false);
  const heldOut = await scoreLabelledSet(counter, true);
  const labels: Labels = SUMMARY_LINE_LABELS;
  const sets = await realCuts(context.dataDir, context.quick ? 2 : 13);
  const summaries = await realSummaries(sets, REAL_BUDGETS, counter, context.log);
  const { counts, summariesWithEmpty } = realCounts(summaries, labels);
  const realRows = (['task', 'decisions'] as const).flatMap((section) =>
    [...counts[section].byLabel].map(([label, count]) => [
      section,
      label,
      count,
      share(count, counts[section].labelled),
      counts[section].lines,
      counts[section].labelled,
    ]),
  );
  const tables: ResultTable[] = [
    {
      title:
        'Labelled sentences: where each lands (right = request on Task, decision on Decisions, status on Decisions, filler and questions on neither)',
      columns: ['part', 'label', 'sentences', 'right', 'on Task', 'on Decisions'],
      rows: [...setRows('tuned', tuned), ...setRows('held-out', heldOut)],
      notes: [
        `crowded session (tuned): ${JSON.stringify(tuned.crowd)}; (held-out): ${JSON.stringify(heldOut.crowd)}`,
        ...tuned.wrong.map((line) => `tuned, misplaced: ${line}`),
      ],
    },
    {
      title: `Real sessions (${sets.map((set) => `${set.set} ${set.cuts.length}`).join(', ')}) at ${REAL_BUDGETS.join(' and ')} tokens: hand labels of the lines`,
      columns: ['section', 'label', 'lines', 'share of labelled', 'lines in all', 'labelled'],
      rows: realRows,
      notes: [`summaries with a filler or question line (labelled): ${summariesWithEmpty} of ${summaries.length}`],
    },
  ];
  const fillerOf = (score: LabelledScore) => score.byLabel.filler.onTask + score.byLabel.filler.onDecisions;
  const targets: TargetCheck[] = [
    check(
      'labelled filler and questions on a Task or Decisions line (tuned)',
      fillerOf(tuned) + tuned.byLabel.question.onDecisions,
      0,
    ),
    check('labelled decisions left out while filler was kept (crowded, tuned)', tuned.crowd.droppedForFiller, 0),
  ];
  return { ...base, notes: ['Deterministic.'], tables, targets, data: { tuned, heldOut, real: counts } };
}

function check(metric: string, measured: number, atMost: number): TargetCheck {
  return { metric, measured, target: `<= ${atMost}`, met: measured <= atMost };
}
