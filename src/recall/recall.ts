import { mergedCheckpoint } from '../model/checkpoints.js';
import { pageCursor, readPageCursor } from '../collections/page-cursor.js';
import { handlePage } from './handle-pages.js';
import { InvalidInputError } from '../errors.js';
import { closestHandles } from './closest-handles.js';
import type { ClosestHandle } from './closest-handles.js';
import { lossyGapNote, neverSaidNote } from './recall-notes.js';
import { gapOf, gapsOf } from '../model/gaps.js';
import type { Gap } from '../model/gaps.js';
import { lookupKeys } from '../handles/normalize.js';
import { ingestGaps } from '../ingest/ingest-gaps.js';
import { supersessionNote, supersessionsOf } from './recall-supersession.js';
import type { Supersession } from './recall-supersession.js';
import { externalRecordsWithStoredOriginals } from './stored-originals.js';
import { isSpanIdPrefix, MIN_SPAN_ID_PREFIX_HEX, SHORT_SPAN_ID_HEX, verifySpan } from '../model/span.js';
import type { LedgerStore } from '../stores/store.js';
import { quotedSourceOf } from '../text/source-notes.js';
import type { CompactionRecord, Handle, QuotedSource, Span } from '../types.js';
import { counted } from '../text/wording.js';

/** One thing recall found. */
export interface RecallHit {
  /** Span id. */
  readonly spanId: string;
  /** Sequence number in the session. */
  readonly seq: number;
  /** `verified`: resolved through the handle index (or span id) to a stored span whose hash checks. */
  readonly status: 'verified' | 'unverified';
  /** The span text (an excerpt around the handle when the span is long; the whole span when recalled by span id). */
  readonly text: string;
  /** How it was found. */
  readonly via: 'handle' | 'span-id' | 'record' | 'text' | 'lossy-record';
  /** The handle that matched, when found through the index. */
  readonly handle?: { readonly kind: Handle['kind']; readonly text: string } | undefined;
  /** When the span is a user turn the user did not type: who wrote it (`harness`, `client`). */
  readonly source?: QuotedSource | undefined;
  /** When a later binding of the same label replaced this value: that binding's handle, span and seq. */
  readonly supersededBy?: Supersession | undefined;
}

/** `{ source }` for a span of a quoted source, `{}` otherwise. */
function hitSource(span: Span): { source?: QuotedSource } {
  const source = quotedSourceOf(span.kind);
  return source === undefined ? {} : { source };
}

/** What recall returns. */
export interface RecallResult {
  /** The query as given. */
  readonly query: string;
  /**
   * `verified` if anything verified was found; else `gap` when a lossy record may have dropped it (an external summary
   * whose originals are all stored and check drops nothing: a miss behind it is a miss); else `unverified` (with no
   * results: never said, the note naming the closest stored handles).
   */
  readonly status: 'verified' | 'unverified' | 'gap';
  /** Hits, verified first, then by seq. */
  readonly results: readonly RecallHit[];
  /** The gap, when status is `gap`. */
  readonly gap: Gap | null;
  /** A sentence for the model explaining the status. */
  readonly note: string;
  /** Pass as `cursor` (same query) for the next page of hits; absent on the last page. */
  readonly nextCursor?: string | undefined;
  /** How many matches the query has in all pages (handles under its keys, occurrences, carried handles), when known. */
  readonly total?: number | undefined;
  /** When it was never said: the stored handles closest to the query (also named in the note). */
  readonly closest?: readonly ClosestHandle[] | undefined;
}

/** Inputs of recall. */
export interface RecallContext {
  readonly store: LedgerStore;
  readonly sessionId: string;
  readonly records: readonly CompactionRecord[];
  /** Maximum hits (default 10). */
  readonly limit?: number | undefined;
  /** Where to start: the `nextCursor` of the previous page of the same query. */
  readonly cursor?: string | undefined;
}

const EXCERPT = 600;

function excerpt(text: string, start = 0, end = 0): string {
  if (text.length <= EXCERPT * 2) return text;
  const from = Math.max(0, start - EXCERPT / 2);
  const to = Math.min(text.length, Math.max(end, start) + EXCERPT / 2);
  return (from > 0 ? '…' : '') + text.slice(from, to) + (to < text.length ? '…' : '');
}

