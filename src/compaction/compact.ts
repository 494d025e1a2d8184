import { ContextBudgetError, UnsafeRecompactionError } from '../errors.js';
import { handleRoleOf, verifySpan } from '../model/span.js';
import type { LedgerStore } from '../stores/store.js';
import { fitSummary } from '../summarizers/sections.js';
import type { SourceUnit, Summarizer } from '../summarizers/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord, DroppedRange, Finding, Handle, Span, SpanOccurrence, WindowConfig } from '../types.js';
import { checkCarriedHandles, fitHandleBudget } from './guards.js';
import { checkStoredInstructions } from './pinned-check.js';
import { mergeHandles } from '../handles/handle-sets.js';
import { identityOf, reserveIdentities } from '../model/identities.js';
import { DEFAULT_RANK_WEIGHTS } from '../ranking/rank-handles.js';
import { rankedOrder } from '../ranking/ranked-order.js';
import { supersededHandles } from '../handles/supersession.js';
import type { RankWeights } from '../ranking/rank-handles.js';
import type { EvidenceTallies, RankEvidence, RankSpan } from '../ranking/rank-handles.js';
import { RankHistory } from '../ranking/rank-history.js';
import type { RankHistoryRange } from '../ranking/rank-history.js';
import { recordId } from '../model/record-id.js';
import { verifySummary } from './verify.js';
import { isAre } from '../text/wording.js';

/** Everything one compaction needs. */
export interface CompactionInput {
  readonly store: LedgerStore;
  readonly sessionId: string;
  readonly config: WindowConfig;
  readonly summarizer: Summarizer;
  readonly counter: TokenCounter;
  /** Weights of the handle ranking (default `DEFAULT_RANK_WEIGHTS`). */
  readonly rankWeights?: RankWeights | undefined;
  /** The summary region currently in the window (the latest summary or external record). */
  readonly active?: CompactionRecord | undefined;
  /** The head of the spill-checkpoint chain `active` refers to, if any (its handles are not re-read). */
  readonly activeCheckpoint?: CompactionRecord | undefined;
  /** The oldest originals of the window, to be compacted (never empty). */
  readonly region: readonly SpanOccurrence[];
  /** Ordinal for the first record written. */
  readonly nextOrdinal: number;
  /** The session's next seq now. */
  readonly atSeq: number;
  /** Clock, for tests. */
  readonly now?: () => Date;
  /** The originals that stay in the window after this compaction (their user, assistant and tool-call text stays visible). */
  readonly recent?: readonly SpanOccurrence[] | undefined;
  /**
   * The session's handle rows and compacted spans, held across compactions (default: a fresh one, which reads the
   * region's handles and the ranking's lookback from the store).
   */
  readonly history?: RankHistory | undefined;
  /** Look up a record already in the session (a checkpoint left by a crash between two writes is reused). */
  readonly findRecord?: ((id: string) => CompactionRecord | undefined) | undefined;
}

/** The records one compaction wrote: the summary and, when handles spilled, its checkpoint. */
export interface CompactionOutput {
  readonly record: CompactionRecord;
  readonly checkpoint?: CompactionRecord | undefined;
  /** False when the checkpoint was already stored (left by an interrupted compaction) and reused. */
  readonly checkpointWritten: boolean;
}

/**
 * Re-derive the input for an ancestor summary from its stored originals (seed 003): a
 * claim quoted verbatim from a cited span stays a claim; anything else is replaced by
 * its cited spans' text. At the depth bound every claim is replaced by its originals.
 * Throws UnsafeRecompactionError when the originals are not stored.
 */
