/**
 * Survival benchmark on agent transcripts (`survival-claude-code`, `survival-swe-agent`). Its
 * handles are the library extractor's own (`transcript-handles.ts`), so it shows what the
 * extractor's handles become through cascaded compactions, not how well the window serves the
 * agent: that is the yardstick benchmark (`cut-quality.ts`). Every transcript is replayed at
 * each budget, and at every measurement point context-ledger, summary-only, LangChain trim and
 * AI SDK prune+trim are compared (see `point-metrics.ts`).
 */
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import { atLeast, atMost, missingDataResult, resultBase, round } from '../bench-result.js';
import type { BenchResult, ResultTable, TargetCheck } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import type { BenchTranscript, DataSetFiles } from '../data-sets.js';
import { createAiSdkPruneArm, createLangChainTrimArm } from './baseline-arms.js';
import { measureGapHonesty } from './gap-honesty.js';
import { replayLedger } from './ledger-replay.js';
import { LEDGER, createPointEvaluator, createTallies, tallyShare } from './point-metrics.js';
import type { BudgetTallies } from './point-metrics.js';
import { handleTimeline, messageHandles } from './transcript-handles.js';

/** Budgets every quality benchmark replays at. */
export const BUDGETS = [4000, 8000, 32000] as const;

/** Compaction statistics of one budget. */
interface CascadeStats {
  transcripts: number;
  withoutCompaction: number;
  cascades: number[];
}

/** Measure one budget over all transcripts. */
export async function measureBudget(
  transcripts: readonly BenchTranscript[],
  budget: number,
  counter: TokenCounter,
  log: (line: string) => void,
): Promise<{ tallies: BudgetTallies; cascade: CascadeStats }> {
  const tallies = createTallies();
  const cascade: CascadeStats = { transcripts: 0, withoutCompaction: 0, cascades: [] };
  const arms = [createLangChainTrimArm(counter), createAiSdkPruneArm(counter)];
  for (const transcript of transcripts) {
    const timeline = handleTimeline(messageHandles(transcript.messages));
    const agentCompaction = transcript.compactions[0];
    const evaluator = createPointEvaluator({
      messages: transcript.messages,
      timeline,
      budget,
      arms,
      tallies,
      agentCompaction,
    });
    const every = Math.max(5, Math.ceil(transcript.messages.length / 20));
    const { session } = await replayLedger(transcript.id, transcript.messages, {
      budget,
      every,
      counter,
      forcedPoints: transcript.compactions.map((compaction) => compaction.atMessage),
      onPoint: (point) => evaluator.evaluate(point),
    });
    const summaries = session.records().filter((record) => record.type === 'summary').length;
    cascade.transcripts++;
    if (summaries === 0) cascade.withoutCompaction++;
    cascade.cascades.push(summaries);
    log(`  ${transcript.id} @${budget}: ${transcript.messages.length} messages, ${summaries} compactions`);
  }
  return { tallies, cascade };
}

function armRows(tallies: BudgetTallies, budget: number): (string | number | null)[][] {
  return [...tallies.needed.entries()].map(([arm, tally]) => {
    const ledger = arm === LEDGER;
    return [
      budget,
      arm,
      round(tallyShare(tally)),
      ledger ? round(tallyShare(tallies.neededViaIndex)) : null,
      ledger ? round(tallyShare(tallies.neededViaRecall)) : null,
      round(tallyShare(tallies.constraints.get(arm))),
      tallies.constraints.get(arm)?.total ?? 0,
    ];
  });
}

