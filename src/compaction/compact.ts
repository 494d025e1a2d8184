import { ContextBudgetError, UnsafeRecompactionError } from '../errors.js';
import { roleOf, verifySpan } from '../span.js';
import type { LedgerStore } from '../stores/store.js';
import { fitSummary } from '../summarizers/sections.js';
import type { SourceUnit, Summarizer } from '../summarizers/summarizer.js';
import type { TokenCounter } from '../tokens.js';
import type { CompactionRecord, DroppedRange, Finding, Handle, Span, SpanOccurrence, WindowConfig } from '../types.js';
import { checkCarriedHandles, fitHandleBudget, handleIdentity, mergeHandles } from './guards.js';
import { recordId } from './record-id.js';
import { verifySummary } from './verify.js';

/** Everything one compaction needs. */
export interface CompactionInput {
  readonly store: LedgerStore;
  readonly sessionId: string;
  readonly config: WindowConfig;
  readonly summarizer: Summarizer;
  readonly counter: TokenCounter;
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
async function ancestorUnits(input: CompactionInput, active: CompactionRecord, full: boolean): Promise<{ units: SourceUnit[]; originals: Span[]; handles: Handle[] }> {
  const { store, sessionId } = input;
  const unsafe = (missing: number, what: string): never => {
    throw new UnsafeRecompactionError(
      `Session ${sessionId}: record ${active.id} (depth ${active.depth}) is a summary re-ingested into the window, and ${missing} of ${what} are not in the store ${store.location}. ` +
        'It will not be summarized again: replay the full transcript into the ledger so its originals are stored, or start a new session seeded with its handle index.',
      { sessionId, recordId: active.id, missing, droppedRange: active.droppedRange },
    );
  };
  if (active.type === 'external' || active.claims.every((claim) => claim.spanIds.length === 0)) {
    const { fromSeq, toSeq } = active.droppedRange;
    if (toSeq < fromSeq) unsafe(1, 'the spans it summarized (it was written before this ledger began)');
    const occurrences = await store.occurrences(sessionId, { fromSeq, toSeq });
    if (occurrences.length !== toSeq - fromSeq + 1) unsafe(toSeq - fromSeq + 1 - occurrences.length, `its ${toSeq - fromSeq + 1} source spans`);
    return {
      units: occurrences.map((occurrence) => ({ text: occurrence.span.text, spanIds: [occurrence.spanId], role: occurrence.role, kind: occurrence.span.kind, seq: occurrence.seq, origin: 'original' })),
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
    const quoted = !full && sources.some((span) => span.text.includes(claim.text));
    if (quoted) {
      units.push({ text: claim.text, spanIds: claim.spanIds, role: 'assistant', seq: active.droppedRange.fromSeq, origin: 'claim' });
      continue;
    }
    for (const span of sources) {
      if (used.has(span.id)) continue;
      used.add(span.id);
      units.push({ text: span.text, spanIds: [span.id], role: roleOf(span.kind), kind: span.kind, seq: active.droppedRange.fromSeq, origin: 'original' });
    }
  }
  return { units, originals: [...byId.values()], handles: [] };
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
    throw new ContextBudgetError(`Session ${sessionId}: nothing left to compact, yet the context does not fit ${config.maxTokens} tokens. Raise maxTokens.`, { sessionId });
  }
  const regionHandles = await store.handles(sessionId, { fromSeq: first.seq, toSeq: last.seq });
  const ancestorHandles = active ? [...active.handles] : [];
  const overDepth = active !== undefined && active.type !== 'external' && active.depth + 1 > config.maxDepth;
  const fromAncestor = active ? await ancestorUnits(input, active, overDepth || !active.reversible) : { units: [], originals: [], handles: [] };
  const units: SourceUnit[] = [
    ...fromAncestor.units,
    ...region.map((occurrence): SourceUnit => ({ text: occurrence.span.text, spanIds: [occurrence.spanId], role: occurrence.role, kind: occurrence.span.kind, seq: occurrence.seq, origin: 'original' })),
  ];
  const carried = mergeHandles(ancestorHandles, fromAncestor.handles, regionHandles);
  if (active) checkCarriedHandles(active, ancestorHandles, carried, { sessionId });
  const { kept, spilled } = fitHandleBudget(carried, config.handleBudgetTokens, config.onHandleOverflow, { sessionId });

  const result = await input.summarizer.summarize({ sessionId, units, budgetTokens: config.summaryBudgetTokens, handles: carried, counter });
  const fitted = fitSummary(result.summary, result.claims, config.summaryBudgetTokens, counter);
  const findings: Finding[] = verifySummary(fitted, units, carried, fromAncestor.originals.map((span) => ({ id: span.id, text: span.text })));
  if (active && !active.reversible) findings.push({ code: 'lossy-ancestor', message: `compacts lossy record ${active.id}` });
  const allVerified = region.every((occurrence) => verifySpan(occurrence.span));
  const accounted = new Set([...kept, ...spilled].map(handleIdentity));
  const allHandlesCarried = regionHandles.every((handle) => accounted.has(handleIdentity(handle)));
  const reversible = findings.length === 0 && allVerified && allHandlesCarried && (active?.reversible ?? true);

  const droppedRange: DroppedRange = {
    fromSeq: active && active.droppedRange.toSeq >= active.droppedRange.fromSeq ? active.droppedRange.fromSeq : first.seq,
    toSeq: last.seq,
    byteStart: active && active.droppedRange.byteEnd > active.droppedRange.byteStart ? active.droppedRange.byteStart : first.byteStart,
    byteEnd: last.byteEnd,
  };
  const createdAt = (input.now ?? (() => new Date()))().toISOString();
  let ordinal = input.nextOrdinal;
  let checkpoint: CompactionRecord | undefined;
  let reused: CompactionRecord | undefined;
  if (spilled.length > 0) {
    const content = { sessionId, type: 'checkpoint', handles: spilled.map(handleIdentity), droppedRange };
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
  const rederived = active !== undefined && (overDepth || !active.reversible || active.type === 'external');
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
  const record: CompactionRecord = { id: recordId('rec', { ...body, ordinal }), ordinal, ...body, summaryTokens: fitted.tokens, atSeq: input.atSeq, createdAt };
  if (checkpoint && !reused) await store.writeRecord(checkpoint);
  await store.writeRecord(record);
  return { record, checkpoint, checkpointWritten: checkpoint !== undefined && reused === undefined };
}