/** Hits of one page, and where the next page starts. */
interface HitPage {
  readonly hits: RecallHit[];
  /** Cursor position of the next page (a seq for handles, an offset for a record's handles). */
  readonly next?: number | undefined;
  /** Handles under the query's keys in the whole session, when the store counts them. */
  readonly total?: number | undefined;
}

async function byHandles(context: RecallContext, query: string, fromSeq: number, limit: number): Promise<HitPage> {
  const { store, sessionId } = context;
  const page = await handlePage(store, sessionId, lookupKeys(query), fromSeq, limit);
  const { handles } = page;
  const spans = new Map(
    (await store.spans(sessionId, [...new Set(handles.map((handle) => handle.spanId))])).map((span) => [span.id, span]),
  );
  const hits = handles.flatMap((handle): RecallHit[] => {
    const span = spans.get(handle.spanId);
    if (span === undefined) return [];
    const status =
      verifySpan(span) && span.text.slice(handle.start, handle.end) === handle.text ? 'verified' : 'unverified';
    return [
      {
        spanId: span.id,
        seq: handle.seq,
        status,
        text: excerpt(span.text, handle.start, handle.end),
        via: 'handle',
        handle: { kind: handle.kind, text: handle.text },
        ...hitSource(span),
      },
    ];
  });
  return { hits, next: page.nextSeq, total: page.total };
}

async function bySpanId(context: RecallContext, query: string, from: number, limit: number): Promise<HitPage> {
  const occurrences = await context.store.occurrencesOf(context.sessionId, query);
  const hits = occurrences.slice(from, from + limit).map((occurrence): RecallHit => ({
    spanId: occurrence.spanId,
    seq: occurrence.seq,
    status: verifySpan(occurrence.span) ? 'verified' : 'unverified',
    text: occurrence.span.text,
    via: 'span-id',
    ...hitSource(occurrence.span),
  }));
  const next = from + limit < occurrences.length ? from + limit : undefined;
  return { hits, next, total: occurrences.length };
}

/** Seqs read per page while resolving a span-id prefix. */
const PREFIX_PAGE_SEQS = 5000;

/**
 * The one span id of the session that starts with `prefix` (a masked stub shows a short id), or
 * undefined when none does. Reads the session's occurrences page by page (a prefix query is rare;
 * whole ids and handles go through the indexes). Two or more ids with the prefix: InvalidInputError
 * naming them, so the caller retries with a longer prefix.
 */
export async function resolveSpanIdPrefix(context: RecallContext, prefix: string): Promise<string | undefined> {
  const { store, sessionId } = context;
  const next = await store.nextSeq(sessionId);
  const found = new Set<string>();
  for (let fromSeq = 0; fromSeq < next; fromSeq += PREFIX_PAGE_SEQS) {
    const page = await store.occurrences(sessionId, { fromSeq, toSeq: Math.min(next, fromSeq + PREFIX_PAGE_SEQS) - 1 });
    for (const occurrence of page) if (occurrence.spanId.startsWith(prefix)) found.add(occurrence.spanId);
  }
  if (found.size > 1) {
    const ids = [...found].sort();
    throw new InvalidInputError(
      `Session ${sessionId}: span id prefix ${prefix} is ambiguous: ${ids.length} spans start with it (${ids
        .slice(0, 3)
        .join(', ')}${ids.length > 3 ? ', …' : ''}). Recall with a longer prefix or the whole span id.`,
      { sessionId, prefix, spanIds: ids },
    );
  }
  return [...found][0];
}

async function byRecord(
  context: RecallContext,
  record: CompactionRecord,
  from: number,
  limit: number,
): Promise<HitPage> {
  const shown = record.handles.slice(from, from + limit);
  const spans = new Map<string, Span>(
    (await context.store.spans(context.sessionId, [...new Set(shown.map((handle) => handle.spanId))])).map((span) => [
      span.id,
      span,
    ]),
  );
  const hits = shown.map((handle): RecallHit => {
    const span = spans.get(handle.spanId);
    // A carried handle is verified by its stored span, whatever the record's summary lost (a lossy record's
    // findings are about its summary; the handles it carries are copies of stored text, or unresolved).
    const ok = span !== undefined && verifySpan(span) && span.text.slice(handle.start, handle.end) === handle.text;
    return {
      spanId: handle.spanId,
      seq: handle.seq,
      status: ok ? 'verified' : 'unverified',
      text: `${handle.kind}: ${handle.text}`,
      via: 'record',
      handle: { kind: handle.kind, text: handle.text },
    };
  });
  const next = from + limit < record.handles.length ? from + limit : undefined;
  return { hits, next, total: record.handles.length };
}