/** Run the quality benchmark of one agent data set. */
export async function runAgentQuality(context: BenchContext, name: 'claude-code' | 'swe-agent'): Promise<BenchResult> {
  const dataSet: DataSetFiles = await findDataSet(context.dataDir, name);
  const title = `Handle survival by generation and constraints, by the library's own extractor (${name})`;
  const base = resultBase(context, `survival-${name}`, title);
  if (dataSet.missing) return missingDataResult(base, dataSet.missing);
  let transcripts = await loadTranscripts(dataSet);
  const notes: string[] = [
    `Data: ${dataSet.files.length} file(s) in ${dataSet.folder}, ${transcripts.length} transcript(s).`,
  ];
  if (context.quick && transcripts.length > 8) {
    notes.push(`--quick: only the first 8 of ${transcripts.length} transcripts.`);
    transcripts = transcripts.slice(0, 8);
  }
  const counter = createO200kCounter();
  const tables: ResultTable[] = [];
  const targets: TargetCheck[] = [];
  const mainRows: (string | number | null)[][] = [];
  const survivalRows: (string | number | null)[][] = [];
  const boundaryRows: (string | number | null)[][] = [];
  const cascadeRows: (string | number | null)[][] = [];
  for (const budget of BUDGETS) {
    context.log(`quality ${name}: budget ${budget}`);
    const { tallies, cascade } = await measureBudget(transcripts, budget, counter, context.log);
    mainRows.push(...armRows(tallies, budget));
    for (const [arm, list] of tallies.survival)
      survivalRows.push([budget, arm, ...[0, 1, 2, 3, 4].map((index) => round(tallyShare(list[index])))]);
    for (const [arm, tally] of tallies.boundary)
      boundaryRows.push([budget, arm, round(tallyShare(tally)), tally.total]);
    const deep = cascade.cascades.filter((count) => count >= 3).length;
    cascadeRows.push([
      budget,
      cascade.transcripts,
      cascade.withoutCompaction,
      deep,
      Math.max(0, ...cascade.cascades),
      tallies.points,
    ]);
    if (budget === 8000) {
      targets.push(
        atLeast(
          `future-needed handle recall, window + one recall @8k (${name})`,
          round(tallyShare(tallies.neededViaRecall)),
          0.95,
          'one recall = session.recall(handle text) verified',
        ),
      );
      targets.push(
        atLeast(
          `future-needed handle recall, window + checkpoint listing @8k (${name})`,
          round(tallyShare(tallies.neededViaIndex)),
          0.95,
          'stricter: only what the window names (the handle or the checkpoint id holding it)',
        ),
      );
      const own = tallies.boundary.get("agent's own summary (Claude Code)");
      if (own)
        targets.push(
          atMost(
            `Claude Code's own summary: future-needed handles kept at its boundary`,
            round(tallyShare(own)),
            0.5,
            'expected well under half',
          ),
        );
    }
    const constraints = tallies.constraints.get(LEDGER);
    targets.push(
      atLeast(
        `constraint survival @${budget / 1000}k (${name}, context-ledger)`,
        round(tallyShare(constraints)),
        1,
        constraints?.total
          ? `${constraints.total} (point, user constraint) pairs`
          : 'no user-stated negative constraint in this data: nothing to measure',
      ),
    );
  }
  tables.push({
    title: `Future-needed handle recall and constraint survival (${name})`,
    columns: [
      'budget',
      'arm',
      'present in context',
      'present or in index/checkpoint',
      'present or one recall',
      'constraints present',
      'constraint pairs',
    ],
    rows: mainRows,
    notes: [
      'Micro-average over all measurement points (every ~5% of a transcript, at the agent boundary, and right after each compaction) of all transcripts.',
      'A handle is future-needed at a point when it appeared before the point and the agent wrote it (assistant text or tool-call arguments) after it.',
    ],
  });
  tables.push({
    title: `Handle survival by generation (${name})`,
    columns: ['budget', 'arm', 'gen 1', 'gen 2', 'gen 3', 'gen 4', 'gen 5'],
    rows: survivalRows,
    notes: [
      "Share of a compacted region's handles verbatim in the context after 1..5 cascaded compactions (handles re-mentioned in recent turns count as present for every arm).",
    ],
  });
  if (boundaryRows.length > 0)
    tables.push({
      title: `At Claude Code's own compaction boundary (${name})`,
      columns: ['budget', 'arm', 'future-needed present', 'needed handles'],
      rows: boundaryRows,
      notes: ["The agent's own summary is unbudgeted; the other arms are at the row's budget."],
    });
  tables.push({
    title: `Compaction depth reached (${name})`,
    columns: [
      'budget',
      'transcripts',
      'never compacted',
      'with >= 3 cascaded compactions',
      'max compactions',
      'points',
    ],
    rows: cascadeRows,
    notes: [
      'Where "never compacted" is non-zero the transcript fits the budget: there is nothing to compare for it at that budget.',
    ],
  });
  const gaps = await measureGapHonesty(transcripts, counter);
  tables.push(gaps.table);
  targets.push(atLeast(`gap honesty (${name})`, gaps.share, 1, `${gaps.total} recalls of dropped handles`));
  return { ...base, notes, tables, targets };
}
