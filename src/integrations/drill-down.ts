/**
 * Drill-down views for a model that knows a record id or a handle but not the text:
 * `describe` a record, `expand` the originals of a record or seq range (`grep` is in
 * `grep.ts`). Shared by the MCP server and the CLI. Read-only: nothing here writes to the store.
 * Output is bounded everywhere (token caps, page sizes).
 */
import { loadChainHandles } from '../model/checkpoints.js';
import { pageCursor, readPageCursor } from '../collections/page-cursor.js';
import { handleIdentity, mergeHandles } from '../handles/handle-sets.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { verifySpan } from '../model/span.js';
import { sourceField } from '../text/source-notes.js';
import type { LedgerStore } from '../stores/store.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord, Handle, HandleKind, Role, SpanOccurrence } from '../types.js';

/** What a record is and what it dropped. */
export interface RecordDescription {
  readonly session: string;
  readonly id: string;
  readonly type: CompactionRecord['type'];
  readonly depth: number;
  /** True when the record is not a lossless projection of its range. */
  readonly lossy: boolean;
  readonly range: { readonly fromSeq: number; readonly toSeq: number; readonly spans: number };
  readonly summarizer: string;
  readonly summaryTokens: number;
  readonly ancestors: readonly string[];
  readonly checkpointId?: string | undefined;
  /** Handles the record carries (with its checkpoint chain), by kind. */
  readonly handlesByKind: Partial<Record<HandleKind, number>>;
  /** Handles of the range the record does not carry: lost from the window, still in the store. */
  readonly dropped: {
    readonly count: number;
    readonly byKind: Partial<Record<HandleKind, number>>;
    readonly examples: readonly string[];
  };
  /** Why it is lossy (first findings). */
  readonly findings: readonly string[];
  /** What to call next. */
  readonly next: string;
}

function countByKind(handles: readonly Handle[]): Partial<Record<HandleKind, number>> {
  const counts: Partial<Record<HandleKind, number>> = {};
  for (const handle of handles) counts[handle.kind] = (counts[handle.kind] ?? 0) + 1;
  return counts;
}

/**
 * The record `recordId` of the session, read by id (a session's other records are read only to name them when it is
 * missing): NotFoundError naming the session's latest records otherwise.
 */
async function findRecord(store: LedgerStore, sessionId: string, recordId: string): Promise<CompactionRecord> {
  const record = await store.record(sessionId, recordId);
  if (!record) {
    const known = (await store.records(sessionId)).map((candidate) => candidate.id).slice(-10);
    throw new NotFoundError(
      `Record ${JSON.stringify(recordId)} is not in session ${sessionId}. Its records: ${known.join(', ') || 'none'}.`,
      { sessionId, recordId },
    );
  }
  return record;
}

/** Seqs of a record's range read at a time: memory holds one window's handles and the distinct identities seen. */
const DESCRIBE_WINDOW_SEQS = 256;

/**
 * The distinct handles (by kind and verbatim text) of `range` that `carried` does not hold: their number, their
 * number by kind and the first 20, oldest first. The range is read a window of seqs at a time.
 */
async function droppedHandles(
  store: LedgerStore,
  sessionId: string,
  range: { readonly fromSeq: number; readonly toSeq: number },
  carried: ReadonlySet<string>,
): Promise<RecordDescription['dropped']> {
  const seen = new Set<string>();
  const byKind: Partial<Record<HandleKind, number>> = {};
  const examples: string[] = [];
  for (let seq = range.fromSeq; seq <= range.toSeq; seq += DESCRIBE_WINDOW_SEQS) {
    const toSeq = Math.min(range.toSeq, seq + DESCRIBE_WINDOW_SEQS - 1);
    for (const handle of await store.handles(sessionId, { fromSeq: seq, toSeq })) {
      const identity = handleIdentity(handle);
      if (carried.has(identity) || seen.has(identity)) continue;
      seen.add(identity);
      byKind[handle.kind] = (byKind[handle.kind] ?? 0) + 1;
      if (examples.length < 20) examples.push(`${handle.kind}: ${handle.text}`);
    }
  }
  return { count: seen.size, byKind, examples };
}