async function ancestorUnits(
  input: CompactionInput,
  active: CompactionRecord,
  full: boolean,
): Promise<{ units: SourceUnit[]; originals: Span[]; handles: Handle[] }> {
  const { store, sessionId } = input;
  const unsafe = (missing: number, what: string): never => {
    throw new UnsafeRecompactionError(
      `Session ${sessionId}: record ${active.id} (depth ${active.depth}) is a summary re-ingested into the window, ` +
        `and ${missing} of ${what} ${isAre(missing)} not in the store ${store.location}. ` +
        'It will not be summarized again: replay the full transcript into the ledger so its originals are stored, ' +
        'or start a new session seeded with its handle index.',
      { sessionId, recordId: active.id, missing, droppedRange: active.droppedRange },
    );
  };
  if (active.type === 'external' || active.claims.every((claim) => claim.spanIds.length === 0)) {
    const { fromSeq, toSeq } = active.droppedRange;
    if (toSeq < fromSeq) unsafe(1, 'the spans it summarized (it was written before this ledger began)');
    const occurrences = await store.occurrences(sessionId, { fromSeq, toSeq });
    if (occurrences.length !== toSeq - fromSeq + 1)
      unsafe(toSeq - fromSeq + 1 - occurrences.length, `its ${toSeq - fromSeq + 1} source spans`);
    return {
      units: occurrences.map((occurrence) => ({
        text: occurrence.span.text,
        spanIds: [occurrence.spanId],
        role: handleRoleOf(occurrence.span.kind),
        kind: occurrence.span.kind,
        seq: occurrence.seq,
        origin: 'original',
      })),
      originals: occurrences.map((occurrence) => occurrence.span),
      handles: await store.handles(sessionId, { fromSeq, toSeq }),
    };
  }
  const cited = [...new Set(active.claims.flatMap((claim) => claim.spanIds))];
  const spans = await store.spans(sessionId, cited);
  const byId = new Map(spans.filter(verifySpan).map((span) => [span.id, span]));
  if (byId.size !== cited.length) unsafe(cited.length - byId.size, `the ${cited.length} spans its claims cite`);
  const units: SourceUnit[] = [];
  const used = new Set<string>();
  for (const claim of active.claims) {
    const sources = claim.spanIds.map((id) => byId.get(id)).filter((span): span is Span => span !== undefined);
    const quoted = full ? undefined : sources.find((span) => span.text.includes(claim.text));
    if (quoted) {
      // The claim keeps the role of the span it quotes: a user's words stay the user's, tool output stays quoted output.
      units.push({
        text: claim.text,
        spanIds: claim.spanIds,
        role: handleRoleOf(quoted.kind),
        kind: quoted.kind,
        seq: active.droppedRange.fromSeq,
        origin: 'claim',
      });
      continue;
    }
    for (const span of sources) {
      if (used.has(span.id)) continue;
      used.add(span.id);
      units.push({
        text: span.text,
        spanIds: [span.id],
        role: handleRoleOf(span.kind),
        kind: span.kind,
        seq: active.droppedRange.fromSeq,
        origin: 'original',
      });
    }
  }
  return { units, originals: [...byId.values()], handles: [] };
}

/**
 * What the ranking knows at compaction time: every handle occurrence of the region, the re-read
 * ancestor range and the recent history, their spans, what stays visible.
 */