/** Handles a lossy record holds that match but cannot be resolved to a stored span: unverified. */
function byLossyRecords(context: RecallContext, keys: ReadonlySet<string>): RecallHit[] {
  return context.records
    .filter((record) => !record.reversible)
    .flatMap((record) =>
      record.handles
        .filter((handle) => keys.has(handle.key))
        .map((handle) => ({
          spanId: handle.spanId,
          seq: handle.seq,
          status: 'unverified' as const,
          text: record.claims.find((claim) => claim.text.includes(handle.text))?.text ?? handle.text,
          via: 'lossy-record' as const,
          handle: { kind: handle.kind, text: handle.text },
        })),
    );
}

function chooseGap(records: readonly CompactionRecord[], query: string): Gap | null {
  const lossy = records.filter((record) => gapOf(record) !== undefined);
  const named = lossy.find((record) =>
    record.findings.some((finding) => finding.token === query || finding.message.includes(JSON.stringify(query))),
  );
  const unstored = lossy.find((record) => record.findings.some((finding) => finding.code === 'missing-originals'));
  const chosen = named ?? unstored ?? lossy[lossy.length - 1];
  return chosen ? (gapOf(chosen) ?? null) : null;
}

/** The page of hits from `from` on: by record id, span id (or prefix), else through the handle index. */
async function pageOf(context: RecallContext, query: string, from: number, limit: number): Promise<HitPage> {
  const record = context.records.find((candidate) => candidate.id === query);
  if (record?.type === 'checkpoint')
    return byRecord(context, mergedCheckpoint(context.records, record.id) ?? record, from, limit);
  if (record) return byRecord(context, record, from, limit);
  if (/^sha256:[0-9a-f]{64}$/.test(query)) return bySpanId(context, query, from, limit);
  if (/^sha256:[0-9a-f]{0,3}$/.test(query))
    throw new InvalidInputError(
      `Session ${context.sessionId}: span id prefix ${JSON.stringify(query)} is too short to name a span: ` +
        `give at least ${MIN_SPAN_ID_PREFIX_HEX} hex digits after sha256: (a masked stub shows ${SHORT_SPAN_ID_HEX}).`,
      { sessionId: context.sessionId, prefix: query },
    );
  if (isSpanIdPrefix(query)) {
    const spanId = await resolveSpanIdPrefix(context, query);
    if (spanId !== undefined) return bySpanId(context, spanId, from, limit);
  }
  return byHandles(context, query, from, limit);
}

/**
 * Recall by handle, span id, record id or free text. Queries go to the handle index first;
 * prose search and lossy records only ever yield `unverified` hits; when nothing verified
 * is found and a record is lossy, the result is a `gap` naming the record and its range,
 * unless the record is an external summary whose originals are all stored and check (then
 * it was never said). A verified value a later binding replaced names what superseded it.
 * Recall never writes anything.
 */
export async function recall(context: RecallContext, rawQuery: string): Promise<RecallResult> {
  const query = rawQuery.trim();
  if (query.length === 0)
    throw new InvalidInputError(
      `Session ${context.sessionId}: recall needs a non-empty query (a handle, a span id, a record id, or text)`,
      { sessionId: context.sessionId },
    );
  const limit = context.limit ?? 10;
  const from = readPageCursor('recall', context.cursor, 1)?.[0] ?? 0;
  const page = await pageOf(context, query, from, limit);
  const { hits } = page;
  const verified = hits.filter((hit) => hit.status === 'verified');
  if (verified.length > 0) return verifiedResult(context, query, page, verified, { from, limit });
  return missResult(context, query, await unverifiedHits(context, query, hits, limit));
}