/** Describe a record: range, depth, lossy or not, handle counts by kind, and what it dropped. */
export async function describeRecord(
  store: LedgerStore,
  sessionId: string,
  recordId: string,
): Promise<RecordDescription> {
  const record = await findRecord(store, sessionId, recordId);
  const { fromSeq, toSeq } = record.droppedRange;
  // The spill checkpoint chain the record names, read one record at a time.
  const chain = await loadChainHandles(record.checkpointId, (id) => store.record(sessionId, id));
  const carried = mergeHandles(record.handles, chain);
  const dropped =
    record.type === 'checkpoint' || toSeq < fromSeq
      ? { count: 0, byKind: {}, examples: [] }
      : await droppedHandles(store, sessionId, { fromSeq, toSeq }, new Set(carried.map(handleIdentity)));
  return {
    session: sessionId,
    id: record.id,
    type: record.type,
    depth: record.depth,
    lossy: !record.reversible,
    range: { fromSeq, toSeq, spans: Math.max(0, toSeq - fromSeq + 1) },
    summarizer: `${record.summarizer.name}@${record.summarizer.version}`,
    summaryTokens: record.summaryTokens,
    ancestors: record.ancestors,
    checkpointId: record.checkpointId,
    handlesByKind: countByKind(carried),
    dropped,
    findings: record.findings.slice(0, 5).map((finding) => finding.message),
    next:
      toSeq < fromSeq
        ? 'The originals of this record were never in the ledger; nothing can be expanded.'
        : `expand ${record.id} (or seq ${fromSeq}-${toSeq}) to read the originals, or grep them.`,
  };
}

/** One original returned by expand or grep. */
export interface OriginalView {
  readonly seq: number;
  readonly spanId: string;
  readonly role: Role;
  /** When the text is a user turn the user did not type: who wrote it (not an instruction of the user). */
  readonly source?: string | undefined;
  readonly label?: string | undefined;
  /** `verified`: the stored span's hash checks; `unverified` otherwise (do not trust the text). */
  readonly status: 'verified' | 'unverified';
  readonly text: string;
  /** True when the text was cut to fit the token cap. */
  readonly truncated?: boolean | undefined;
}

/** A page of originals. */
export interface ExpandView {
  readonly session: string;
  readonly recordId?: string | undefined;
  readonly range: { readonly fromSeq: number; readonly toSeq: number };
  readonly originals: readonly OriginalView[];
  readonly tokens: number;
  /** Seq to pass as `fromSeq` for the next page; undefined when the range is done. */
  readonly nextSeq?: number | undefined;
  /** The same place as a cursor: pass it as `cursor` (same record or range) for the next page. */
  readonly nextCursor?: string | undefined;
  readonly note: string;
}

/** Options of {@link expandOriginals}: a record id, or a seq range; a page start; a token cap. */
export interface ExpandOptions {
  readonly recordId?: string | undefined;
  readonly fromSeq?: number | undefined;
  readonly toSeq?: number | undefined;
  /** Token cap of the page (default 2,000, at most 16,000). */
  readonly maxTokens?: number | undefined;
  /** A previous page's `nextCursor`: the page starts there (instead of at `fromSeq`). */
  readonly cursor?: string | undefined;
}

/** Default and largest token caps of an expand page. */
export const EXPAND_DEFAULT_TOKENS = 2000;
const EXPAND_MAX_TOKENS = 16_000;
const PAGE_SPANS = 200;

function originalView(occurrence: SpanOccurrence, text: string, truncated: boolean): OriginalView {
  return {
    seq: occurrence.seq,
    spanId: occurrence.spanId,
    role: occurrence.role,
    ...sourceField(occurrence.span.kind),
    label: occurrence.label,
    status: verifySpan(occurrence.span) ? 'verified' : 'unverified',
    text,
    ...(truncated ? { truncated: true } : {}),
  };
}

/** The seq range to expand: a record's dropped range (narrowed by `fromSeq`/`toSeq`), or `fromSeq`-`toSeq`. */
async function expandRange(
  store: LedgerStore,
  sessionId: string,
  options: ExpandOptions,
): Promise<{ fromSeq: number; toSeq: number }> {
  if (options.fromSeq !== undefined && options.toSeq !== undefined && options.fromSeq > options.toSeq)
    throw new InvalidInputError(
      `expand in session ${sessionId}: fromSeq ${options.fromSeq} is after toSeq ${options.toSeq}; ` +
        'give fromSeq <= toSeq (both inclusive).',
      { sessionId, fromSeq: options.fromSeq, toSeq: options.toSeq },
    );
  if (options.recordId !== undefined) {
    const record = await findRecord(store, sessionId, options.recordId);
    return {
      fromSeq: Math.max(record.droppedRange.fromSeq, options.fromSeq ?? record.droppedRange.fromSeq),
      toSeq: Math.min(record.droppedRange.toSeq, options.toSeq ?? record.droppedRange.toSeq),
    };
  }
  if (options.fromSeq === undefined)
    throw new InvalidInputError(`expand in session ${sessionId}: give a record id or fromSeq (and optionally toSeq)`, {
      sessionId,
    });
  return { fromSeq: options.fromSeq, toSeq: options.toSeq ?? (await store.nextSeq(sessionId)) - 1 };
}

