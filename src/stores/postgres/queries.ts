/**
 * SQL of the PostgreSQL store (every table qualified with the ledger's schema, so it works on
 * any pool whatever its `search_path`) and the mapping from rows to the frozen values every
 * store returns.
 */
import type { Handle, HandleKind, Role, SessionInfo, SourceKind, Span, SpanOccurrence } from '../../types.js';
import { buildHandle, buildOccurrence, buildSpan, spanIdOfRowKey } from '../store-input.js';
import { quoteIdentifier } from './connection.js';

/** A row of `sessions`. */
export interface SessionRow {
  id: string;
  tenant_id: string | null;
  created_at: string;
}

/** A row of `spans` (bigints arrive as strings). */
export interface SpanRow {
  id: string;
  kind: SourceKind;
  text: string;
  exact: Buffer | null;
  tool_name: string | null;
  tool_call_id: string | null;
  tokens: string;
}

/** A row of `occurrences` joined with its span. */
export interface OccurrenceRow extends Omit<SpanRow, 'id'> {
  session_id: string;
  seq: string;
  span_id: string;
  role: Role;
  byte_start: string;
  byte_end: string;
  label: string | null;
  chunk_index: string | null;
  chunk_count: string | null;
}

/**
 * A row of `records` as read: the JSON and, from schema version 4 on, the ids of its carried handles; from version 5
 * on, a delta row's base and change instead (see `record-delta.ts`).
 */
export interface RecordRow {
  id: string;
  json: string;
  handle_ids: string | null;
  base_id: string | null;
  delta: Buffer | null;
}

const RECORD_COLUMNS = 'r.id, r.json, r.handle_ids, r.base_id, r.delta';

/** A row of `handles`. */
export interface HandleRow {
  seq: string;
  span_id: string;
  kind: HandleKind;
  text: string;
  key: string;
  start: string;
  end: string;
  role: Role;
  tokens: string;
}

const SPAN_COLUMNS = 's.kind, s.text, s.exact, s.tool_name, s.tool_call_id, s.tokens';
const OCCURRENCE_COLUMNS =
  'o.session_id, o.seq, o.span_id, o.role, o.byte_start, o.byte_end, o.label, o.chunk_index, o.chunk_count, ' +
  SPAN_COLUMNS;
const HANDLE_COLUMNS = 'seq, span_id, kind, text, key, start, "end", role, tokens';

/** The 24 positional parameters of an `append_batch()` call: `$1, $2, …, $24`. */
const APPEND_BATCH_PARAMETERS = Array.from({ length: 24 }, (_, index) => `$${index + 1}`).join(', ');

