/**
 * The one shape every backend of this package is built in: a `LedgerStore` is four parts over a context the backend
 * owns (its connection and the caches its parts share), put together by `composeStore`.
 * - sessions: open, get and list sessions;
 * - spans: append spans with their handles, and read spans and occurrences back;
 * - search: handles by key or seq range, and free text;
 * - records: write records and read them back.
 * Each part holds the caches only it uses; a cache two parts read lives in the backend's context.
 */
import { LEDGER_STORE_SPECIFICATION_VERSION, type LedgerStore } from './store.js';

/** Opening, reading and listing sessions. */
export type SessionPart = Pick<LedgerStore, 'openSession' | 'getSession' | 'listSessions'>;

/** Appending spans (with their handles) and reading spans and occurrences. */
export type SpanPart = Pick<LedgerStore, 'append' | 'nextSeq' | 'occurrences' | 'occurrencesOf' | 'spans'>;

/** Reading handles and searching text. */
export type SearchPart = Required<
  Pick<LedgerStore, 'findHandles' | 'countHandles' | 'handles' | 'handleIdentities' | 'searchText'>
>;

/** Writing and reading compaction records. */
export type RecordPart = Required<
  Pick<LedgerStore, 'writeRecord' | 'records' | 'recordCount' | 'record' | 'chainHandleIdentities'>
>;

/** What `composeStore` puts together. */
export interface StoreParts {
  /** Backend name (`LedgerStore.kind`). */
  readonly kind: string;
  /** Where the store lives (`LedgerStore.location`). */
  readonly location: string;
  readonly sessions: SessionPart;
  readonly spans: SpanPart;
  readonly search: SearchPart;
  readonly records: RecordPart;
  /** Commit what the context holds in an open group (`LedgerStore.flush`), when it groups writes. */
  flush?(): Promise<void>;
  /** Release the context's resources. */
  close(): Promise<void>;
}

/** The `LedgerStore` whose methods are those of `parts` (a plain object: every method its own property). */
export function composeStore(parts: StoreParts): LedgerStore {
  const { sessions, spans, search, records } = parts;
  return {
    specificationVersion: LEDGER_STORE_SPECIFICATION_VERSION,
    kind: parts.kind,
    location: parts.location,
    openSession: (sessionId, options) => sessions.openSession(sessionId, options),
    getSession: (sessionId) => sessions.getSession(sessionId),
    listSessions: (options) => sessions.listSessions(options),
    append: (sessionId, expectedNextSeq, entries) => spans.append(sessionId, expectedNextSeq, entries),
    nextSeq: (sessionId) => spans.nextSeq(sessionId),
    occurrences: (sessionId, range) => spans.occurrences(sessionId, range),
    occurrencesOf: (sessionId, spanId) => spans.occurrencesOf(sessionId, spanId),
    spans: (sessionId, ids) => spans.spans(sessionId, ids),
    findHandles: (sessionId, key, page) => search.findHandles(sessionId, key, page),
    countHandles: (sessionId, key) => search.countHandles(sessionId, key),
    handles: (sessionId, range) => search.handles(sessionId, range),
    handleIdentities: (sessionId, range) => search.handleIdentities(sessionId, range),
    searchText: (sessionId, query, limit) => search.searchText(sessionId, query, limit),
    writeRecord: (record) => records.writeRecord(record),
    records: (sessionId) => records.records(sessionId),
    recordCount: (sessionId) => records.recordCount(sessionId),
    record: (sessionId, recordId) => records.record(sessionId, recordId),
    chainHandleIdentities: (sessionId, headId) => records.chainHandleIdentities(sessionId, headId),
    flush: () => (parts.flush === undefined ? Promise.resolve() : parts.flush()),
    close: () => parts.close(),
  };
}