/** The answer when the page holds verified hits: them, what superseded each, and the cursor of the next page. */
async function verifiedResult(
  context: RecallContext,
  query: string,
  page: HitPage,
  verified: readonly RecallHit[],
  paging: { readonly from: number; readonly limit: number },
): Promise<RecallResult> {
  const { from, limit } = paging;
  const shown = verified.slice(0, limit);
  const supersessions = await supersessionsOf(context.store, context.sessionId, shown);
  const nextCursor = page.next === undefined ? undefined : pageCursor('recall', [page.next]);
  const more =
    nextCursor === undefined
      ? ''
      : ` More remain${page.total === undefined ? '' : ` (${page.total} matches in all)`}: ` +
        `pass cursor ${JSON.stringify(nextCursor)} for the next page.`;
  return {
    query,
    status: 'verified',
    results: shown.map((hit) => {
      const supersededBy = supersessions.get(hit);
      return supersededBy ? { ...hit, supersededBy } : hit;
    }),
    gap: null,
    note:
      `Found verbatim in the ledger (${counted(verified.length, 'verified hit')}${from > 0 ? ' on this page' : ''}).` +
      `${supersessionNote(supersessions)}${more}`,
    ...(nextCursor === undefined ? {} : { nextCursor }),
    ...(page.total === undefined ? {} : { total: page.total }),
  };
}

/** Hits that are context only: unverified handle hits, a lossy record's unresolved handles, free-text matches. */
async function unverifiedHits(
  context: RecallContext,
  query: string,
  hits: readonly RecallHit[],
  limit: number,
): Promise<RecallHit[]> {
  const keys = new Set(lookupKeys(query));
  const textHits = await context.store.searchText(context.sessionId, query, limit);
  const spans = new Map(
    (await context.store.spans(context.sessionId, [...new Set(textHits.map((hit) => hit.spanId))])).map((span) => [
      span.id,
      span,
    ]),
  );
  return [
    ...hits,
    ...byLossyRecords(context, keys),
    ...textHits.flatMap((hit): RecallHit[] => {
      const span = spans.get(hit.spanId);
      if (!span) return [];
      const at = span.text.indexOf(query);
      return [
        {
          spanId: hit.spanId,
          seq: hit.seq,
          status: 'unverified',
          text: excerpt(span.text, Math.max(0, at), Math.max(0, at) + query.length),
          via: 'text',
          ...hitSource(span),
        },
      ];
    }),
  ].slice(0, limit);
}

/** The answer when nothing verified was found: a gap where something may be lost, else unverified or never said. */
async function missResult(context: RecallContext, query: string, unverified: RecallHit[]): Promise<RecallResult> {
  // A lossy record is a gap unless it is an external summary whose originals are all stored and check: behind that
  // one, a miss is a miss (invariant 8), and pointing the model at a gap it cannot close sends it in a circle.
  const covered = await externalRecordsWithStoredOriginals(context.store, context.sessionId, context.records);
  const open = context.records.filter((record) => !covered.has(record.id));
  if (gapsOf(open).length > 0) {
    const gap = chooseGap(open, query);
    return {
      query,
      status: 'gap',
      results: unverified,
      gap,
      note: lossyGapNote(gap),
    };
  }
  // Lines the ledger could not ingest may have held it: that is a gap, never "never said".
  const skippedLines = await ingestGaps(context.store, context.sessionId);
  const skipped = skippedLines[skippedLines.length - 1];
  if (skipped) {
    return {
      query,
      status: 'gap',
      results: unverified,
      gap: skipped,
      note:
        `Not resolvable through the handle index, and ${skippedLines.length} transcript line(s) of this session could not be ` +
        `ingested (the latest: ${skipped.reasons[0] ?? '?'}): treat this as a known gap; ${skipped.reread}. ` +
        'Any results shown are unverified context, not memory.',
    };
  }
  if (unverified.length > 0)
    return {
      query,
      status: 'unverified',
      results: unverified,
      gap: null,
      note: 'No handle matched; these free-text matches are unverified context.',
    };
  const closest = await closestHandles(context.store, context.sessionId, query);
  return {
    query,
    status: 'unverified',
    results: [],
    gap: null,
    note: neverSaidNote(context.records, covered, closest),
    closest,
  };
}
