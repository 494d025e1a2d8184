/**
 * Drill-down views for a model that knows a record id or a handle but not the text:
 * `describe` a record, `expand` the originals of a record or seq range (`grep` is in
 * `grep.ts`). Shared by the MCP server and the CLI. Read-only: nothing here writes to the store.
 * Output is bounded everywhere (token caps, page sizes).
 */
import { pageCursor, readPageCursor } from '../collections/page-cursor.js';
import { handleIdentity } from '../handles/handle-sets.js';
import { earlier, readChainIdentities } from '../stores/chain-identities.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { verifySpan } from '../model/span.js';
import { sourceField } from '../text/source-notes.js';
import { isEmptyRange, rangeJson } from '../text/range-wording.js';
import type { HandleIdentity, LedgerStore } from '../stores/store.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord, HandleKind, Role, SpanOccurrence } from '../types.js';

/** What a record is and what it dropped. */
export interface RecordDescription {
  readonly session: string;
  readonly id: string;
  readonly type: CompactionRecord['type'];
  readonly depth: number;
  /** True when the record is not a lossless projection of its range. */
  readonly lossy: boolean;
  /** The range it dropped; null when it covers no stored message (history from before the ledger). */
  readonly range: { readonly fromSeq: number; readonly toSeq: number; readonly spans: number } | null;
  /** Set when `range` is null: what the record covered, and that its originals were never stored. */
  readonly preLedger?: string | undefined;
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

/** The distinct identities of `lists`, each at its earliest place (seq, then start), as `mergeHandles` keeps them. */
function distinctIdentities(...lists: readonly (readonly HandleIdentity[])[]): Map<string, HandleIdentity> {
  const distinct = new Map<string, HandleIdentity>();
  for (const list of lists)
    for (const handle of list) {
      const identity = handleIdentity(handle);
      const known = distinct.get(identity);
      if (known === undefined || earlier(handle, known)) distinct.set(identity, handle);
    }
  return distinct;
}

/**
 * Handles by kind, the kinds in the order of their first handle by seq, start and kind (the order `mergeHandles` sorts
 * a handle set in, so the answer reads as it did when it counted the merged list).
 */
function countByKind(handles: Iterable<HandleIdentity>): Partial<Record<HandleKind, number>> {
  const kinds = new Map<HandleKind, { first: HandleIdentity; count: number }>();
  for (const handle of handles) {
    const known = kinds.get(handle.kind);
    if (known === undefined) kinds.set(handle.kind, { first: handle, count: 1 });
    else kinds.set(handle.kind, { first: earlier(handle, known.first) ? handle : known.first, count: known.count + 1 });
  }
  const counts: Partial<Record<HandleKind, number>> = {};
  const ordered = [...kinds.values()].sort(
    ({ first: a }, { first: b }) => a.seq - b.seq || a.start - b.start || a.kind.localeCompare(b.kind),
  );
  for (const { first, count } of ordered) counts[first.kind] = count;
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
    const window = { fromSeq: seq, toSeq };
    const read = store.handleIdentities
      ? await store.handleIdentities(sessionId, window)
      : await store.handles(sessionId, window);
    for (const handle of read) {
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
  // The record's own handles, then those of the spill checkpoint chain it names.
  const carried = distinctIdentities(record.handles, await readChainIdentities(store, sessionId, record.checkpointId));
  const empty = isEmptyRange(record.droppedRange);
  const dropped =
    record.type === 'checkpoint' || empty
      ? { count: 0, byKind: {}, examples: [] }
      : await droppedHandles(store, sessionId, { fromSeq, toSeq }, new Set(carried.keys()));
  const { range, ...preLedger } = rangeJson({ fromSeq, toSeq, spans: Math.max(0, toSeq - fromSeq + 1) });
  return {
    session: sessionId,
    id: record.id,
    type: record.type,
    depth: record.depth,
    lossy: !record.reversible,
    range,
    ...preLedger,
    summarizer: `${record.summarizer.name}@${record.summarizer.version}`,
    summaryTokens: record.summaryTokens,
    ancestors: record.ancestors,
    checkpointId: record.checkpointId,
    handlesByKind: countByKind(carried.values()),
    dropped,
    findings: record.findings.slice(0, 5).map((finding) => finding.message),
    next: empty
      ? 'Nothing to expand or grep: ask the user or re-read the original source for a detail of it.'
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
  /** The range read; null when it holds no stored message (see `note`, and `preLedger` for such a record). */
  readonly range: { readonly fromSeq: number; readonly toSeq: number } | null;
  /** Set when the record expanded covers no stored message: what it covered, and that nothing of it is stored. */
  readonly preLedger?: string | undefined;
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

/** A range to expand; `empty` says why when it holds no stored message (then `preLedger` for such a record). */
interface ExpandRange {
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly empty?: string | undefined;
  readonly preLedger?: string | undefined;
}

/** The range `options` asked for, with `empty` set when it holds no stored message. */
function checkedRange(
  fromSeq: number,
  toSeq: number,
  what: { readonly record?: CompactionRecord; readonly lastSeq?: number },
): ExpandRange {
  const { record, lastSeq } = what;
  if (record && isEmptyRange(record.droppedRange)) {
    const { preLedger } = rangeJson(record.droppedRange);
    return { fromSeq, toSeq, preLedger, empty: `Nothing to expand: record ${record.id} covers no stored message.` };
  }
  if (toSeq >= fromSeq) return { fromSeq, toSeq };
  const { fromSeq: first, toSeq: last } = record?.droppedRange ?? { fromSeq: 0, toSeq: lastSeq ?? -1 };
  const outside = record ? `record ${record.id} covers seq ${first}-${last}` : `the session's last seq is ${last}`;
  return {
    fromSeq,
    toSeq,
    empty: last < 0 ? 'Nothing to expand: the session holds no message yet.' : `No stored message there: ${outside}.`,
  };
}

/** The seq range to expand: a record's dropped range (narrowed by `fromSeq`/`toSeq`), or `fromSeq`-`toSeq`. */
async function expandRange(store: LedgerStore, sessionId: string, options: ExpandOptions): Promise<ExpandRange> {
  if (options.fromSeq !== undefined && options.toSeq !== undefined && options.fromSeq > options.toSeq)
    throw new InvalidInputError(
      `expand in session ${sessionId}: fromSeq ${options.fromSeq} is after toSeq ${options.toSeq}; ` +
        'give fromSeq <= toSeq (both inclusive).',
      { sessionId, fromSeq: options.fromSeq, toSeq: options.toSeq },
    );
  if (options.recordId !== undefined) {
    const record = await findRecord(store, sessionId, options.recordId);
    const { fromSeq, toSeq } = record.droppedRange;
    return checkedRange(Math.max(fromSeq, options.fromSeq ?? fromSeq), Math.min(toSeq, options.toSeq ?? toSeq), {
      record,
    });
  }
  if (options.fromSeq === undefined)
    throw new InvalidInputError(`expand in session ${sessionId}: give a record id or fromSeq (and optionally toSeq)`, {
      sessionId,
    });
  const lastSeq = (await store.nextSeq(sessionId)) - 1;
  return checkedRange(options.fromSeq, Math.min(options.toSeq ?? lastSeq, lastSeq), { lastSeq });
}

/**
 * Tokens an original costs in the page on top of its text: its fields as JSON (a span id alone is about 40 tokens).
 * Counting them, not a flat guess, keeps a page of many short originals within the cap.
 */
function frameTokens(counter: TokenCounter, original: OriginalView): number {
  return counter.count(`${JSON.stringify({ ...original, text: '' })},`);
}

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
  const frame = frameTokens(counter, originalView(occurrence, '', true));
  const share = Math.max(
    1,
    Math.floor((occurrence.span.text.length * Math.max(1, cap - frame)) / Math.max(1, occurrence.span.tokens)),
  );
  const original = originalView(occurrence, occurrence.span.text.slice(0, share), true);
  return {
    originals: [original],
    tokens: counter.count(original.text) + frame,
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
      const original = originalView(occurrence, occurrence.span.text, false);
      const cost = occurrence.span.tokens + frameTokens(counter, original);
      if (tokens + cost > cap) {
        if (originals.length === 0) return cutFirstOriginal(counter, occurrence, cap, toSeq);
        return { originals, tokens, nextSeq: occurrence.seq };
      }
      originals.push(original);
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
  if (range.empty !== undefined) {
    return {
      session: sessionId,
      recordId: options.recordId,
      range: null,
      ...(range.preLedger === undefined ? {} : { preLedger: range.preLedger }),
      originals: [],
      tokens: 0,
      note: range.empty,
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
