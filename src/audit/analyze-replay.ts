/**
 * Audit of context-ledger's own compactions, for a transcript with no agent compaction: it
 * is replayed at a token budget, and each summary record is one generation of the lineage.
 */
import { mergedCheckpoint } from '../model/checkpoints.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { ledgerBlock } from '../window/window.js';
import { windowStateOf } from '../window/window-state.js';
import { IndexBases } from '../window/stable-index.js';
import { entriesBefore, futureNeeded, generationAudit, judge } from './generation.js';
import type { Keeper } from './generation.js';
import type { Timeline } from './timeline.js';
import type { GenerationAudit, LedgerRecallStatus } from './types.js';

/** One generation per summary record of a timeline built in `replay` mode. */
export async function auditLedgerGenerations(
  timeline: Timeline,
  counter: TokenCounter,
  onStep: (done: number, total: number) => void = () => undefined,
): Promise<GenerationAudit[]> {
  const records = timeline.session.records();
  const summaries = records.filter((record) => record.type !== 'checkpoint');
  const recallCache = new Map<string, LedgerRecallStatus>();
  const generations: GenerationAudit[] = [];
  // One for the whole lineage: each record's index base is settled once, on the chain before it.
  const indexBases = new IndexBases();
  for (const [index, record] of summaries.entries()) {
    onStep(index, summaries.length);
    const nextAt = summaries[index + 1]?.atSeq ?? Number.POSITIVE_INFINITY;
    const checkpoint = mergedCheckpoint(records, record.checkpointId);
    const before = entriesBefore(timeline, record.droppedRange.toSeq + 1);
    const needed = futureNeeded(timeline, before, record.atSeq, nextAt);
    const keeper: Keeper = { record, checkpoint, recallFrom: timeline.session, recallCache };
    const verdicts = await judge(keeper, needed);
    const upTo = records.filter((candidate) => candidate.ordinal <= record.ordinal);
    // As the session showed it: with its window configuration the index is frozen at the same base.
    const config = timeline.session.config;
    const state = windowStateOf({ records: upTo, originals: [], active: record, config, indexBases });
    const block = ledgerBlock(state, indexBases) ?? '';
    generations.push(
      generationAudit(timeline, {
        generation: index + 1,
        writer: 'context-ledger',
        keeper,
        tokens: counter.count(block),
        before,
        verdicts,
      }),
    );
  }
  onStep(summaries.length, summaries.length);
  return generations;
}
