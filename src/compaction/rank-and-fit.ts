import type { Finding, Handle } from '../types.js';
import type { Placement } from '../handle-index/index-layout.js';
import { fitHandleBudget } from './guards.js';
import { checkStoredInstructions } from './pinned-check.js';
import { identityOf, reserveIdentities } from '../model/identities.js';
import { DEFAULT_RANK_WEIGHTS } from '../ranking/rank-weights.js';
import { rankedOrder } from '../ranking/ranked-order.js';
import { applySupersession } from '../handles/supersession.js';
import type { EvidenceTallies, RankEvidence, RankSpan } from '../ranking/rank-evidence.js';
import type { RankHistoryRange } from '../ranking/rank-history.js';
import type { RankHistory } from '../ranking/rank-history.js';
import type { AncestorInput } from './ancestor-units.js';
import type { CompactionInput } from './compaction-input.js';

/** What a compaction gathered before ranking: the region's handles, the ancestor's, and the handles it carries. */
export interface Gathered {
  readonly history: RankHistory;
  readonly regionHandles: readonly Handle[];
  readonly ancestorHandles: readonly Handle[];
  readonly fromAncestor: AncestorInput;
  /** Every handle of the ancestor and the region whose stored instruction still checks. */
  readonly carried: readonly Handle[];
}

/** The index a compaction keeps in the window, what it spills to its checkpoint, and what checking found. */
export interface Fitted {
  readonly kept: readonly Handle[];
  readonly spilled: readonly Handle[];
  readonly findings: readonly Finding[];
  /** What the placement that kept `kept` found, for the record's index layout (see `fitHandleBudget`). */
  readonly placement?: Placement | undefined;
  /** What replaced each superseded handle, decided over every candidate (`applySupersession`). */
  readonly replacedBy: ReadonlyMap<Handle, Handle>;
}

/**
 * What the ranking knows at compaction time: every handle occurrence of the region, the re-read
 * ancestor range and the recent history, their spans, what stays visible.
 */
function rankEvidence(
  input: CompactionInput,
  fromAncestor: Pick<AncestorInput, 'originals' | 'handles'>,
  regionHandles: readonly Handle[],
  ancestorHandles: readonly Handle[],
  history: RankHistoryRange,
  tallies: EvidenceTallies | undefined,
): RankEvidence {
  const spans = new Map<string, RankSpan>();
  for (const occurrence of history.occurrences) spans.set(occurrence.spanId, occurrence.span);
  for (const span of fromAncestor.originals) spans.set(span.id, span);
  for (const occurrence of input.region) spans.set(occurrence.spanId, occurrence.span);
  const visible = (input.recent ?? [])
    .filter((occurrence) => occurrence.span.kind !== 'tool-result')
    .map((occurrence) => occurrence.span.text);
  // The occurrences are joined only when the ranking reads them: not when their tallies are kept.
  let occurrences: Handle[] | undefined;
  return {
    get occurrences() {
      occurrences ??= [...history.handles, ...fromAncestor.handles, ...regionHandles];
      return occurrences;
    },
    spans,
    carried: new Set(ancestorHandles.map(identityOf)),
    fromSeq: history.occurrences[0]?.seq ?? input.region[0]?.seq ?? 0,
    toSeq: input.region[input.region.length - 1]?.seq ?? 0,
    visibleText: visible.length > 0 ? visible.join('\n') : undefined,
    tallies,
  };
}

/** The handles (and their identities, in the same order) whose identity is not carried. */
function notCarried(
  handles: readonly Handle[],
  identities: readonly string[],
  carried: ReadonlySet<string>,
): { handles: Handle[]; identities: string[] } {
  const kept: Handle[] = [];
  const keptIdentities: string[] = [];
  handles.forEach((handle, index) => {
    const identity = identities[index] as string;
    if (carried.has(identity)) return;
    kept.push(handle);
    keptIdentities.push(identity);
  });
  return { handles: kept, identities: keptIdentities };
}

/**
 * Rank the carried handles with those of the recent history the record does not carry (already in the checkpoint
 * chain, they compete for the window again but never spill again), drop what a later binding superseded, and fit
 * the rest into the handle budget beside the summary.
 */
export async function rankAndFit(input: CompactionInput, gathered: Gathered, summary: string): Promise<Fitted> {
  const { store, sessionId, config, region } = input;
  const { history, carried, fromAncestor } = gathered;
  const first = region[0]?.seq ?? 0;
  const before = await history.before(first);
  const distinct = await history.distinctBefore(first);
  reserveIdentities(distinct.length + carried.length);
  const carriedIdentities = carried.map(identityOf);
  const others = notCarried(distinct, history.distinctIdentities(distinct), new Set(carriedIdentities));
  const returningChecked = await checkStoredInstructions(store, sessionId, others.handles);
  const returning = returningChecked.kept;
  const candidates = carried.concat(returning);
  const candidateIdentities = carriedIdentities.concat(
    returning === others.handles ? others.identities : returning.map(identityOf),
  );
  // Kept by the session across compactions when the evidence is exactly the lookback and the region.
  const bulkyTokens = (input.rankWeights ?? DEFAULT_RANK_WEIGHTS).bulkyResultTokens;
  const tallies = fromAncestor.handles.length === 0 ? history.tallies(region, bulkyTokens) : undefined;
  const evidence = rankEvidence(input, fromAncestor, gathered.regionHandles, gathered.ancestorHandles, before, tallies);
  const ranked = rankedOrder(candidates, evidence, input.rankWeights, candidateIdentities);
  // A binding a later statement replaced (and its old value's copies) leaves the window for the checkpoint; rebound
  // code in tool output is only ranked last. No pass over the lookback is made when nothing was superseded.
  const current = applySupersession(candidates, ranked);
  const superseded = current.superseded;
  const fit = fitHandleBudget(
    current.candidates,
    config.handleBudgetTokens,
    config.onHandleOverflow,
    { sessionId },
    { ranked: current.ranked, visibleText: summary },
  );
  // Returning handles are already in the checkpoint chain: only carried ones spill (carried and returning are apart).
  const carriedSet = new Set(carried);
  const spilled = (
    superseded.size === 0 ? fit.spilled : [...fit.spilled, ...ranked.filter((handle) => superseded.has(handle))]
  ).filter((handle) => carriedSet.has(handle));
  return {
    kept: fit.kept,
    spilled,
    findings: returningChecked.findings,
    placement: fit.placement,
    replacedBy: current.replacedBy,
  };
}
