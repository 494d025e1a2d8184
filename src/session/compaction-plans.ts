/**
 * Where a session's next compaction cuts and how large a handle budget it gets: keep at most so many tokens of recent
 * turns (`keepPlan`), or refill the window to its target (`refillPlan`, which asks the planner with what the session
 * knows: the originals' costs, the handles of the region and of the ranking's lookback, the frame of the next block).
 */
import { chooseBoundary, planRefill } from '../compaction/planner.js';
import type { Gap } from '../model/gaps.js';
import type { RankHistory } from '../ranking/rank-history.js';
import type { CompactionRecord, SpanOccurrence, WindowConfig } from '../types.js';
import { maskingPolicy } from '../window/masking.js';
import type { WindowMeasure } from './window-measure.js';

/** A new summary absorbs the last one plus a region: expected to be about as long as the last, plus this margin. */
export const SUMMARY_GROWTH_TOKENS = 20;

/** How many of the oldest originals a compaction takes, and its handle budget. */
export interface CompactionPlan {
  readonly boundary: number;
  readonly handleBudgetTokens: number;
}

/** What planning reads of the session. */
export interface PlanContext {
  readonly config: WindowConfig;
  /** The originals in the window, oldest first. */
  readonly originals: readonly SpanOccurrence[];
  /** The session's measure of its window (costs of originals and stubs, the frame). */
  readonly measure: WindowMeasure;
}

/** The fewest oldest originals, cut at an allowed boundary, that leave at most `keepTokens` of recent turns. */
export function keepPlan(context: PlanContext, keepTokens: number): CompactionPlan {
  const { originals, measure, config } = context;
  return {
    boundary: chooseBoundary(originals, measure.originalCosts(originals), keepTokens),
    handleBudgetTokens: config.handleBudgetTokens,
  };
}

/** What a refill plan reads besides the `PlanContext`. */
export interface RefillContext extends PlanContext {
  /** The summary or external record in the window, if any. */
  readonly active: CompactionRecord | undefined;
  /** The handle rows of the window and of the ranking's lookback. */
  readonly history: RankHistory;
  /** The caller's system prompt. */
  readonly systemPrompt: string | undefined;
  /** The session's spill checkpoint chain of the active record, summarized (its count and user constraints). */
  readonly checkpoint: { readonly count: number; readonly userConstraints: number } | undefined;
  /** The session's gaps. */
  readonly gaps: readonly Gap[];
}

/** The boundary and handle budget that refill the window to `targetFill` after compacting. */
export async function refillPlan(context: RefillContext): Promise<CompactionPlan> {
  const { originals, measure, config, active, history } = context;
  const first = originals[0];
  const last = originals[originals.length - 1];
  if (first === undefined || last === undefined) return { boundary: 0, handleBudgetTokens: config.handleBudgetTokens };
  const regionHandles = await history.handles(first.seq, last.seq);
  const costs = measure.originalCosts(originals);
  // Each identity once: the plan sums what each returning identity costs.
  const returningHandles = await history.distinctBefore(first.seq);
  const fixedTokens = measure.frameTokens({
    systemPrompt: context.systemPrompt,
    fromSeq: active?.droppedRange.fromSeq ?? 0,
    toSeq: last.seq,
    reversible: active?.reversible ?? true,
    checkpoint: context.checkpoint,
    gaps: context.gaps,
  });
  // The new record's cut is the next seq: masking at compactions masks the kept turns' old bulky results.
  const policy = maskingPolicy(config, Number.POSITIVE_INFINITY);
  return planRefill({
    originals,
    costs,
    regionHandles,
    carriedHandles: active?.handles ?? [],
    returningHandles,
    fixedTokens,
    summaryTokens: active?.type === 'summary' ? active.summaryTokens + SUMMARY_GROWTH_TOKENS : undefined,
    config,
    masking: policy && { policy, stubCost: (index) => measure.stubCost(originals[index] as SpanOccurrence) },
  });
}