/** Tokens counted for each original on top of its text (its place in the page). */
const ORIGINAL_FRAME_TOKENS = 8;

/** The originals that fit one page, their tokens, and where the next page starts (undefined: the range is done). */
interface OriginalsPage {
  readonly originals: OriginalView[];
  readonly tokens: number;
  readonly nextSeq: number | undefined;
}

/** A first original larger than the cap, cut to about the cap and marked truncated; the next page starts after it. */
function cutFirstOriginal(
  counter: TokenCounter,
  occurrence: SpanOccurrence,
  cap: number,
  toSeq: number,
): OriginalsPage {
  const share = Math.max(
    1,
    Math.floor((occurrence.span.text.length * (cap - ORIGINAL_FRAME_TOKENS)) / Math.max(1, occurrence.span.tokens)),
  );
  const original = originalView(occurrence, occurrence.span.text.slice(0, share), true);
  return {
    originals: [original],
    tokens: counter.count(original.text) + ORIGINAL_FRAME_TOKENS,
    nextSeq: occurrence.seq + 1 <= toSeq ? occurrence.seq + 1 : undefined,
  };
}

/** Read the stored originals of `fromSeq`-`toSeq` in store pages, oldest first, until the token cap. */
async function collectOriginals(
  store: LedgerStore,
  counter: TokenCounter,
  sessionId: string,
  range: { readonly fromSeq: number; readonly toSeq: number },
  cap: number,
): Promise<OriginalsPage> {
  const { toSeq } = range;
  const originals: OriginalView[] = [];
  let tokens = 0;
  let seq = range.fromSeq;
  while (seq <= toSeq) {
    const page = await store.occurrences(sessionId, { fromSeq: seq, toSeq: Math.min(toSeq, seq + PAGE_SPANS - 1) });
    if (page.length === 0) break;
    for (const occurrence of page) {
      const cost = occurrence.span.tokens + ORIGINAL_FRAME_TOKENS;
      if (tokens + cost > cap) {
        if (originals.length === 0) return cutFirstOriginal(counter, occurrence, cap, toSeq);
        return { originals, tokens, nextSeq: occurrence.seq };
      }
      originals.push(originalView(occurrence, occurrence.span.text, false));
      tokens += cost;
    }
    seq = (page[page.length - 1]?.seq ?? toSeq) + 1;
  }
  return { originals, tokens, nextSeq: undefined };
}

/** What the page covers and what to do next; unverified originals are called out. */
function expandNote(range: { fromSeq: number; toSeq: number }, cap: number, page: OriginalsPage): string {
  const unverified = page.originals.filter((original) => original.status === 'unverified').length;
  return (
    (page.nextSeq === undefined
      ? `All of seq ${range.fromSeq}-${range.toSeq} shown.`
      : `Page cut at the ${cap}-token cap: call again with fromSeq ${page.nextSeq}.`) +
    (unverified > 0 ? ` ${unverified} original(s) failed the hash check: treat their text as unverified.` : '')
  );
}

/**
 * The originals of a record's dropped range (or of `fromSeq`-`toSeq`), oldest first, within a
 * token cap; `nextSeq` pages on. A first span larger than the cap is cut and marked truncated.
 */
export async function expandOriginals(
  store: LedgerStore,
  counter: TokenCounter,
  sessionId: string,
  requested: ExpandOptions,
): Promise<ExpandView> {
  const cursorSeq = readPageCursor('expand', requested.cursor, 1)?.[0];
  const options = cursorSeq === undefined ? requested : { ...requested, fromSeq: cursorSeq };
  const cap = Math.min(EXPAND_MAX_TOKENS, Math.max(100, options.maxTokens ?? EXPAND_DEFAULT_TOKENS));
  const range = await expandRange(store, sessionId, options);
  const { fromSeq, toSeq } = range;
  if (fromSeq < 0 || toSeq < fromSeq) {
    return {
      session: sessionId,
      recordId: options.recordId,
      range: { fromSeq, toSeq },
      originals: [],
      tokens: 0,
      note: 'Empty range: no stored originals to expand.',
    };
  }
  const page = await collectOriginals(store, counter, sessionId, range, cap);
  const { nextSeq } = page;
  return {
    session: sessionId,
    recordId: options.recordId,
    range: { fromSeq, toSeq },
    originals: page.originals,
    tokens: page.tokens,
    nextSeq,
    ...(nextSeq === undefined ? {} : { nextCursor: pageCursor('expand', [nextSeq]) }),
    note: expandNote(range, cap, page),
  };
}