function rankEvidence(
  input: CompactionInput,
  fromAncestor: { originals: readonly Span[]; handles: readonly Handle[] },
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
 * Compact `region` (plus the summary already in the window) into a new record: guards,
 * summarize, verify, write. Every handle of the region and of the ancestor ends up in the
 * record or in its spill checkpoint; nothing is truncated.
 */
export async function compactRegion(input: CompactionInput): Promise<CompactionOutput> {
  const { store, sessionId, config, counter, active, region } = input;
  const first = region[0];
  const last = region[region.length - 1];
  if (first === undefined || last === undefined) {
    throw new ContextBudgetError(
      `Session ${sessionId}: nothing left to compact, yet the context does not fit ${config.maxTokens} tokens. Raise maxTokens.`,
      { sessionId },
    );
  }
  const history = input.history ?? new RankHistory(store, sessionId);
  const regionHandles = await history.handles(first.seq, last.seq);
  const ancestorHandles = active ? [...active.handles] : [];
  const overDepth = active !== undefined && active.type !== 'external' && active.depth + 1 > config.maxDepth;
  const fromAncestor = active
    ? await ancestorUnits(input, active, overDepth || !active.reversible)
    : { units: [], originals: [], handles: [] };
  const units: SourceUnit[] = [
    ...fromAncestor.units,
    ...region.map((occurrence): SourceUnit => ({
      text: occurrence.span.text,
      spanIds: [occurrence.spanId],
      role: handleRoleOf(occurrence.span.kind),
      kind: occurrence.span.kind,
      seq: occurrence.seq,
      origin: 'original',
    })),
  ];
  // Instructions are pinned: a handle row that no longer matches its span is not carried (the record says so).
  const checked = await checkStoredInstructions(
    store,
    sessionId,
    mergeHandles(ancestorHandles, fromAncestor.handles, regionHandles),
  );
  const carried = checked.kept;
  if (active) checkCarriedHandles(active, ancestorHandles, carried, { sessionId });
  if (config.onHandleOverflow === 'throw')
    fitHandleBudget(carried, config.handleBudgetTokens, 'throw', { sessionId }, { ranked: carried });

  const result = await input.summarizer.summarize({
    sessionId,
    units,
    budgetTokens: config.summaryBudgetTokens,
    handles: carried,
    counter,
  });
  const fitted = fitSummary(result.summary, result.claims, config.summaryBudgetTokens, counter);
  const before = await history.before(first.seq);
  const distinct = await history.distinctBefore(first.seq);
  reserveIdentities(distinct.length + carried.length);
  const carriedIdentities = carried.map(identityOf);
  const carriedIdentitySet = new Set(carriedIdentities);
  // Handles of the recent history that this compaction does not carry are already in the
  // checkpoint chain; they compete for the window again, but never need spilling again.
  const others = notCarried(distinct, history.distinctIdentities(distinct), carriedIdentitySet);
  const returningChecked = await checkStoredInstructions(store, sessionId, others.handles);
  const returning = returningChecked.kept;
  const candidates = carried.concat(returning);
  const candidateIdentities = carriedIdentities.concat(
    returning === others.handles ? others.identities : returning.map(identityOf),
  );
  // Kept by the session across compactions when the evidence is exactly the lookback and the region.
  const bulkyTokens = (input.rankWeights ?? DEFAULT_RANK_WEIGHTS).bulkyResultTokens;
  const tallies = fromAncestor.handles.length === 0 ? history.tallies(region, bulkyTokens) : undefined;
  const evidence = rankEvidence(input, fromAncestor, regionHandles, ancestorHandles, before, tallies);
  const ranked = rankedOrder(candidates, evidence, input.rankWeights, candidateIdentities);
  // A binding a later statement replaced (and its old value's copies) leaves the window for the checkpoint.
  const superseded = supersededHandles(candidates);
  // Each pass below is over the whole lookback: none is made for an empty set, and sets hold the few carried handles.
  const unless = (handles: Handle[]) =>
    superseded.size === 0 ? handles : handles.filter((handle) => !superseded.has(handle));
  const fit = fitHandleBudget(
    unless(candidates),
    config.handleBudgetTokens,
    config.onHandleOverflow,
    { sessionId },
    {
      ranked: unless(ranked),
      visibleText: fitted.summary,
    },
  );
  // Returning handles are already in the checkpoint chain: only carried ones spill (carried and returning are apart).
  const carriedSet = new Set(carried);
  const kept = fit.kept;
  const spilled = (
    superseded.size === 0 ? fit.spilled : [...fit.spilled, ...ranked.filter((handle) => superseded.has(handle))]
  ).filter((handle) => carriedSet.has(handle));
  const findings: Finding[] = [
    ...verifySummary(
      fitted,
      units,
      carried,
      fromAncestor.originals.map((span) => ({ id: span.id, text: span.text })),
    ),
    ...checked.findings,
    ...returningChecked.findings,
  ];
  const rederived = active !== undefined && (overDepth || !active.reversible || active.type === 'external');
  // A record re-derived from stored originals compacts those originals, not the ancestor's prose,
  // so it does not inherit the ancestor's lossiness (invariant 5); only a lossy ancestor whose
  // prose was summarized again, or whose originals no longer verify, makes this record lossy.
  const fromIntactOriginals = rederived && fromAncestor.originals.every(verifySpan);
  if (active && !active.reversible && !fromIntactOriginals)
    findings.push({
      code: 'lossy-ancestor',
      message: `compacts lossy record ${active.id} without intact stored originals`,
    });
  const allVerified = region.every((occurrence) => verifySpan(occurrence.span));
  const accounted = new Set([...kept, ...spilled].map(identityOf));
  const allHandlesCarried = regionHandles.every((handle) => accounted.has(identityOf(handle)));
  const reversible = findings.length === 0 && allVerified && allHandlesCarried;

  const droppedRange: DroppedRange = {
    fromSeq:
      active && active.droppedRange.toSeq >= active.droppedRange.fromSeq ? active.droppedRange.fromSeq : first.seq,
    toSeq: last.seq,
    byteStart:
      active && active.droppedRange.byteEnd > active.droppedRange.byteStart
        ? active.droppedRange.byteStart
        : first.byteStart,
    byteEnd: last.byteEnd,
  };
  const createdAt = (input.now ?? (() => new Date()))().toISOString();
  let ordinal = input.nextOrdinal;
  let checkpoint: CompactionRecord | undefined;
  let reused: CompactionRecord | undefined;
  if (spilled.length > 0) {
    const content = { sessionId, type: 'checkpoint', handles: spilled.map(identityOf), droppedRange };
    const id = recordId('chk', content);
    reused = input.findRecord?.(id);
    checkpoint = reused ?? {
      id,
      sessionId,
      ordinal: ordinal++,
      type: 'checkpoint',
      summary: '',
      claims: [],
      handles: spilled,
      reversible: true,
      depth: 0,
      droppedRange,
      ancestors: input.activeCheckpoint ? [input.activeCheckpoint.id] : [],
      rederived: false,
      summarizer: { name: 'checkpoint', version: '1' },
      findings: [],
      summaryTokens: 0,
      atSeq: input.atSeq,
      createdAt,
    };
  }
  const depth = rederived || active === undefined ? 1 : active.depth + 1;
  const body = {
    sessionId,
    type: 'summary' as const,
    summary: fitted.summary,
    claims: fitted.claims,
    handles: kept,
    reversible,
    depth,
    droppedRange,
    ancestors: active ? [active.id] : [],
    checkpointId: checkpoint?.id ?? input.activeCheckpoint?.id,
    rederived,
    summarizer: input.summarizer.identity,
    findings,
  };
  const record: CompactionRecord = {
    id: recordId('rec', { ...body, ordinal }),
    ordinal,
    ...body,
    summaryTokens: fitted.tokens,
    atSeq: input.atSeq,
    createdAt,
  };
  if (checkpoint && !reused) await store.writeRecord(checkpoint);
  await store.writeRecord(record);
  return { record, checkpoint, checkpointWritten: checkpoint !== undefined && reused === undefined };
}
