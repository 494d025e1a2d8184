/**
 * Prepared statements of the SQLite store (prepared once per store) and the mapping from
 * rows to the frozen values every store returns.
 */
import type Database from 'better-sqlite3';
import type { Role, SessionInfo, SourceKind, Span, SpanOccurrence } from '../../types.js';
import { buildOccurrence, buildSpan } from '../store-input.js';
import type { CompactHandleRow, CompactHandleValues, HandleSource } from './handle-rows.js';
import { spanIdOfStoredKey } from './span-keys.js';
import type { TextRow } from './like-search.js';
import { SPAN_TEXT, type StoredSpanText } from './span-text.js';
import type { StoredSpanKey } from './span-keys.js';

/** A row of `carried_handles`: a reference to a handle row (`seq`, `position`) or the handle's own JSON. */
export interface CarriedHandleRow {
  id: number;
  seq: number | null;
  position: number | null;
  json: string | null;
}

/** A row of `sessions`. */
export interface SessionRow {
  id: string;
  tenant_id: string | null;
  created_at: string;
}

/** A row of `spans` (the id in its stored form, `span-keys.ts`; the text as `span_text` gives it, `span-text.ts`). */
export interface SpanRow {
  id: StoredSpanKey;
  kind: SourceKind;
  text: string;
  tool_name: string | null;
  tool_call_id: string | null;
  tokens: number;
}

/** A row of `occurrences` joined with its span. */
export interface OccurrenceRow extends Omit<SpanRow, 'id'> {
  session_id: string;
  seq: number;
  span_id: StoredSpanKey;
  role: Role;
  byte_start: number;
  byte_end: number;
  label: string | null;
  chunk_index: number | null;
  chunk_count: number | null;
}

/**
 * A row of `records` as read: the JSON and, from schema version 3 on, the ids of its carried handles; from version 5
 * on, a delta row's base and change instead (see `record-delta.ts`).
 */
export interface RecordRow {
  id: string;
  json: string;
  handle_ids: string | null;
  base_id: string | null;
  delta: Buffer | null;
}

/** The columns of a record row as read. */
const RECORD_COLUMNS = 'id, json, handle_ids, base_id, delta';

type Statement<P extends unknown[], R = unknown> = Database.Statement<P, R>;

const OCCURRENCE_COLUMNS = `o.session_id, o.seq, o.span_id, o.role, o.byte_start, o.byte_end, o.label, o.chunk_index, o.chunk_count,
  s.kind, ${SPAN_TEXT} AS text, s.tool_name, s.tool_call_id, s.tokens`;
const HANDLE_COLUMNS = 'session, seq, position, kind, start, "end", tokens, key_hash, key, role, span_id, text';
/** The columns a handle row is read with (`CompactHandleRow`). */
export const HANDLE_READ_COLUMNS = 'seq, position, kind, start, "end", tokens, key, role, span_id, text';
const HANDLE_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

/**
 * Handle rows one multi-row insert writes at most (`handleInserts`; 12 values a row, 768 in all). An append writes the
 * rows of all its entries in as few statements as this allows, one statement per distinct row count prepared once.
 */
export const HANDLE_BATCH_ROWS = 64;

/** Values of one handle row (`HANDLE_COLUMNS`). */
export const HANDLE_COLUMN_COUNT = 12;

/** The values of one handle row, in `HANDLE_COLUMNS` order. */
export type HandleRowValues = [number, number, number, ...CompactHandleValues];

/** Every statement the store runs, prepared once. */
export function prepareStatements(db: Database.Database) {
  return { ...sessionStatements(db), ...spanStatements(db), ...handleStatements(db), ...recordStatements(db) };
}

/** Sessions and their numbers in `session_keys`. */
function sessionStatements(db: Database.Database) {
  return {
    insertSession: db.prepare('INSERT INTO sessions (id, tenant_id, created_at) VALUES (?, ?, ?)') as Statement<
      [string, string | null, string]
    >,
    session: db.prepare('SELECT id, tenant_id, created_at FROM sessions WHERE id = ?') as Statement<
      [string],
      SessionRow
    >,
    sessions: db.prepare('SELECT id, tenant_id, created_at FROM sessions ORDER BY id') as Statement<[], SessionRow>,
    sessionsOfTenant: db.prepare(
      'SELECT id, tenant_id, created_at FROM sessions WHERE tenant_id = ? ORDER BY id',
    ) as Statement<[string], SessionRow>,
    sessionKey: db.prepare('SELECT key FROM session_keys WHERE session_id = ?').pluck() as Statement<[string], number>,
    insertSessionKey: db.prepare('INSERT INTO session_keys (session_id) VALUES (?)') as Statement<[string]>,
  };
}

