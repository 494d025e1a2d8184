/**
 * Input checks and value builders shared by every `LedgerStore` backend, so that memory,
 * SQLite and PostgreSQL reject the same inputs with the same errors and return the same shapes.
 */
import { createHash } from 'node:crypto';
import { ImmutableSpanError, InvalidInputError, TenantMismatchError, type LedgerError } from '../errors.js';
import { expectedRecordId } from '../model/record-id.js';
import { recordCopy } from '../model/record-json.js';
import { checkSupersededField } from '../model/record-supersession.js';
import { BoundedMemo } from '../collections/bounded-memo.js';
import { deepFreeze } from '../collections/deep-freeze.js';
import { firstIndexWhere } from '../collections/sorted-search.js';
import { frozenSpan, hasCurrentSpanId, isWellFormedText, sameSpanContent, type SpanContent } from '../model/span.js';
import type { CompactionRecord, Handle, Occurrence, Span, SpanOccurrence } from '../types.js';
import type { AppendEntry } from './store.js';
import { isVouched } from './vouched-records.js';

/** A seq range as accepted by `occurrences` and `handles`. */
export interface SeqRange {
  /** First seq included. */
  readonly fromSeq?: number;
  /** Last seq included. */
  readonly toSeq?: number;
}

/**
 * The page of `findHandles` checked: `fromSeq` and `limit` whole numbers (limit at least 1), defaults filled in
 * (`limit` Infinity when absent). InvalidInputError names the field otherwise.
 */
export function checkHandlePage(
  page: { readonly fromSeq?: number; readonly limit?: number } | undefined,
  context: Record<string, unknown>,
): { fromSeq: number; limit: number } {
  const fromSeq = page?.fromSeq ?? 0;
  const limit = page?.limit ?? Number.POSITIVE_INFINITY;
  checkCount('fromSeq', fromSeq, context);
  if (limit !== Number.POSITIVE_INFINITY && !(isCount(limit) && limit >= 1))
    throw new InvalidInputError(`limit must be a positive integer, got ${String(limit)}; pass a whole number ≥ 1.`, {
      ...context,
      limit,
    });
  return { fromSeq, limit };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Throws `InvalidInputError` unless `value` is a non-empty string. */
export function checkId(what: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidInputError(
      `${what} must be a non-empty string, got ${JSON.stringify(value)}; pass the id as a string.`,
      { [what]: value },
    );
  }
}

/** Throws `InvalidInputError` unless `value` is a non-negative safe integer. */
export function checkCount(
  what: string,
  value: unknown,
  context: Record<string, unknown> = {},
): asserts value is number {
  if (!isCount(value)) {
    throw new InvalidInputError(
      `${what} must be a non-negative integer, got ${String(value)}; pass a whole number ≥ 0.`,
      { ...context, [what]: value },
    );
  }
}

/**
 * Checks an append batch before anything is written: every span's id must be the hash of its
 * content, byte ranges must be ordered, and every handle must point at its own span and be the
 * verbatim text at its offsets (invariant 2: handles are copied byte for byte).
 */
