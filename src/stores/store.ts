import type { CompactionRecord, Handle, SessionInfo, Span, SpanOccurrence } from '../types.js';

/** One span to append, with the handles extracted from it and its place in the transcript. */
export interface AppendEntry {
  /** The span (content-addressed; appending an already stored span only adds an occurrence). */
  readonly span: Span;
  /** Role the span is rendered under. */
  readonly role: SpanOccurrence['role'];
  /** Byte range in the session transcript. */
  readonly byteStart: number;
  /** End of the byte range (exclusive). */
  readonly byteEnd: number;
  /** Optional source label. */
  readonly label?: string | undefined;
  /** Chunk position when a message was split. */
  readonly chunk?: SpanOccurrence['chunk'];
  /** Handles extracted from the span (their `seq` is set by the store to the occurrence's seq). */
  readonly handles: readonly Omit<Handle, 'seq'>[];
}

/** The `LedgerStore` contract version every store of this release implements. */
export const LEDGER_STORE_SPECIFICATION_VERSION = 'v1';

/**
 * A handle's identity within a handle set, its kind and verbatim text (what `handleIdentity` compares), with where it
 * occurs (`seq`, `start`).
 */
export type HandleIdentity = Pick<Handle, 'kind' | 'text' | 'seq' | 'start'>;

/** A free-text hit. */
export interface TextHit {
  /** Sequence number of the occurrence. */
  readonly seq: number;
  /** Span id. */
  readonly spanId: string;
  /** Higher is better; only comparable within one query. */
  readonly score: number;
}

/** A page of one key's handles: those from `fromSeq` on, at most `limit` of them (both optional). */
export interface HandlePage {
  /** First seq included (default 0). */
  readonly fromSeq?: number;
  /** Most handles returned (default: all). A page may end inside a seq: read on with the last seq's next seq. */
  readonly limit?: number;
}

/**
 * Where spans, handles and records live. Every method is scoped to one session: no method
 * returns data of a session other than the one named. Implementations: memory, SQLite,
 * PostgreSQL, or your own; all pass the same conformance suite.
 */
export interface LedgerStore {
  /**
   * Version of this interface's contract the store implements (`v1`); the conformance suite
   * (`test/stores/conformance.ts`) checks it. A later, incompatible contract gets a new version.
   */
  readonly specificationVersion: typeof LEDGER_STORE_SPECIFICATION_VERSION;
  /** Backend name: `memory`, `sqlite`, `postgres`, or any name a third-party store chooses. */
  readonly kind: string;
  /** Human-readable location used in error messages, e.g. `sqlite:/path/ledger.db`. */
  readonly location: string;
  /** Create the session if missing (with its tenant) and return it. A tenant mismatch is an error. */
  openSession(sessionId: string, options?: { tenantId?: string }): Promise<SessionInfo>;
  /** The session, or undefined. */
  getSession(sessionId: string): Promise<SessionInfo | undefined>;
  /** Sessions, optionally of one tenant, ordered by id. */
  listSessions(options?: { tenantId?: string }): Promise<SessionInfo[]>;
  /**
   * Append spans to a session in one transaction. `expectedNextSeq` is the seq the writer
   * believes comes next; when another writer got there first the call fails with
   * `SequenceConflictError` and writes nothing. Returns the occurrences written.
   */
  append(sessionId: string, expectedNextSeq: number, entries: readonly AppendEntry[]): Promise<SpanOccurrence[]>;
  /** Next sequence number of the session (0 when empty). */
  nextSeq(sessionId: string): Promise<number>;
  /** Occurrences joined with spans, ordered by seq, optionally within [fromSeq, toSeq]. */
  occurrences(sessionId: string, range?: { fromSeq?: number; toSeq?: number }): Promise<SpanOccurrence[]>;
  /** Occurrences (joined with spans) of one span in the session, ordered by seq; empty if none. */
  occurrencesOf(sessionId: string, spanId: string): Promise<SpanOccurrence[]>;
  /** Spans by id, only if the session has an occurrence of them; order follows `ids`, missing ids are skipped. */
  spans(sessionId: string, ids: readonly string[]): Promise<Span[]>;
  /**
   * Handles of the session whose normalized key equals `key`, ordered by seq then start; with `page`, only those from
   * `page.fromSeq` on and at most `page.limit` of them, so a key mentioned 200,000 times is read a page at a time.
   * (A store written before `page` existed may ignore it: callers cut the result to the page themselves.)
   */
  findHandles(sessionId: string, key: string, page?: HandlePage): Promise<Handle[]>;
  /** Number of handles of the session under `key` (optional: callers without it say only that more remain). */
  countHandles?(sessionId: string, key: string): Promise<number>;
  /** All handles of the session, ordered by seq then start, optionally within [fromSeq, toSeq]. */
  handles(sessionId: string, range?: { fromSeq?: number; toSeq?: number }): Promise<Handle[]>;
  /**
   * The identities of `handles(sessionId, range)`, in the same order (optional): a range read that builds no `Handle`.
   * Callers without it map `handles` themselves.
   */
  handleIdentities?(sessionId: string, range?: { fromSeq?: number; toSeq?: number }): Promise<HandleIdentity[]>;
  /** Free-text search over the session's spans, best first, ties by seq. */
  searchText(sessionId: string, query: string, limit: number): Promise<TextHit[]>;
  /** Write one record in one transaction; fails if the id exists or the ordinal is taken. */
  writeRecord(record: CompactionRecord): Promise<void>;
  /** Records of the session ordered by ordinal. */
  records(sessionId: string): Promise<CompactionRecord[]>;
  /**
   * Number of records of the session (optional). Records are append-only, so an unchanged count means unchanged
   * records: a reader keeps the records it read until the count moves.
   */
  recordCount?(sessionId: string): Promise<number>;
  /** One record of the session by id. */
  record(sessionId: string, recordId: string): Promise<CompactionRecord | undefined>;
  /**
   * The distinct identities of the handles carried by the spill checkpoint chain from `headId` (optional), each at its
   * earliest place (seq, then start) as `mergeHandles` keeps them, in no set order. The chain is the records `record()`
   * gives from the head through each one's first ancestor, stopping at an id that is missing, not a checkpoint, or met
   * already (as `loadChainHandles` walks it), read in one pass without building the records (nor checking them against
   * their ids: `record()` does that). Callers without it walk `record()`.
   */
  chainHandleIdentities?(sessionId: string, headId: string): Promise<HandleIdentity[]>;
  /**
   * Commit now what the store holds in an open group (optional): a SQLite store opened with `durability: 'batch'`
   * groups its writes; other connections, even in this process, see them and can write only once they are committed.
   * A store that commits every write has nothing to do.
   */
  flush?(): Promise<void>;
  /** Release resources. */
  close(): Promise<void>;
}