/** Spans, occurrences and the rows of the deferred text index an append writes. */
function spanStatements(db: Database.Database) {
  return {
    nextSeq: db
      .prepare('SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM occurrences WHERE session_id = ?')
      .pluck() as Statement<[string], number>,
    span: db.prepare(
      `SELECT s.id, s.kind, ${SPAN_TEXT} AS text, s.tool_name, s.tool_call_id, s.tokens FROM spans s WHERE s.id = ?`,
    ) as Statement<[StoredSpanKey], SpanRow>,
    insertSpan: db.prepare(
      'INSERT INTO spans (id, kind, text, tool_name, tool_call_id, tokens) VALUES (?, ?, ?, ?, ?, ?)',
    ) as Statement<[StoredSpanKey, string, StoredSpanText, string | null, string | null, number]>,
    insertOccurrence: db.prepare(
      `INSERT INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end, label, chunk_index, chunk_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ) as Statement<
      [string, number, StoredSpanKey, string, number, number, string | null, number | null, number | null]
    >,
    insertTextRow: db.prepare('INSERT INTO occurrence_text_rows (session_id, seq) VALUES (?, ?)') as Statement<
      [string, number]
    >,
    occurrences: db.prepare(
      `SELECT ${OCCURRENCE_COLUMNS} FROM occurrences o JOIN spans s ON s.id = o.span_id
       WHERE o.session_id = ? AND o.seq BETWEEN ? AND ? ORDER BY o.seq`,
    ) as Statement<[string, number, number], OccurrenceRow>,
    occurrencesOfSpan: db.prepare(
      `SELECT ${OCCURRENCE_COLUMNS} FROM occurrences o JOIN spans s ON s.id = o.span_id
       WHERE o.session_id = ? AND o.span_id IN (?, ?) ORDER BY o.seq`,
    ) as Statement<[string, StoredSpanKey, StoredSpanKey], OccurrenceRow>,
    spanOfSession: db.prepare(
      `SELECT s.id, s.kind, ${SPAN_TEXT} AS text, s.tool_name, s.tool_call_id, s.tokens FROM spans s
       WHERE s.id IN (?, ?) AND EXISTS (SELECT 1 FROM occurrences o WHERE o.session_id = ? AND o.span_id = s.id) LIMIT 1`,
    ) as Statement<[StoredSpanKey, StoredSpanKey, string], SpanRow>,
  };
}

/** Handle rows: written by an append, read by key or seq range; span texts for a LIKE search. */
function handleStatements(db: Database.Database) {
  return {
    /** The insert of `rows` handle rows (1 to `HANDLE_BATCH_ROWS`), prepared on first use. */
    insertHandles: handleInserts(db),
    /** Rows under a key digest from a seq on, a page at a time (`LIMIT -1`: all of them). */
    handlesByKey: db.prepare(
      `SELECT ${HANDLE_READ_COLUMNS} FROM handle_rows WHERE session = ? AND key_hash = ? AND seq >= ?
       ORDER BY seq, start, position LIMIT ? OFFSET ?`,
    ) as Statement<[number, number, number, number, number], CompactHandleRow>,
    /** Rows under a key digest (a digest collision counts too: 1 in 2^32 per pair of keys). */
    handleCountByKey: db
      .prepare('SELECT COUNT(*) FROM handle_rows WHERE session = ? AND key_hash = ?')
      .pluck() as Statement<[number, number], number>,
    handles: db.prepare(
      `SELECT ${HANDLE_READ_COLUMNS} FROM handle_rows WHERE session = ? AND seq BETWEEN ? AND ? ORDER BY seq, start, position`,
    ) as Statement<[number, number, number], CompactHandleRow>,
    /** What the handle rows of one seq are rebuilt from (`handle-rows.ts`). */
    handleSource: db.prepare(
      `SELECT o.span_id, o.role, ${SPAN_TEXT} AS text FROM occurrences o JOIN spans s ON s.id = o.span_id
       WHERE o.session_id = ? AND o.seq = ?`,
    ) as Statement<[string, number], HandleSource>,
    /** Span texts of a session past a text-index mark, for a read-only connection's search (`like-search.ts`). */
    pendingTexts: db.prepare(
      `SELECT o.seq AS seq, o.span_id AS span_id, ${SPAN_TEXT} AS text FROM occurrence_text_rows r
       JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq JOIN spans s ON s.id = o.span_id
       WHERE r.session_id = ? AND r.row > ? ORDER BY o.seq`,
    ) as Statement<[string, number], TextRow>,
    /** Every span text of a session, for a search of terms too short for the trigram index (`like-search.ts`). */
    sessionTexts: db.prepare(
      `SELECT o.seq AS seq, o.span_id AS span_id, ${SPAN_TEXT} AS text FROM occurrences o JOIN spans s ON s.id = o.span_id
       WHERE o.session_id = ? ORDER BY o.seq`,
    ) as Statement<[string], TextRow>,
  };
}

/** Multi-row inserts of handle rows by row count, each prepared when first needed. */
function handleInserts(db: Database.Database): (rows: number) => Statement<HandleRowValues[number][]> {
  const prepared: Statement<HandleRowValues[number][]>[] = [];
  return (rows) =>
    (prepared[rows] ??= db.prepare(
      `INSERT INTO handle_rows (${HANDLE_COLUMNS}) VALUES ${Array.from({ length: rows }, () => HANDLE_ROW).join(', ')}`,
    ) as Statement<HandleRowValues[number][]>);
}

/** Records and their carried handles. */
function recordStatements(db: Database.Database) {
  return {
    recordCount: db.prepare('SELECT COUNT(*) FROM records WHERE session_id = ?').pluck() as Statement<[string], number>,
    recordExists: db.prepare('SELECT 1 FROM records WHERE session_id = ? AND id = ?').pluck() as Statement<
      [string, string],
      number
    >,
    /**
     * The record and the rows its delta chain goes back through, up to the nearest full snapshot (at most `limit`).
     * CROSS JOIN keeps the chain the outer loop: left to itself the planner scanned every record row of the session
     * for each read (a bulk replay's final handle index, one read per checkpoint, read the table once per record).
     */
    recordChain: db.prepare(
      `WITH RECURSIVE chain (id, step) AS (
         SELECT @id, 0
         UNION ALL
         SELECT r.base_id, c.step + 1 FROM chain c JOIN records r ON r.session_id = @session AND r.id = c.id
         WHERE r.base_id IS NOT NULL AND c.step < @limit)
       SELECT r.id, r.json, r.handle_ids, r.base_id, r.delta
       FROM chain c CROSS JOIN records r ON r.session_id = @session AND r.id = c.id ORDER BY c.step`,
    ) as Statement<[{ session: string; id: string; limit: number }], RecordRow>,
    /** The last record of a type before an ordinal, and its chain length (the base a new record's delta is against). */
    recordBefore: db.prepare(
      'SELECT id, ordinal, chain FROM records WHERE session_id = ? AND type = ? AND ordinal < ? ORDER BY ordinal DESC LIMIT 1',
    ) as Statement<[string, string, number], { id: string; ordinal: number; chain: number }>,
    recordIdAtOrdinal: db.prepare('SELECT id FROM records WHERE session_id = ? AND ordinal = ?').pluck() as Statement<
      [string, number],
      string
    >,
    insertRecord: db.prepare(
      `INSERT INTO records (session_id, id, ordinal, type, json, created_at, handle_ids, base_id, delta, chain)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ) as Statement<
      [string, string, number, string, string, string, string | null, string | null, Buffer | null, number]
    >,
    records: db.prepare(`SELECT ${RECORD_COLUMNS} FROM records WHERE session_id = ? ORDER BY ordinal`) as Statement<
      [string],
      RecordRow
    >,
    carriedHandleId: db.prepare('SELECT id FROM carried_handles WHERE session = ? AND digest = ?').pluck() as Statement<
      [number, Buffer],
      number
    >,
    nextCarriedHandleId: db
      .prepare('SELECT COALESCE(MAX(id) + 1, 0) FROM carried_handles WHERE session = ?')
      .pluck() as Statement<[number], number>,
    insertCarriedHandle: db.prepare(
      'INSERT INTO carried_handles (session, id, digest, seq, position, json) VALUES (?, ?, ?, ?, ?, ?)',
    ) as Statement<[number, number, Buffer, number | null, number | null, string | null]>,
    carriedHandle: db.prepare(
      'SELECT id, seq, position, json FROM carried_handles WHERE session = ? AND id = ?',
    ) as Statement<[number, number], CarriedHandleRow>,
    carriedHandlesBetween: db.prepare(
      'SELECT id, seq, position, json FROM carried_handles WHERE session = ? AND id BETWEEN ? AND ?',
    ) as Statement<[number, number, number], CarriedHandleRow>,
  };
}