export function checkAppend(sessionId: string, expectedNextSeq: number, entries: readonly AppendEntry[]): void {
  checkId('sessionId', sessionId);
  checkCount('expectedNextSeq', expectedNextSeq, { sessionId });
  if (!Array.isArray(entries)) {
    throw new InvalidInputError(`append to session ${sessionId}: entries must be an array.`, { sessionId });
  }
  entries.forEach((entry, index) => {
    if (typeof entry !== 'object' || entry === null || !Array.isArray(entry.handles)) {
      throw new InvalidInputError(
        `append to session ${sessionId}, entry ${index}: an entry must be an object with a span and a handles array.`,
        { sessionId, index },
      );
    }
    const { span } = entry;
    const where = `append to session ${sessionId}, entry ${index} (span ${span?.id})`;
    if (typeof span !== 'object' || span === null || typeof span.text !== 'string' || !hasCurrentSpanId(span)) {
      throw new InvalidInputError(
        `${where}: the span id is not the SHA-256 of its cl-span-v2 content; build spans with createSpan() and do not edit them.`,
        { sessionId, index, spanId: span?.id },
      );
    }
    for (const [field, value] of [
      ['text', span.text],
      ['toolName', span.toolName],
      ['toolCallId', span.toolCallId],
    ] as const) {
      if (typeof value === 'string' && !isWellFormedText(value)) {
        throw new InvalidInputError(
          `${where}: span field "${field}" contains a lone UTF-16 surrogate, which cannot be stored verbatim; ` +
            'fix the text (e.g. String.prototype.toWellFormed) before appending.',
          { sessionId, index, field },
        );
      }
    }
    checkCount('tokens', span.tokens, { sessionId, index, spanId: span.id });
    checkCount('byteStart', entry.byteStart, { sessionId, index });
    checkCount('byteEnd', entry.byteEnd, { sessionId, index });
    if (entry.byteEnd < entry.byteStart) {
      throw new InvalidInputError(
        `${where}: byteEnd ${entry.byteEnd} is before byteStart ${entry.byteStart}; pass the span's UTF-8 range in the transcript.`,
        { sessionId, index },
      );
    }
    if (entry.chunk !== undefined) {
      checkCount('chunk.index', entry.chunk.index, { sessionId, index });
      checkCount('chunk.count', entry.chunk.count, { sessionId, index });
    }
    for (const handle of entry.handles) {
      if (
        typeof handle !== 'object' ||
        handle === null ||
        typeof handle.text !== 'string' ||
        typeof handle.key !== 'string'
      ) {
        throw new InvalidInputError(`${where}: every handle must be an object with text and key strings.`, {
          sessionId,
          index,
        });
      }
      // The error contexts are built only for a handle that fails (a large turn carries hundreds).
      if (!isCount(handle.start) || !isCount(handle.end)) {
        checkCount('handle.start', handle.start, { sessionId, index, handle: handle.text });
        checkCount('handle.end', handle.end, { sessionId, index, handle: handle.text });
      }
      if (handle.spanId !== span.id || span.text.slice(handle.start, handle.end) !== handle.text) {
        throw new InvalidInputError(
          `${where}: handle ${JSON.stringify(handle.text)} at [${handle.start}, ${handle.end}) ` +
            `is not the verbatim text of span ${span.id} at those offsets (handle spanId ${handle.spanId}); ` +
            'extract handles from this span and keep them byte for byte.',
          { sessionId, index, spanId: span.id, handle: handle.text },
        );
      }
      if (!isCount(handle.tokens))
        checkCount('handle.tokens', handle.tokens, { sessionId, index, handle: handle.text });
    }
  });
}

/**
 * Key of a span's row in a store: the span id for sessions without a tenant, else the span id,
 * `~` and a digest of the tenant. Span rows are thereby per tenant: identical content in two
 * tenants is two rows, so no tenant reads, shadows or learns of another tenant's spans (not even
 * through the first writer's token count). Rows stored before keys were per tenant have the bare
 * span id as key and are still read. `digests` is the calling store's memo of tenant digests (`tenantDigestMemo`);
 * without it the digest is computed afresh (the same key).
 */
export function spanRowKey(spanId: string, tenantId: string | undefined, digests?: TenantDigestMemo): string {
  if (tenantId === undefined) return spanId;
  let digest = digests?.get(tenantId);
  if (digest === undefined) {
    digest = tenantDigest(tenantId);
    digests?.set(tenantId, digest);
  }
  return `${spanId}~${digest}`;
}

/** Row-key digests by tenant, held by one store (hashed once per tenant, not once per span read or written). */
export type TenantDigestMemo = BoundedMemo<string, string>;

/** Tenants whose row-key digest a store remembers (a process serves few; past this the memo starts over). */
const TENANT_DIGESTS_KEPT = 1024;

/** A new, empty memo of tenant digests for one store. */
export function tenantDigestMemo(): TenantDigestMemo {
  return new BoundedMemo(TENANT_DIGESTS_KEPT);
}

/** The row-key digest of a tenant. */
function tenantDigest(tenantId: string): string {
  return createHash('sha256').update(`cl-tenant-v1\n${tenantId}`, 'utf8').digest('hex').slice(0, 32);
}

