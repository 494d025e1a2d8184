import type pg from 'pg';
import { ImmutableSpanError, NotFoundError, SequenceConflictError, StoreUnavailableError } from '../../errors.js';
import type { CompactionRecord, SpanOccurrence } from '../../types.js';
import { rebuildRecordRows, recordRowIds, splitRecord } from '../record-handles.js';
import { DeltaBases } from '../delta-bases.js';
import { MAX_DELTA_CHAIN, rebuildBodies, rowForm, storedAs, type DeltaBase } from '../record-delta.js';
import { LEDGER_STORE_SPECIFICATION_VERSION, type LedgerStore, type TextHit } from '../store.js';
import {
  buildOccurrence,
  buildSpan,
  checkAppend,
  checkCount,
  checkHandlePage,
  checkId,
  checkRecord,
  loadRecord,
  searchTerms,
  spanIdOfRowKey,
  spanRowKey,
  tenantMismatch,
  type SeqRange,
} from '../store-input.js';
import { checkNoNul, packBatch, searchableText } from './append-batch.js';
import { openConnection, type PostgresStoreOptions } from './connection.js';
import { UNREACHABLE_ADVICE, isConnectionError, mapPostgresError } from './driver-errors.js';
import { checkVersion, runMigrations, type MigrationResult } from './migrate.js';
import { createPendingListCleaner } from './pending-list-cleaner.js';
import { statementNames } from './statement-names.js';
import {
  buildQueries,
  toHandle,
  toOccurrence,
  toSession,
  toSpan,
  type HandleRow,
  type OccurrenceRow,
  type RecordRow,
  type SessionRow,
  type SpanRow,
} from './queries.js';

const LAST_SEQ = Number.MAX_SAFE_INTEGER;
const missing = Symbol('no such session');
const NUL = '\u0000';