/** The statements of one store. */
export type Statements = ReturnType<typeof prepareStatements>;

/** Row → session. */
export function toSession(row: SessionRow): SessionInfo {
  return Object.freeze({ id: row.id, tenantId: row.tenant_id ?? undefined, createdAt: row.created_at });
}

/** Row → span (the stored row key, per tenant, becomes the span id). */
export function toSpan(row: SpanRow): Span {
  return buildSpan({
    id: spanIdOfStoredKey(row.id),
    kind: row.kind,
    text: row.text,
    toolName: row.tool_name ?? undefined,
    toolCallId: row.tool_call_id ?? undefined,
    tokens: row.tokens,
  });
}

/** Row → occurrence joined with its span. */
export function toOccurrence(row: OccurrenceRow): SpanOccurrence {
  const span = toSpan({ ...row, id: row.span_id });
  const chunk =
    row.chunk_index === null || row.chunk_count === null
      ? undefined
      : { index: row.chunk_index, count: row.chunk_count };
  return buildOccurrence(
    {
      sessionId: row.session_id,
      seq: row.seq,
      spanId: span.id,
      role: row.role,
      byteStart: row.byte_start,
      byteEnd: row.byte_end,
      label: row.label ?? undefined,
      chunk,
    },
    span,
  );
}