/** The span id of a row key made by `spanRowKey`. */
export function spanIdOfRowKey(key: string): string {
  const cut = key.indexOf('~');
  return cut === -1 ? key : key.slice(0, cut);
}

/**
 * Throws `ImmutableSpanError` unless the stored row with the span's id holds the same content.
 * A mismatch means the row was changed below the API, or an older version stored two contents
 * under one id; the store never silently reuses such a row for another content.
 */
export function checkSameSpan(
  location: string,
  sessionId: string,
  stored: SpanContent,
  appended: SpanContent & { readonly id: string },
): void {
  if (sameSpanContent(stored, appended)) return;
  const fields = (['kind', 'toolName', 'toolCallId', 'text'] as const).filter(
    (name) => (stored[name] ?? undefined) !== (appended[name] ?? undefined),
  );
  throw new ImmutableSpanError(
    `${location}: append to session ${sessionId}: span ${appended.id} is already stored with other content ` +
      `(${fields.join(', ')} differ); ` +
      'refusing to reuse it. The stored row was changed below the API or written by an older version under an ambiguous id: ' +
      'check the ledger (replay its transcript into a new ledger) before appending again.',
    { sessionId, spanId: appended.id, fields, location },
  );
}

/**
 * The error for opening a session under a tenant other than its own. It names neither the
 * owning tenant nor whether that tenant exists, and reads the same whoever owns the session;
 * an id in use elsewhere cannot be taken over, so the caller learns only "not available".
 */
export function tenantMismatch(
  where: string,
  sessionId: string,
  tenantId: string | undefined,
  context: Record<string, unknown>,
): LedgerError {
  const scope = tenantId === undefined ? 'without a tenant' : `for tenant ${JSON.stringify(tenantId)}`;
  return new TenantMismatchError(
    `${where}: session ${sessionId} is not available ${scope}: no session with this id exists ${scope}, ` +
      'and the id cannot be used there; use another session id.',
    { ...context, sessionId, tenantId },
  );
}

/**
 * Checks a record before it is written and returns its JSON-safe deep copy. A record whose id
 * is content-derived (`rec_`/`chk_`/`ext_` + 24 hex) must hash to it.
 */
export function checkRecord(record: CompactionRecord): CompactionRecord {
  if (typeof record !== 'object' || record === null) {
    throw new InvalidInputError('writeRecord: record must be an object.');
  }
  checkId('record.id', record.id);
  checkId('record.sessionId', record.sessionId);
  checkCount('record.ordinal', record.ordinal, { sessionId: record.sessionId, recordId: record.id });
  checkSupersededField(record, 'writeRecord');
  // Built and hashed by this process, then frozen (`vouched-records.ts`): its own copy, its id already its content's.
  if (isVouched(record)) return record;
  const copy = recordCopy(record);
  const expected = expectedRecordId(copy);
  if (expected !== undefined && expected !== copy.id) {
    throw new InvalidInputError(
      `writeRecord: record ${copy.id} of session ${copy.sessionId} does not match its content (it hashes to ${expected}); ` +
        'build records with recordId() over their content and do not edit them.',
      { sessionId: copy.sessionId, recordId: copy.id, expected },
    );
  }
  return copy;
}

/**
 * A record read back from a store, verified: it must belong to the session it was read from
 * and, when its id is content-derived, hash to that id. A record changed below the API (for
 * instance after `DROP TRIGGER`) is refused with `ImmutableSpanError` naming it, so the session
 * never renders or recalls through tampered history without notice. `handles`, when given, are
 * the carried handles a store keeps apart from the record's JSON (see `record-handles.ts`); they
 * replace the JSON's placeholder before the check, so they are verified the same way. `storedAs`
 * says how a record stored as a delta was rebuilt (named in the error).
 */