/** LIKE pattern matching `term` anywhere, with `%`, `_` and `\` escaped. */
function likePattern(term: string): string {
  return `%${searchableText(term).replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Connects, migrates (unless `migrate: false`) and reports what it did; used by
 * `createPostgresStore` and the `context-ledger migrate` command. Ends its own pool.
 */
export async function migratePostgres(
  options: PostgresStoreOptions,
): Promise<MigrationResult & { location: string; schema: string }> {
  const connection = openConnection(options);
  try {
    const result = await prepare(connection.pool, connection.schema, connection.location, options.migrate !== false);
    return { ...result, location: connection.location, schema: connection.schema };
  } finally {
    if (connection.ownsPool) await connection.pool.end();
  }
}

async function prepare(pool: pg.Pool, schema: string, location: string, migrate: boolean): Promise<MigrationResult> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(
      `${location}: cannot connect (${reason}); ${UNREACHABLE_ADVICE}.`,
      { location },
      { cause: error },
    );
  }
  try {
    const result = migrate
      ? await runMigrations(client, schema, location)
      : await checkVersion(client, schema, location);
    client.release();
    return result;
  } catch (error) {
    client.release(true);
    throw mapPostgresError(location, migrate ? `migrate schema ${schema}` : `check schema ${schema}`, error);
  }
}

/**
 * Creates a `LedgerStore` on PostgreSQL (kind `postgres`, location `postgres://host:port/db`,
 * never with the password), for many workers on many hosts. Opening connects and runs the
 * versioned migrations under an advisory lock (see `schema.ts`); tables live in
 * `options.schema` (default `context_ledger`).
 *
 * Guarantees: each append batch is one statement (`append_batch()`: multi-row INSERTs from
 * `unnest`) in one transaction, serialized per session by a transaction-scoped advisory lock,
 * with `PRIMARY KEY (session_id, seq)` as a second line of defence; different sessions append
 * in parallel. Triggers refuse UPDATE, DELETE and TRUNCATE for every connection. Free-text
 * search is a literal, case-insensitive, any-term substring match served by a pg_trgm GIN index
 * (plain ILIKE when the extension is unavailable), ranked by terms matched, then similarity,
 * then seq. Span text may contain U+0000 (kept exactly); ids, labels and handles may not.
 * The trigram index's pending list is cleaned in the background after appends
 * (`pending-list-cleaner.ts`), not by the append that finds it full.
 *
 * Errors: `StoreUnavailableError` when the server cannot be reached or the connection drops
 * (naming the location and what to check; the pool reconnects on the next call),
 * `SequenceConflictError`, `ImmutableSpanError`, `TenantMismatchError`, `NotFoundError`,
 * `InvalidInputError`, and `StoreOperationError` naming the location and operation otherwise.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<LedgerStore> {
  const { pool, ownsPool, location, schema } = openConnection(options);
  const onIdleError = () => undefined; // An idle connection that dies is dropped by the pool; the next query reconnects.
  pool.on('error', onIdleError);
  let migration: MigrationResult;
  try {
    migration = await prepare(pool, schema, location, options.migrate !== false);
  } catch (error) {
    pool.off('error', onIdleError);
    if (ownsPool) await pool.end().catch(() => undefined);
    throw error;
  }
  const sql = buildQueries(schema, migration.trigramSchema);
  const names =
    options.preparedStatements === false
      ? new Map<string, string>()
      : statementNames({ ...sql, similarity: undefined });
  const cleaner = migration.trigramSchema === undefined ? undefined : createPendingListCleaner(pool, schema);
  let closed = false;

  async function run<R extends pg.QueryResultRow>(
    operation: string,
    text: string,
    values: unknown[],
    retry: boolean,
  ): Promise<R[]> {
    if (closed)
      throw new StoreUnavailableError(
        `${location}: ${operation} failed: the store is closed; create a new store with createPostgresStore.`,
        { location, operation },
      );
    try {
      return (await pool.query<R>({ name: names.get(text), text, values })).rows;
    } catch (error) {
      // A read on a connection the server dropped while idle is safe to send once more.
      if (retry && isConnectionError(error)) return run<R>(operation, text, values, false);
      throw mapPostgresError(location, operation, error);
    }
  }
  /** Tenant of each session seen (a session's tenant never changes); undefined entry: no tenant. */
  const tenants = new Map<string, string | undefined>();

  /** The session's tenant, or `missing` when there is no such session. */
  async function tenantOf(sessionId: string, operation: string): Promise<string | undefined | typeof missing> {
    if (tenants.has(sessionId)) return tenants.get(sessionId);
    const [row] = await read<SessionRow>(operation, sql.session, [sessionId]);
    if (!row) return missing;
    const tenantId = row.tenant_id ?? undefined;
    tenants.set(sessionId, tenantId);
    return tenantId;
  }

  /** Row keys a span id of the session may be stored under: per tenant, and the bare id of older rows. */
  async function rowKeys(
    sessionId: string,
    spanIds: readonly string[],
    operation: string,
  ): Promise<{ keys: string[]; plain: string[] }> {
    const tenantId = await tenantOf(sessionId, operation);
    const scope = tenantId === missing ? undefined : tenantId;
    return { keys: spanIds.map((id) => spanRowKey(id, scope)), plain: [...spanIds] };
  }

  /**
   * Record rows rebuilt (carried handles stored apart read in one query, of their id range or of the ids themselves when
   * the range is sparse, each parsed once) and verified.
   */
  async function loadRows(
    operation: string,
    sessionId: string,
    rows: readonly RecordRow[],
    checkRowId: boolean,
    chain: readonly RecordRow[] = [],
  ): Promise<CompactionRecord[]> {
    const bodies = rebuildBodies(location, sessionId, rows, chain);
    const { ids, low, high, sparse } = recordRowIds(bodies);
    const stored = new Map<number, string>();
    const found =
      sparse !== undefined
        ? await read<{ id: string; json: string }>(operation, sql.recordHandlesByIds, [sessionId, sparse])
        : low <= high
          ? await read<{ id: string; json: string }>(operation, sql.recordHandles, [sessionId, low, high])
          : [];
    for (const row of found) stored.set(Number(row.id), row.json);
    return rebuildRecordRows(location, sessionId, rows, bodies, ids, stored, (row, json, handles) =>
      loadRecord(location, sessionId, json, checkRowId ? row.id : undefined, handles, storedAs(row)),
    );
  }

  /** The row of a record and the rows of its delta chain, nearest first. */
  const recordChain = (operation: string, sessionId: string, recordId: string) =>
    read<RecordRow>(operation, sql.recordChain, [sessionId, recordId, MAX_DELTA_CHAIN]);

  /** Content of the records this store wrote last, per session and type: the bases of the next records' deltas. */
  const bases = new DeltaBases();

  /**
   * The stored record a new record's delta is against: the last one this store wrote of its session and type, else
   * the session's last record of that type before it (rebuilt from its chain); undefined when there is none.
   */
  async function deltaBase(operation: string, record: CompactionRecord): Promise<DeltaBase | undefined> {
    const known = bases.before(record);
    if (known !== undefined) return known;
    const [row] = await read<{ id: string; ordinal: string; chain: number }>(operation, sql.recordBefore, [
      record.sessionId,
      record.type,
      record.ordinal,
    ]);
    if (row === undefined) return undefined;
    const chain = await recordChain(operation, record.sessionId, row.id);
    return bases.rebuilt(location, record.sessionId, { ...row, ordinal: Number(row.ordinal) }, chain);
  }

  const read = <R extends pg.QueryResultRow>(operation: string, text: string, values: unknown[]) =>
    run<R>(operation, text, values, true);
  const write = <R extends pg.QueryResultRow>(operation: string, text: string, values: unknown[]) =>
    run<R>(operation, text, values, false);

  return {
    specificationVersion: LEDGER_STORE_SPECIFICATION_VERSION,
    kind: 'postgres',
    location,

    async openSession(sessionId, sessionOptions) {
      checkId('sessionId', sessionId);
      const tenantId = sessionOptions?.tenantId;
      checkNoNul('sessionId', sessionId);
      checkNoNul('tenantId', tenantId);
      const operation = `open session ${sessionId}`;
      await write(operation, sql.insertSession, [sessionId, tenantId ?? null, new Date().toISOString()]);
      const [row] = await read<SessionRow>(operation, sql.session, [sessionId]);
      if (!row)
        throw mapPostgresError(location, operation, new Error(`session ${sessionId} vanished after it was created`));
      const session = toSession(row);
      if (session.tenantId !== tenantId) throw tenantMismatch(location, sessionId, tenantId, { location });
      tenants.set(sessionId, session.tenantId);
      return session;
    },

    async getSession(sessionId) {
      if (typeof sessionId !== 'string' || sessionId.includes(NUL)) return undefined;
      const [row] = await read<SessionRow>(`get session ${sessionId}`, sql.session, [sessionId]);
      return row ? toSession(row) : undefined;
    },

    async listSessions(listOptions) {
      const tenantId = listOptions?.tenantId;
      if (tenantId?.includes(NUL)) return [];
      const rows =
        tenantId === undefined
          ? await read<SessionRow>('list sessions', sql.sessions, [])
          : await read<SessionRow>('list sessions', sql.sessionsOfTenant, [tenantId]);
      return rows.map(toSession);
    },

    async append(sessionId, expectedNextSeq, entries) {
      checkAppend(sessionId, expectedNextSeq, entries);
      checkNoNul('sessionId', sessionId);
      const operation = `append to session ${sessionId}`;
      const tenantId = await tenantOf(sessionId, operation);
      const [result] =
        tenantId === missing
          ? [undefined]
          : await write<{ actual_next: string; stored_tokens: string[] | null }>(operation, sql.appendBatch, [
              sessionId,
              expectedNextSeq,
              ...packBatch(sessionId, tenantId, entries),
            ]);
      const actual = Number(result?.actual_next ?? -1);
      if (actual === -1) {
        throw new NotFoundError(
          `${location}: append: session ${sessionId} does not exist; call openSession(${JSON.stringify(sessionId)}) first.`,
          { sessionId, location },
        );
      }
      if (actual !== expectedNextSeq || !result?.stored_tokens) {
        throw new SequenceConflictError(
          `${location}: append to session ${sessionId} expected next seq ${expectedNextSeq} but it is ${actual}; ` +
            'another writer appended first. Re-read the session (nextSeq) and retry.',
          { sessionId, expectedNextSeq, actualNextSeq: actual, location },
        );
      }
      cleaner?.appended();
      const storedTokens = result.stored_tokens;
      return entries.map((entry, index): SpanOccurrence => {
        const span = buildSpan({ ...entry.span, tokens: Number(storedTokens[index] ?? entry.span.tokens) });
        return buildOccurrence({ ...entry, sessionId, seq: expectedNextSeq + index, spanId: span.id }, span);
      });
    },

    async nextSeq(sessionId) {
      if (sessionId.includes(NUL)) return 0;
      const [row] = await read<{ next: string }>(`read next seq of session ${sessionId}`, sql.nextSeq, [sessionId]);
      return Number(row?.next ?? 0);
    },

    async occurrences(sessionId, range?: SeqRange) {
      if (sessionId.includes(NUL)) return [];
      const rows = await read<OccurrenceRow>(`read occurrences of session ${sessionId}`, sql.occurrences, [
        sessionId,
        range?.fromSeq ?? 0,
        range?.toSeq ?? LAST_SEQ,
      ]);
      return rows.map(toOccurrence);
    },

    async occurrencesOf(sessionId, spanId) {
      if (sessionId.includes(NUL) || spanId.includes(NUL)) return [];
      const operation = `read occurrences of span ${spanId} in session ${sessionId}`;
      const { keys } = await rowKeys(sessionId, [spanId], operation);
      const rows = await read<OccurrenceRow>(operation, sql.occurrencesOfSpan, [
        sessionId,
        [...new Set([...keys, spanId])],
      ]);
      return rows.map(toOccurrence);
    },

    async spans(sessionId, ids) {
      const usable = ids.filter((id) => !id.includes(NUL));
      if (sessionId.includes(NUL) || usable.length === 0) return [];
      const operation = `read spans of session ${sessionId}`;
      const { keys, plain } = await rowKeys(sessionId, usable, operation);
      const rows =
        keys.length === 1
          ? await read<SpanRow>(operation, sql.spanOfSession, [sessionId, keys[0], plain[0]])
          : await read<SpanRow>(operation, sql.spansOfSession, [sessionId, keys, plain]);
      return rows.map(toSpan);
    },

    async findHandles(sessionId, key, page) {
      const { fromSeq, limit } = checkHandlePage(page, { sessionId, key });
      if (sessionId.includes(NUL) || key.includes(NUL)) return [];
      const rowLimit = limit === Number.POSITIVE_INFINITY ? null : limit;
      const operation = `find handles of session ${sessionId}`;
      return (await read<HandleRow>(operation, sql.handlesByKey, [sessionId, key, fromSeq, rowLimit])).map(toHandle);
    },

    async countHandles(sessionId, key) {
      if (sessionId.includes(NUL) || key.includes(NUL)) return 0;
      const rows = await read<{ count: number }>(`count handles of session ${sessionId}`, sql.handleCountByKey, [
        sessionId,
        key,
      ]);
      return rows[0]?.count ?? 0;
    },

    async handles(sessionId, range?: SeqRange) {
      if (sessionId.includes(NUL)) return [];
      const rows = await read<HandleRow>(`read handles of session ${sessionId}`, sql.handles, [
        sessionId,
        range?.fromSeq ?? 0,
        range?.toSeq ?? LAST_SEQ,
      ]);
      return rows.map(toHandle);
    },

    async searchText(sessionId, query, limit): Promise<TextHit[]> {
      checkCount('limit', limit, { sessionId });
      const terms = searchTerms(query);
      if (terms.length === 0 || limit === 0 || sessionId.includes(NUL)) return [];
      const ranked = terms.every((term) => [...term].length >= 3);
      const values: unknown[] = [sessionId, limit, ...terms.map(likePattern)];
      if (ranked && sql.similarity) values.push(searchableText(terms.join(' ')));
      const rows = await read<{ seq: string; span_id: string; score: number | string }>(
        `search session ${sessionId}`,
        sql.search(terms.length, ranked),
        values,
      );
      return rows.map((row) => ({
        seq: Number(row.seq),
        spanId: spanIdOfRowKey(row.span_id),
        score: Number(row.score),
      }));
    },

    async writeRecord(record) {
      const copy = checkRecord(record);
      checkNoNul('record.id', copy.id);
      checkNoNul('record.sessionId', copy.sessionId);
      checkNoNul('record.type', copy.type);
      const operation = `write record ${copy.id} of session ${copy.sessionId}`;
      const [session] = await read<SessionRow>(operation, sql.session, [copy.sessionId]);
      if (!session) {
        throw new NotFoundError(
          `${location}: ${operation}: session ${copy.sessionId} does not exist; call openSession(${JSON.stringify(copy.sessionId)}) first.`,
          { sessionId: copy.sessionId, location },
        );
      }
      const parts = splitRecord(copy);
      // Handles the session does not hold yet are stored even when the record then loses its id or ordinal to another
      // writer: rows of record_handles are append-only and only ever named by records, so later records reuse them.
      const [stored] = await write<{ ids: string[] }>(operation, sql.storeRecordHandles, [
        copy.sessionId,
        parts.digests,
        parts.handles,
      ]);
      const body = { json: parts.json, ids: (stored?.ids ?? []).map(Number) };
      const form = rowForm(body, await deltaBase(operation, copy));
      const [written] = await write<{ id: string }>(operation, sql.insertRecord, [
        copy.sessionId,
        copy.id,
        copy.ordinal,
        copy.type,
        form.json,
        copy.createdAt ?? new Date().toISOString(),
        form.handleIds,
        form.baseId,
        form.delta,
        form.chain,
      ]);
      if (written !== undefined) {
        bases.wrote(copy, { id: copy.id, ordinal: copy.ordinal, chain: form.chain, body });
        return;
      }
      const [holder] = await read<{ id: string; ordinal: string }>(operation, sql.recordConflict, [
        copy.sessionId,
        copy.id,
        copy.ordinal,
      ]);
      if (!holder || holder.id === copy.id) {
        throw new ImmutableSpanError(
          `${location}: record ${copy.id} of session ${copy.sessionId} is already written and records are immutable; ` +
            'write a new record with a new id instead.',
          { sessionId: copy.sessionId, recordId: copy.id, location },
        );
      }
      throw new SequenceConflictError(
        `${location}: cannot write record ${copy.id}: ordinal ${copy.ordinal} of session ${copy.sessionId} ` +
          `is already taken by record ${holder.id}; another writer got there first. ` +
          'Re-read the records and retry with the next ordinal.',
        { sessionId: copy.sessionId, recordId: copy.id, ordinal: copy.ordinal, takenBy: holder.id, location },
      );
    },

    async records(sessionId) {
      if (sessionId.includes(NUL)) return [];
      const operation = `read records of session ${sessionId}`;
      const rows = await read<RecordRow>(operation, sql.records, [sessionId]);
      return loadRows(operation, sessionId, rows, false);
    },

    async recordCount(sessionId) {
      if (sessionId.includes(NUL)) return 0;
      const rows = await read<{ count: number }>(`count records of session ${sessionId}`, sql.recordCount, [sessionId]);
      return rows[0]?.count ?? 0;
    },

    async record(sessionId, recordId) {
      if (sessionId.includes(NUL) || recordId.includes(NUL)) return undefined;
      const operation = `read record ${recordId} of session ${sessionId}`;
      const [row, ...chain] = await recordChain(operation, sessionId, recordId);
      return row === undefined ? undefined : (await loadRows(operation, sessionId, [row], true, chain))[0];
    },

    async close() {
      if (closed) return;
      closed = true;
      await cleaner?.idle();
      if (ownsPool) await pool.end();
      else pool.off('error', onIdleError);
    },
  };
}
