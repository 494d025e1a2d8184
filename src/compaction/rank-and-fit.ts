import type { Finding, Handle } from '../types.js';
import { entryCost, sectionOf, type Placement } from '../handle-index/index-layout.js';
import { fitHandleBudget } from './guards.js';
import { checkStoredInstructions } from './pinned-check.js';
import { identityOf, reserveIdentities } from '../model/identities.js';
import { DEFAULT_RANK_WEIGHTS } from '../ranking/rank-weights.js';
import { rankedOrder } from '../ranking/ranked-order.js';
import { applySupersession } from '../handles/supersession.js';
import type { EvidenceTallies, RankEvidence, RankSpan } from '../ranking/rank-evidence.js';
import type { RankHistoryRange } from '../ranking/rank-history.js';
import type { RankHistory } from '../ranking/rank-history.js';
import type { HandleTraitMemo, HandleTraits } from '../ranking/handle-traits.js';
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
  traits: HandleTraitMemo,
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
    traits,
  };
}

/** The handles (and their identities and traits, in the same order) whose identity is not carried. */
function notCarried(
  handles: readonly Handle[],
  identities: readonly string[],
  traits: readonly HandleTraits[],
  carried: ReadonlySet<string>,
): { handles: Handle[]; identities: string[]; traits: HandleTraits[] } {
  const kept: Handle[] = [];
  const keptIdentities: string[] = [];
  const keptTraits: HandleTraits[] = [];
  handles.forEach((handle, index) => {
    const identity = identities[index] as string;
    if (carried.has(identity)) return;
    kept.push(handle);
    keptIdentities.push(identity);
    keptTraits.push(traits[index] as HandleTraits);
  });
  return { handles: kept, identities: keptIdentities, traits: keptTraits };
}

/** Quoted tool-output rules that always keep their place ahead of the index (when that many fit its share). */
const QUOTED_MIN = 3;
/** Share of the handle budget quoted tool-output rules may take beyond {@link QUOTED_MIN} of them. */
const QUOTED_SHARE = 0.06;
/** Share of the agent's spans a word may appear in and still be a sign of acting on a rule that names it. */
const COMMON_SHARE = 0.2;
/** How much of one span the search for the agent's words reads (a written file's head is enough). */
const AGENT_TEXT_CHARS = 20_000;
/** Words of a rule's frame (its modal, its negation, its filler), not of what it is about. */
const FRAME_WORDS = new Set(
  (
    'must never should always only keep with without that this from into when then than they them their there these ' +
    'those what which while will would could does done have been being were your also such other each every some ' +
    'more most less just like make sure ensure avoid instead unless until before after existing currently use used'
  ).split(' '),
);

/** The stems (first six letters) of the words of `text` that say what it is about, once each. */
function subjectStems(text: string, limit = text.length): Set<string> {
  const stems = new Set<string>();
  for (const match of text.slice(0, limit).matchAll(/[A-Za-z][A-Za-z0-9]{3,}/g)) {
    const word = match[0].toLowerCase();
    if (!FRAME_WORDS.has(word)) stems.add(word.slice(0, 6));
  }
  return stems;
}

/** Where the agent wrote each stem: the last seq and in how many spans, and how many spans it wrote in all. */
interface AgentWords {
  readonly stems: ReadonlyMap<string, { last: number; spans: number }>;
  readonly spans: number;
}

/** The stems the agent wrote (its messages and its tool calls, region and lookback). */
function agentWordsOf(input: CompactionInput, before: RankHistoryRange): AgentWords {
  const stems = new Map<string, { last: number; spans: number }>();
  let spans = 0;
  const visit = (seq: number, span: { kind: string; text: string }) => {
    if (span.kind !== 'tool-call' && span.kind !== 'assistant') return;
    spans++;
    for (const stem of subjectStems(span.text, AGENT_TEXT_CHARS)) {
      const seen = stems.get(stem);
      if (seen === undefined) stems.set(stem, { last: seq, spans: 1 });
      else {
        seen.last = Math.max(seen.last, seq);
        seen.spans++;
      }
    }
  };
  for (const occurrence of before.occurrences) visit(occurrence.seq, occurrence.span);
  for (const occurrence of input.region) visit(occurrence.seq, occurrence.span);
  return { stems, spans };
}

/**
 * The share of what a quoted rule is about that the agent wrote after the rule was read: how much it acted on it.
 * A word the agent writes in more than {@link COMMON_SHARE} of its spans (`code`, `test`, the project's name) is no
 * sign of acting on a rule and is not counted.
 */