export function loadRecord(
  location: string,
  sessionId: string,
  json: string,
  rowId?: string,
  handles?: readonly unknown[],
  storedAs?: string,
): CompactionRecord {
  const parsed = JSON.parse(json) as { handles?: unknown };
  if (handles !== undefined && typeof parsed === 'object' && parsed !== null) parsed.handles = handles;
  const record = deepFreeze(parsed as CompactionRecord);
  const expected = expectedRecordId(record);
  const problem =
    record.sessionId !== sessionId
      ? `it names session ${String(record.sessionId)}`
      : rowId !== undefined && record.id !== rowId
        ? `it is stored under id ${rowId} but names itself ${String(record.id)}`
        : expected !== undefined && expected !== record.id
          ? `its content${storedAs === undefined ? '' : `, rebuilt from ${storedAs},`} hashes to ${expected}`
          : undefined;
  if (problem === undefined) {
    checkSupersededField(record, location);
    return record;
  }
  const id = rowId ?? record.id;
  throw new ImmutableSpanError(
    `${location}: record ${id} of session ${sessionId} was changed after it was written (${problem}); ` +
      'records are immutable, so this ledger was tampered with below the API. ' +
      'Restore the ledger from a backup or replay the transcript into a new ledger; do not trust this record.',
    { location, sessionId, recordId: id, expected },
  );
}

/** True when `seq` lies inside the optional inclusive range. */
export function inRange(seq: number, range: SeqRange | undefined): boolean {
  return (range?.fromSeq === undefined || seq >= range.fromSeq) && (range?.toSeq === undefined || seq <= range.toSeq);
}

/**
 * The items of `sorted` (ordered by `seq`, ascending) whose seq lies inside the optional
 * inclusive range: the same selection as filtering with `inRange`, found by binary search,
 * so the cost follows what is returned rather than everything stored.
 */
export function sliceBySeq<T extends { readonly seq: number }>(sorted: readonly T[], range: SeqRange | undefined): T[] {
  const fromSeq = range?.fromSeq;
  const toSeq = range?.toSeq;
  const start = fromSeq === undefined ? 0 : firstIndex(sorted, (seq) => seq >= fromSeq);
  const end = toSeq === undefined ? sorted.length : firstIndex(sorted, (seq) => !(seq <= toSeq));
  return start < end ? sorted.slice(start, end) : [];
}

/** The first index whose seq satisfies `test` (false then true along `sorted`), or the length when none does. */
function firstIndex<T extends { readonly seq: number }>(sorted: readonly T[], test: (seq: number) => boolean): number {
  return firstIndexWhere(sorted.length, (index) => test((sorted[index] as T).seq));
}

/** A frozen span with the same key set as `createSpan` returns. */
export function buildSpan(span: Span): Span {
  return frozenSpan(span);
}

/** A frozen occurrence joined with its span, with a fixed key set. */
export function buildOccurrence(occurrence: Occurrence, span: Span): SpanOccurrence {
  return Object.freeze({
    sessionId: occurrence.sessionId,
    seq: occurrence.seq,
    spanId: occurrence.spanId,
    role: occurrence.role,
    byteStart: occurrence.byteStart,
    byteEnd: occurrence.byteEnd,
    label: occurrence.label ?? undefined,
    chunk: occurrence.chunk
      ? Object.freeze({ index: occurrence.chunk.index, count: occurrence.chunk.count })
      : undefined,
    span,
  });
}

/** A frozen handle with a fixed key set. */
export function buildHandle(handle: Omit<Handle, 'seq'>, seq: number): Handle {
  return Object.freeze({
    kind: handle.kind,
    text: handle.text,
    key: handle.key,
    start: handle.start,
    end: handle.end,
    spanId: handle.spanId,
    seq,
    role: handle.role,
    tokens: handle.tokens,
  });
}

/** Handles of one entry in store order: by start, ties in the order given (a copy; already ordered, as extracted, it is not sorted). */
export function orderEntryHandles<H extends { readonly start: number }>(handles: readonly H[]): H[] {
  let ordered = true;
  for (let index = 1; index < handles.length && ordered; index += 1)
    ordered = (handles[index - 1] as H).start <= (handles[index] as H).start;
  if (ordered) return handles.slice();
  return handles
    .map((handle, position) => ({ handle, position }))
    .sort((a, b) => a.handle.start - b.handle.start || a.position - b.position)
    .map(({ handle }) => handle);
}

/**
 * Splits a free-text query into terms (on whitespace, duplicates removed). Every backend
 * treats a query as "any of these terms, as case-insensitive substrings".
 */
export function searchTerms(query: string): string[] {
  return [...new Set(query.split(/\s+/u).filter((term) => term.length > 0))];
}
