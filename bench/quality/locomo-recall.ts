/**
 * Metric 4, LoCoMo evidence recall@5. Each conversation is replayed through context-ledger
 * at the budget; at the end, for every question of categories 1 (multi-hop), 2 (temporal)
 * and 4 (single-hop) with parseable evidence, 5 turns are retrieved with BM25 (`bm25.ts`)
 * over all the conversation's turns, and recall@5 = share of the evidence dia_ids among them.
 * Queries, all starting with the question itself:
 *
 * - `question only` — the floor;
 * - `+ summary prose` — plus the sentences of the summary in the window (the summary-only
 *   arm's prose, `record.summary`) that share a term with the question;
 * - `+ whole summary` — plus the whole summary prose;
 * - `+ handles in context` — plus the handles shown in context-ledger's rendered context
 *   (the record's handle index as rendered, and the handles of the recent turns in the window)
 *   that share a term with the question.
 */
import { extractHandles } from '../../src/handles/extract.js';
import { locomoQuestions } from '../../src/importers/locomo.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { missingDataResult, resultBase, round, share } from '../bench-result.js';
import type { BenchResult, ResultTable, TargetCheck } from '../bench-result.js';
import { atLeast } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import { BUDGETS } from './agent-quality.js';
import { createBm25Index, terms } from './bm25.js';
import { replayLedger } from './ledger-replay.js';

const ARMS = [
  'question only',
  '+ summary prose (overlapping sentences)',
  '+ whole summary',
  '+ handles in context (overlapping)',
] as const;
const CATEGORIES = new Set([1, 2, 4]);

function overlapping(items: readonly string[], questionTerms: ReadonlySet<string>): string[] {
  return items.filter((item) => terms(item).some((term) => questionTerms.has(term)));
}

/** recall@k of one retrieval. */
export function recallAt(retrieved: readonly string[], evidence: readonly string[]): number {
  const found = new Set(retrieved);
  return evidence.filter((id) => found.has(id)).length / evidence.length;
}

/** Run the LoCoMo benchmark. */
export async function runLocomoQuality(context: BenchContext): Promise<BenchResult> {
  const dataSet = await findDataSet(context.dataDir, 'locomo');
  const base = resultBase(context, 'quality-locomo', 'LoCoMo evidence recall@5');
  if (dataSet.missing) return missingDataResult(base, dataSet.missing);
  const transcripts = await loadTranscripts(dataSet);
  const questions = (await Promise.all(dataSet.files.map((file) => locomoQuestions(file))))
    .flat()
    .filter((question) => CATEGORIES.has(question.category) && question.evidence.length > 0);
  const counter = createO200kCounter();
  const rows: (string | number | null)[][] = [];
  const targets: TargetCheck[] = [];
  for (const budget of BUDGETS) {
    context.log(`quality locomo: budget ${budget}`);
    const sums = new Map<string, { total: number; count: number; extended: number }>();
    let compacted = 0;
    for (const transcript of transcripts) {
      const { session } = await replayLedger(transcript.id, transcript.messages, { budget, every: 0, counter });
      const rendered = await session.render();
      const active = session.activeRecord();
      if (active) compacted++;
      const summary = active?.summary ?? '';
      const sentences = active?.claims.map((claim) => claim.text) ?? [];
      const contextHandles = [
        ...(active?.handles ?? []).map((handle) => handle),
        ...rendered.messages
          .filter((message) => message.source === 'original')
          .flatMap((message) => extractHandles(message.content)),
      ]
        .filter((handle) => handle.kind !== 'constraint')
        .map((handle) => handle.text);
      const uniqueHandles = [...new Set(contextHandles)];
      const index = createBm25Index(
        transcript.messages
          .filter((message) => /^D\d+:\d+$/.test(message.label ?? ''))
          .map((message) => ({ label: message.label ?? '', text: message.content })),
      );
      for (const question of questions.filter((candidate) => candidate.sampleId === transcript.id)) {
        const questionTerms = new Set(terms(question.question));
        const queries: Record<(typeof ARMS)[number], string> = {
          'question only': question.question,
          '+ summary prose (overlapping sentences)': [question.question, ...overlapping(sentences, questionTerms)].join(
            ' ',
          ),
          '+ whole summary': `${question.question} ${summary}`,
          '+ handles in context (overlapping)': [question.question, ...overlapping(uniqueHandles, questionTerms)].join(
            ' ',
          ),
        };
        for (const arm of ARMS) {
          const sum = sums.get(arm) ?? { total: 0, count: 0, extended: 0 };
          sum.total += recallAt(index.search(queries[arm], 5), question.evidence);
          sum.count++;
          if (queries[arm].length > question.question.length) sum.extended++;
          sums.set(arm, sum);
        }
      }
    }
    const value = (arm: (typeof ARMS)[number]) => {
      const sum = sums.get(arm);
      return sum ? share(sum.total, sum.count) : null;
    };
    for (const arm of ARMS)
      rows.push([
        budget,
        arm,
        round(value(arm)),
        sums.get(arm)?.count ?? 0,
        sums.get(arm)?.extended ?? 0,
        `${compacted}/${transcripts.length}`,
      ]);
    const summaryValue = value('+ summary prose (overlapping sentences)');
    const handleValue = value('+ handles in context (overlapping)');
    if (compacted > 0) {
      targets.push(
        atLeast(
          `LoCoMo recall@5 handle-built / summary-built @${budget / 1000}k`,
          round(summaryValue && handleValue !== null ? handleValue / summaryValue : null),
          2,
          `handles ${round(handleValue)} vs summary sentences ${round(summaryValue)}`,
        ),
      );
    }
  }
  const table: ResultTable = {
    title: 'LoCoMo evidence recall@5 (categories 1, 2, 4)',
    columns: [
      'budget',
      'query',
      'recall@5',
      'questions',
      'queries extended beyond the question',
      'conversations compacted',
    ],
    rows,
    notes: [
      'BM25 over all turns of the conversation, same index for every query; recall@5 = share of annotated evidence dia_ids among the 5 retrieved turns, averaged over questions.',
      'Where no conversation was compacted (the whole conversation fits the budget) there is no summary: the summary queries equal the question.',
    ],
  };
  return {
    ...base,
    notes: [
      `Data: ${dataSet.files.length} file(s), ${transcripts.length} conversations, ${questions.length} questions of categories 1, 2, 4 with evidence.`,
    ],
    tables: [table],
    targets,
  };
}