function useOf(rule: Handle, agent: AgentWords): number {
  let about = 0;
  let used = 0;
  for (const stem of subjectStems(rule.text)) {
    const seen = agent.stems.get(stem);
    if (seen !== undefined && seen.spans > Math.max(3, agent.spans * COMMON_SHARE)) continue;
    about++;
    if (seen !== undefined && seen.last > rule.seq) used++;
  }
  return about === 0 ? 0 : used / about;
}

/**
 * Quoted tool-output rules ranked by use (`useOf`, then rank) and capped: the first {@link QUOTED_MIN}, and more while
 * they take at most {@link QUOTED_SHARE} of the budget, keep their place ahead of the index; the rest are `excluded`
 * from the window (they spill: a recall of the checkpoint lists them). They are quotes, not the user's rules:
 * instructions are never touched. Undefined when no rule is excluded.
 */
function capQuoted(
  ranked: readonly Handle[],
  agentWords: () => AgentWords,
  budget: number,
): { excluded: Set<Handle>; ranked: Handle[] } | undefined {
  const isQuoted = (handle: Handle) => handle.kind === 'constraint' && sectionOf(handle) === 'quoted';
  const quoted = ranked.filter(isQuoted);
  if (quoted.length <= QUOTED_MIN) return undefined;
  const words = agentWords();
  const use = new Map(quoted.map((rule) => [rule, useOf(rule, words)]));
  // A stable sort: equal use keeps the rank order.
  const byUse = [...quoted].sort((a, b) => (use.get(b) as number) - (use.get(a) as number));
  const shown: Handle[] = [];
  const excluded = new Set<Handle>();
  let cost = 0;
  for (const rule of byUse) {
    if (shown.length < QUOTED_MIN || cost + entryCost(rule) <= budget * QUOTED_SHARE) {
      shown.push(rule);
      cost += entryCost(rule);
    } else excluded.add(rule);
  }
  if (excluded.size === 0) return undefined;
  // The shown rules take the quoted rules' first places in the ranked order, most used first.
  let next = 0;
  const reordered = ranked.map((handle) =>
    isQuoted(handle) && !excluded.has(handle) ? (shown[next++] as Handle) : handle,
  );
  return { excluded, ranked: reordered };
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
  const others = notCarried(
    distinct,
    history.distinctIdentities(distinct),
    history.distinctTraits(distinct),
    new Set(carriedIdentities),
  );
  const returningChecked = await checkStoredInstructions(store, sessionId, others.handles);
  const returning = returningChecked.kept;
  const candidates = carried.concat(returning);
  const same = returning === others.handles;
  const candidateIdentities = carriedIdentities.concat(same ? others.identities : returning.map(identityOf));
  const traitsOf = (handle: Handle) => history.traits.of(handle);
  const candidateTraits = carried.map(traitsOf).concat(same ? others.traits : returning.map(traitsOf));
  // Kept by the session across compactions when the evidence is exactly the lookback and the region.
  const bulkyTokens = (input.rankWeights ?? DEFAULT_RANK_WEIGHTS).bulkyResultTokens;
  const tallies = fromAncestor.handles.length === 0 ? history.tallies(region, bulkyTokens) : undefined;
  const evidence = rankEvidence(
    input,
    fromAncestor,
    gathered.regionHandles,
    gathered.ancestorHandles,
    before,
    tallies,
    history.traits,
  );
  const ranked = rankedOrder(candidates, evidence, input.rankWeights, {
    identities: candidateIdentities,
    traits: candidateTraits,
    seed: history.rankSeed,
  });
  // A binding a later statement replaced (and its old value's copies) leaves the window for the checkpoint; rebound
  // code in tool output is only ranked last. No pass over the lookback is made when nothing was superseded.
  const current = applySupersession(candidates, ranked);
  const superseded = current.superseded;
  const budget = config.handleBudgetTokens;
  const fitOf = (candidates: readonly Handle[], order: readonly Handle[]) =>
    fitHandleBudget(
      candidates,
      budget,
      config.onHandleOverflow,
      { sessionId },
      { ranked: order, visibleText: summary },
    );
  let fit = fitOf(current.candidates, current.ranked);
  // Quoted rules crowd the index out only when something spilled: then those the agent did not act on are capped.
  const quoted =
    fit.spilled.length > 0 ? capQuoted(current.ranked, () => agentWordsOf(input, before), budget) : undefined;
  if (quoted !== undefined) {
    const left = (handle: Handle) => !quoted.excluded.has(handle);
    fit = fitOf(current.candidates.filter(left), quoted.ranked.filter(left));
    fit = { ...fit, spilled: [...fit.spilled, ...current.ranked.filter((handle) => quoted.excluded.has(handle))] };
  }
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