/** Every statement of the store for one schema; `similarity` is pg_trgm's function, when installed. */
export function buildQueries(schema: string, trigramSchema: string | undefined) {
  const t = (table: string) => `${quoteIdentifier(schema)}.${table}`;
  const similarity = trigramSchema === undefined ? undefined : `${quoteIdentifier(trigramSchema)}.similarity`;
  return {
    similarity,
    insertSession: `INSERT INTO ${t('sessions')} (id, tenant_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
    session: `SELECT id, tenant_id, created_at FROM ${t('sessions')} WHERE id = $1`,
    sessions: `SELECT id, tenant_id, created_at FROM ${t('sessions')} ORDER BY id`,
    sessionsOfTenant: `SELECT id, tenant_id, created_at FROM ${t('sessions')} WHERE tenant_id = $1 ORDER BY id`,
    nextSeq: `SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM ${t('occurrences')} WHERE session_id = $1`,
    appendBatch: `SELECT actual_next, stored_tokens FROM ${t('append_batch')}(${APPEND_BATCH_PARAMETERS})`,
    occurrences: `SELECT ${OCCURRENCE_COLUMNS} FROM ${t('occurrences')} o JOIN ${t('spans')} s ON s.id = o.span_id
      WHERE o.session_id = $1 AND o.seq BETWEEN $2 AND $3 ORDER BY o.seq`,
    occurrencesOfSpan: `SELECT ${OCCURRENCE_COLUMNS} FROM ${t('occurrences')} o JOIN ${t('spans')} s ON s.id = o.span_id
      WHERE o.session_id = $1 AND o.span_id = ANY($2::text[]) ORDER BY o.seq`,
    /** Spans by row key or bare id of older rows (the row key first), in the order asked. */
    spansOfSession: `SELECT DISTINCT ON (u.n) s.id, ${SPAN_COLUMNS}
      FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(id, plain, n) JOIN ${t('spans')} s ON s.id IN (u.id, u.plain)
      WHERE EXISTS (SELECT 1 FROM ${t('occurrences')} o WHERE o.session_id = $1 AND o.span_id = s.id)
      ORDER BY u.n, s.id = u.id DESC`,
    /**
     * One span, as `spansOfSession` finds it, with scalar parameters: PostgreSQL re-plans an array
     * query on every call (its custom plan knows the array's length), a scalar one gets a generic plan once.
     */
    spanOfSession: `SELECT s.id, ${SPAN_COLUMNS} FROM ${t('spans')} s WHERE s.id IN ($2, $3)
      AND EXISTS (SELECT 1 FROM ${t('occurrences')} o WHERE o.session_id = $1 AND o.span_id = s.id)
      ORDER BY s.id = $2 DESC LIMIT 1`,
    /** A key's handles from a seq on, at most `$4` of them (NULL: all). */
    handlesByKey: `SELECT ${HANDLE_COLUMNS} FROM ${t('handles')} WHERE session_id = $1 AND key = $2 AND seq >= $3
      ORDER BY seq, start, position LIMIT $4`,
    handleCountByKey: `SELECT COUNT(*)::int AS count FROM ${t('handles')} WHERE session_id = $1 AND key = $2`,
    recordCount: `SELECT COUNT(*)::int AS count FROM ${t('records')} WHERE session_id = $1`,
    handles: `SELECT ${HANDLE_COLUMNS} FROM ${t('handles')} WHERE session_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq, start, position`,
    /** The kind, text, seq and start of `handles`' rows, in its order (`handleIdentities`). */
    handleIdentities: `SELECT kind, text, seq, start FROM ${t('handles')} WHERE session_id = $1 AND seq BETWEEN $2 AND $3
      ORDER BY seq, start, position`,
    storeRecordHandles: `SELECT ${t('store_record_handles')}($1, $2::bytea[], $3::text[]) AS ids`,
    insertRecord: `INSERT INTO ${t('records')} (session_id, id, ordinal, type, json, created_at, handle_ids, base_id, delta, chain)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING id`,
    /** The last record of a type before an ordinal, and its chain length (the base a new record's delta is against). */
    recordBefore: `SELECT id, ordinal, chain FROM ${t('records')}
      WHERE session_id = $1 AND type = $2 AND ordinal < $3 ORDER BY ordinal DESC LIMIT 1`,
    /**
     * The record and the rows its delta chain goes back through, up to the nearest full snapshot (at most `$3`). Each
     * step reads its row by primary key and carries its columns, so nothing joins the chain with the table again: that
     * join (chain ids, then the rows) was planned as a hash join over every record row of the session, or a sequential
     * scan of the whole table once analyzed, for each read.
     */
    recordChain: `WITH RECURSIVE chain AS (
        SELECT ${RECORD_COLUMNS}, 0 AS step FROM ${t('records')} r WHERE r.session_id = $1 AND r.id = $2
        UNION ALL
        SELECT ${RECORD_COLUMNS}, c.step + 1 FROM chain c JOIN ${t('records')} r ON r.session_id = $1 AND r.id = c.base_id
        WHERE c.step < $3)
      SELECT id, json, handle_ids, base_id, delta FROM chain ORDER BY step`,
    recordHandles: `SELECT id, json FROM ${t('record_handles')} WHERE session_id = $1 AND id BETWEEN $2 AND $3`,
    recordHandlesByIds: `SELECT id, json FROM ${t('record_handles')} WHERE session_id = $1 AND id = ANY($2::bigint[])`,
    recordConflict: `SELECT id, ordinal FROM ${t('records')}
      WHERE session_id = $1 AND (id = $2 OR ordinal = $3) ORDER BY (id = $2) DESC LIMIT 1`,
    records: `SELECT ${RECORD_COLUMNS} FROM ${t('records')} r WHERE r.session_id = $1 ORDER BY r.ordinal`,
    /**
     * Any-term literal substring search: one ILIKE per term (so the trigram index serves
     * each), score = terms matched + similarity when every term is long enough for trigrams.
     */
    search(termCount: number, ranked: boolean): string {
      const patterns = Array.from({ length: termCount }, (_, index) => `s.text ILIKE $${index + 3}`);
      const matched = patterns.map((pattern) => `(${pattern})::int`).join(' + ');
      const rank = ranked && similarity ? ` + 0.999 * ${similarity}(s.text, $${termCount + 3})` : '';
      return `SELECT o.seq, o.span_id, (${matched})${rank} AS score FROM ${t('occurrences')} o JOIN ${t('spans')} s ON s.id = o.span_id
        WHERE o.session_id = $1 AND (${patterns.join(' OR ')}) ORDER BY score DESC, o.seq LIMIT $2`;
    },
  };
}

/** The statements of one store. */
export type Queries = ReturnType<typeof buildQueries>;

/** Row → session. */
export function toSession(row: SessionRow): SessionInfo {
  return Object.freeze({ id: row.id, tenantId: row.tenant_id ?? undefined, createdAt: row.created_at });
}

/** Row → span (the exact bytes win over the search text when U+0000 had to be replaced; the row key becomes the span id). */
export function toSpan(row: SpanRow): Span {
  const text = row.exact === null ? row.text : row.exact.toString('utf8');
  return buildSpan({
    id: spanIdOfRowKey(row.id),
    kind: row.kind,
    text,
    toolName: row.tool_name ?? undefined,
    toolCallId: row.tool_call_id ?? undefined,
    tokens: Number(row.tokens),
  });
}

/** Row → occurrence joined with its span. */
export function toOccurrence(row: OccurrenceRow): SpanOccurrence {
  const span = toSpan({ ...row, id: row.span_id });
  const chunk =
    row.chunk_index === null || row.chunk_count === null
      ? undefined
      : { index: Number(row.chunk_index), count: Number(row.chunk_count) };
  return buildOccurrence(
    {
      sessionId: row.session_id,
      seq: Number(row.seq),
      spanId: span.id,
      role: row.role,
      byteStart: Number(row.byte_start),
      byteEnd: Number(row.byte_end),
      label: row.label ?? undefined,
      chunk,
    },
    span,
  );
}

/** Row → handle. */
export function toHandle(row: HandleRow): Handle {
  return buildHandle(
    {
      kind: row.kind,
      text: row.text,
      key: row.key,
      start: Number(row.start),
      end: Number(row.end),
      spanId: spanIdOfRowKey(row.span_id),
      role: row.role,
      tokens: Number(row.tokens),
    },
    Number(row.seq),
  );
}
