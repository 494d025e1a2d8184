import { ImmutableSpanError, NotFoundError, SequenceConflictError, StoreOperationError } from '../../errors.js';
import type { CompactionRecord, Handle, Span, SpanOccurrence } from '../../types.js';
import {
  buildOccurrence,
  checkAppend,
  checkCount,
  checkHandlePage,
  checkId,
  checkRecord,
  checkSameSpan,
  loadRecord,
  orderEntryHandles,
  searchTerms,
  spanRowKey,
  tenantMismatch,
  type SeqRange,
} from '../store-input.js';
import { BoundedMemo } from '../../collections/bounded-memo.js';
import { MEMO_ENTRIES, rebuildRecordRows, recordRowIds, splitRecord, type RecordParts } from '../record-handles.js';
import { DeltaBases } from '../delta-bases.js';
import {
  MAX_DELTA_CHAIN,
  rebuildBodies,
  rowForm,
  storedAs,
  type BodyMemo,
  type DeltaBase,
  type RecordBody,
} from '../record-delta.js';
import { LEDGER_STORE_SPECIFICATION_VERSION, type AppendEntry, type LedgerStore, type TextHit } from '../store.js';
import {
  DEFAULT_AUTOCHECKPOINT_PAGES,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  startBackgroundCheckpoint,
  type BackgroundCheckpoint,
} from './background-checkpoint.js';
import { mapDriverError } from './driver-errors.js';
import { openDatabase } from './open-database.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { createDeferredTextIndex } from './deferred-text-index.js';
import { createTextSearch } from './text-search.js';
import { likeHits } from './like-search.js';
import { createHandleRowJson, type CarriedHandleRow, type SessionHandleJson } from './carried-handles.js';
import { storedSpanKey, type StoredSpanKey } from './span-keys.js';
import { packSpanText } from './span-text.js';
import { CARRIED_DIGEST_BYTES } from './schema.js';
import { compactHandleValues, handleOfRow, keyHash, type CompactHandleRow, type HandleSource } from './handle-rows.js';
import {
  HANDLE_BATCH_ROWS,
  prepareStatements,
  type HandleRowValues,
  toOccurrence,
  toSession,
  toSpan,
  type RecordRow,
} from './statements.js';

const LAST_SEQ = Number.MAX_SAFE_INTEGER;

/** Record bodies a store remembers for `record()`: a few snapshot intervals' worth (`SNAPSHOT_INTERVAL` is 32). */
const BODIES_KEPT = 256;

/**
 * Creates a `LedgerStore` on a SQLite file (kind `sqlite`, location `sqlite:<absolute path>`)
 * with better-sqlite3: WAL, `synchronous=NORMAL` (an acknowledged append survives a killed
 * process; an OS crash may lose the last transactions), a busy timeout (default 5 s), and triggers that
 * make spans, occurrences, handles, records and sessions append-only for every connection. WAL
 * checkpoints run in a background worker (`background-checkpoint.ts`) and each append merges the
 * free-text index by one bounded step (`text-merging.ts`), so neither lands on one append.
 *
 * Throws `StoreUnavailableError` (before creating anything) when the path cannot be created,
 * read or written. Operations fail with `SequenceConflictError` (stale `expectedNextSeq`, or a
 * record ordinal already taken), `ImmutableSpanError` (a record id already written),
 * `TenantMismatchError`, `NotFoundError` (session never opened), `InvalidInputError`, and
 * `StoreOperationError` naming the location and operation for any driver failure.
 */
export function createSqliteStore(options: SqliteStoreOptions): LedgerStore {
  const { db, location, busyTimeoutMs, file } = openDatabase(options);
  const readonly = options.readonly === true;
  const statements = prepareStatements(db);
  const checkpointInBackground = !readonly && file !== undefined && options.backgroundCheckpoint !== false;
  let checkpointer: BackgroundCheckpoint | undefined;
  /** In the idle step, before the text-index write: the frames the worker's last checkpoint left behind, if it says so. */
  const checkpointTail = () => {
    if (checkpointer?.takeTail() !== true) return;
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Failing (closing, I/O error): the worker's next checkpoint, or the fallback in a COMMIT, copies it instead.
    }
  };
  const textIndex = createDeferredTextIndex(db, !readonly, checkpointTail);
  const textSearch = createTextSearch(db);
  const handleRowJson = createHandleRowJson(db, location);

  /** After a committed write: the background checkpointer (started on the first write) checkpoints soon. */
  function wrote(): void {
    if (!checkpointInBackground || !db.open) return;
    if (checkpointer === undefined) {
      checkpointer = startBackgroundCheckpoint(file, () => {
        if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      });
      db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    }
    checkpointer.wrote();
  }

  function guard<T>(operation: string, body: () => T): Promise<T> {
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(mapDriverError(location, operation, error, busyTimeoutMs));
    }
  }

  function checkWritable(operation: string): void {
    if (readonly) {
      throw new StoreOperationError(
        `${location}: ${operation} failed: the store was opened read-only; open it with readonly: false to write.`,
        { location, operation },
      );
    }
  }

  /** The session's tenant; throws `NotFoundError` when the session does not exist. */
  function requireSession(sessionId: string, operation: string): string | undefined {
    const row = statements.session.get(sessionId);
    if (!row) {
      throw new NotFoundError(
        `${location}: ${operation}: session ${sessionId} does not exist; call openSession(${JSON.stringify(sessionId)}) first.`,
        { sessionId, location },
      );
    }
    return row.tenant_id ?? undefined;
  }

  /** Tenant of each session seen (sessions are append-only: a session's tenant never changes); undefined entry: no tenant. */
  const tenants = new Map<string, string | undefined>();

  /** The session's tenant (read once per session), undefined for no tenant or no such session. */
  function tenantOf(sessionId: string): string | undefined {
    if (tenants.has(sessionId)) return tenants.get(sessionId);
    const row = statements.session.get(sessionId);
    if (row) tenants.set(sessionId, row.tenant_id ?? undefined);
    return row?.tenant_id ?? undefined;
  }

  /** Row keys a span id of the session may be stored under: per tenant, and the bare id of older rows. */
  function rowKeys(sessionId: string, id: string): [StoredSpanKey, StoredSpanKey] {
    return [storedSpanKey(spanRowKey(id, tenantOf(sessionId))), storedSpanKey(id)];
  }

  /** The stored span for the entry (after a full comparison when the id exists), inserting it when new. */
  function storedSpan(sessionId: string, key: StoredSpanKey, span: Span): Span {
    const row = statements.span.get(key);
    if (row) {
      const stored = toSpan(row);
      checkSameSpan(location, sessionId, stored, span);
      return stored;
    }
    statements.insertSpan.run(
      key,
      span.kind,
      packSpanText(span.text),
      span.toolName ?? null,
      span.toolCallId ?? null,
      span.tokens,
    );
    return toSpan({
      id: key,
      kind: span.kind,
      text: span.text,
      tool_name: span.toolName ?? null,
      tool_call_id: span.toolCallId ?? null,
      tokens: span.tokens,
    });
  }

  /** Number of each session seen in `session_keys` (append-only: a session's number never changes). */
  const sessionNumbers = new Map<string, number>();

  /** The session's number in `session_keys`, undefined when the session has none (it does not exist). */
  function sessionNumber(sessionId: string): number | undefined {
    const known = sessionNumbers.get(sessionId);
    if (known !== undefined) return known;
    const number = statements.sessionKey.get(sessionId);
    if (number !== undefined) sessionNumbers.set(sessionId, number);
    return number;
  }

  /**
   * Insert the handle rows of one seq, in order (compact form, see `handle-rows.ts`): `HANDLE_BATCH_ROWS` rows a
   * statement, the rest one by one.
   */
  function insertHandles(
    session: number,
    seq: number,
    entry: AppendEntry,
    handles: readonly AppendEntry['handles'][number][],
  ): void {
    const row = (position: number): HandleRowValues => {
      const handle = handles[position] as AppendEntry['handles'][number];
      return [session, seq, position, ...compactHandleValues(handle, entry.span.id, entry.role, entry.span.text)];
    };
    let position = 0;
    for (; position + HANDLE_BATCH_ROWS <= handles.length; position += HANDLE_BATCH_ROWS) {
      const values: HandleRowValues[number][] = [];
      for (let index = position; index < position + HANDLE_BATCH_ROWS; index++) values.push(...row(index));
      statements.insertHandleBatch.run(...values);
    }
    for (; position < handles.length; position++) statements.insertHandle.run(...row(position));
  }

  /** Handles of stored rows, each seq's occurrence read once. */
  function handlesOfRows(sessionId: string, rows: readonly CompactHandleRow[]): Handle[] {
    const sources = new Map<number, HandleSource | undefined>();
    return rows.map((row) => {
      if (!sources.has(row.seq)) sources.set(row.seq, statements.handleSource.get(sessionId, row.seq));
      return handleOfRow(location, sessionId, row, sources.get(row.seq));
    });
  }

  function insertEntry(
    sessionId: string,
    session: number,
    tenantId: string | undefined,
    seq: number,
    entry: AppendEntry,
  ): SpanOccurrence {
    const key = storedSpanKey(spanRowKey(entry.span.id, tenantId));
    const span = storedSpan(sessionId, key, entry.span);
    statements.insertOccurrence.run(
      sessionId,
      seq,
      key,
      entry.role,
      entry.byteStart,
      entry.byteEnd,
      entry.label ?? null,
      entry.chunk?.index ?? null,
      entry.chunk?.count ?? null,
    );
    insertHandles(session, seq, entry, orderEntryHandles(entry.handles));
    statements.insertTextRow.run(sessionId, seq);
    return buildOccurrence({ ...entry, sessionId, seq, spanId: span.id }, span);
  }

  const appendTransaction = db.transaction(
    (sessionId: string, expectedNextSeq: number, entries: readonly AppendEntry[]): SpanOccurrence[] => {
      const tenantId = requireSession(sessionId, 'append');
      const actual = statements.nextSeq.get(sessionId) ?? 0;
      if (actual !== expectedNextSeq) {
        throw new SequenceConflictError(
          `${location}: append to session ${sessionId} expected next seq ${expectedNextSeq} but it is ${actual}; ` +
            'another writer appended first. Re-read the session (nextSeq) and retry.',
          { sessionId, expectedNextSeq, actualNextSeq: actual, location },
        );
      }
      const session = sessionNumber(sessionId) as number;
      return entries.map((entry, index) => insertEntry(sessionId, session, tenantId, actual + index, entry));
    },
  );

  const recordTransaction = db.transaction((record: CompactionRecord): { parts: RecordParts; written: DeltaBase } => {
    const operation = `write record ${record.id}`;
    requireSession(record.sessionId, operation);
    if (statements.recordExists.get(record.sessionId, record.id) !== undefined) {
      throw new ImmutableSpanError(
        `${location}: record ${record.id} of session ${record.sessionId} is already written and records are immutable; ` +
          'write a new record with a new id instead.',
        { sessionId: record.sessionId, recordId: record.id, location },
      );
    }
    const holder = statements.recordIdAtOrdinal.get(record.sessionId, record.ordinal);
    if (holder !== undefined) {
      throw new SequenceConflictError(
        `${location}: cannot write record ${record.id}: ordinal ${record.ordinal} of session ${record.sessionId} ` +
          `is already taken by record ${holder}; another writer got there first. ` +
          'Re-read the records and retry with the next ordinal.',
        { sessionId: record.sessionId, recordId: record.id, ordinal: record.ordinal, takenBy: holder, location },
      );
    }
    const parts = splitRecord(record);
    const ids = handleIds(record, parts);
    const body: RecordBody = { json: parts.json, ids };
    const form = rowForm(body, deltaBase(record), { packSnapshots: true });
    statements.insertRecord.run(
      record.sessionId,
      record.id,
      record.ordinal,
      record.type,
      form.json,
      record.createdAt,
      form.handleIds,
      form.baseId,
      form.delta,
      form.chain,
    );
    return { parts, written: { id: record.id, ordinal: record.ordinal, chain: form.chain, body } };
  });

  /** Content of the records this store wrote last, per session and type: the bases of the next records' deltas. */
  const bases = new DeltaBases();

  /**
   * The stored record a new record's delta is against: the last one this store wrote of its session and type, else
   * the session's last record of that type before it (rebuilt from its chain); undefined when there is none.
   */
  function deltaBase(record: CompactionRecord): DeltaBase | undefined {
    const known = bases.before(record);
    if (known !== undefined) return known;
    const row = statements.recordBefore.get(record.sessionId, record.type, record.ordinal);
    if (row === undefined) return undefined;
    return bases.rebuilt(location, record.sessionId, row, recordChain(record.sessionId, row.id));
  }

  /** The row of a record and the rows of its delta chain, nearest first. */
  function recordChain(sessionId: string, recordId: string): RecordRow[] {
    return statements.recordChain.all({ session: sessionId, id: recordId, limit: MAX_DELTA_CHAIN });
  }

  /**
   * Ids of carried handles (by JSON) of the last records written, for the session they were written to: rows of
   * `carried_handles` are append-only, so a committed handle keeps its id. Filled only after a record commits.
   */
  let knownIds: { readonly sessionId: string; readonly ids: BoundedMemo<string, number> } | undefined;

  /**
   * Ids of the record's carried handles, storing each handle the session has not stored yet: as a reference to the
   * handle row that gives its JSON, else as its JSON (`carried-handles.ts`).
   */
  function handleIds(record: CompactionRecord, parts: RecordParts): number[] {
    const { sessionId } = record;
    const known = knownIds?.sessionId === sessionId ? knownIds.ids : undefined;
    const session = sessionNumber(sessionId) as number;
    let next: number | undefined;
    let rows: SessionHandleJson | undefined;
    return parts.digests.map((fullDigest, index) => {
      const digest = fullDigest.subarray(0, CARRIED_DIGEST_BYTES);
      const json = parts.handles[index] as string;
      const stored = known?.get(json) ?? statements.carriedHandleId.get(session, digest);
      if (stored !== undefined) return stored;
      next ??= statements.nextCarriedHandleId.get(session) ?? 0;
      rows ??= handleRowJson(sessionId, session);
      const handle = record.handles[index] as Handle;
      const position = rows.positionOf(handle, json);
      if (position === undefined) statements.insertCarriedHandle.run(session, next, digest, null, null, json);
      else statements.insertCarriedHandle.run(session, next, digest, handle.seq, position, null);
      next += 1;
      return next - 1;
    });
  }

  /** Remember the ids of a committed record's carried handles (see `knownIds`). */
  function rememberIds(sessionId: string, parts: RecordParts, ids: readonly number[]): void {
    if (knownIds?.sessionId !== sessionId) knownIds = { sessionId, ids: new BoundedMemo<string, number>(MEMO_ENTRIES) };
    const memo = knownIds.ids;
    ids.forEach((id, index) => memo.set(parts.handles[index] as string, id));
  }

  /**
   * Record rows rebuilt (deltas against their bases in `rows` or `chain`, carried handles stored apart read in one range
   * scan of the session's `carried_handles`, each parsed once) and verified.
   */
  function loadRows(
    sessionId: string,
    rows: readonly RecordRow[],
    checkRowId: boolean,
    chain: readonly RecordRow[] = [],
  ): CompactionRecord[] {
    const bodies = rebuildBodies(location, sessionId, rows, chain, chain.length > 0 ? bodyMemo(sessionId) : undefined);
    const { ids, low, high, sparse } = recordRowIds(bodies);
    const stored = new Map<number, string>();
    const session = sessionNumber(sessionId);
    if (session !== undefined && low <= high) {
      const rows = handleRowJson(sessionId, session);
      const keep = (row: CarriedHandleRow | undefined) => {
        const json = row === undefined ? undefined : rows.jsonOf(row);
        if (row !== undefined && json !== undefined) stored.set(row.id, json);
      };
      if (sparse !== undefined) for (const id of sparse) keep(statements.carriedHandle.get(session, id));
      else for (const row of statements.carriedHandlesBetween.all(session, low, high)) keep(row);
    }
    return rebuildRecordRows(location, sessionId, rows, bodies, ids, stored, (row, json, handles) =>
      loadRecord(location, sessionId, json, checkRowId ? row.id : undefined, handles, storedAs(row)),
    );
  }

  /**
   * Record bodies `record()` rebuilt, by session and id: reading a chain of records one at a time (a checkpoint chain,
   * newest first) rebuilds each delta chain once, not once per record in it.
   */
  const bodies = new BoundedMemo<string, RecordBody>(BODIES_KEPT);
  const bodyMemo = (sessionId: string): BodyMemo => ({
    get: (recordId) => bodies.get(`${sessionId}\n${recordId}`),
    set: (recordId, body) => bodies.set(`${sessionId}\n${recordId}`, body),
  });

  /** A read-only connection cannot index: the rows past the mark are scanned with LIKE and ranked after the indexed hits. */
  function withPendingHits(sessionId: string, terms: readonly string[], limit: number, hits: TextHit[]): TextHit[] {
    const mark = textIndex.mark();
    const seen = new Set(hits.map((hit) => hit.seq));
    const pending = likeHits(terms, statements.pendingTexts.iterate(sessionId, mark));
    return [...hits, ...pending.filter((hit) => !seen.has(hit.seq))].slice(0, limit);
  }

  function searchWithLike(sessionId: string, terms: readonly string[], limit: number): TextHit[] {
    return likeHits(terms, statements.sessionTexts.iterate(sessionId)).slice(0, limit);
  }

  return {
    specificationVersion: LEDGER_STORE_SPECIFICATION_VERSION,
    kind: 'sqlite',
    location,

    openSession(sessionId, sessionOptions) {
      return guard(`open session ${sessionId}`, () => {
        checkId('sessionId', sessionId);
        const tenantId = sessionOptions?.tenantId;
        const open = db.transaction(() => {
          const row = statements.session.get(sessionId);
          if (row) return row;
          checkWritable(`open session ${sessionId}`);
          const created = { id: sessionId, tenant_id: tenantId ?? null, created_at: new Date().toISOString() };
          statements.insertSession.run(created.id, created.tenant_id, created.created_at);
          statements.insertSessionKey.run(created.id);
          return created;
        });
        const session = toSession(readonly ? open() : open.immediate());
        if (session.tenantId !== tenantId) throw tenantMismatch(location, sessionId, tenantId, { location });
        return session;
      });
    },

    getSession(sessionId) {
      return guard(`get session ${sessionId}`, () => {
        const row = statements.session.get(sessionId);
        return row ? toSession(row) : undefined;
      });
    },

    listSessions(listOptions) {
      return guard('list sessions', () => {
        const tenantId = listOptions?.tenantId;
        return (tenantId === undefined ? statements.sessions.all() : statements.sessionsOfTenant.all(tenantId)).map(
          toSession,
        );
      });
    },

    append(sessionId, expectedNextSeq, entries) {
      return guard(`append to session ${sessionId}`, () => {
        checkAppend(sessionId, expectedNextSeq, entries);
        checkWritable(`append to session ${sessionId}`);
        const written = appendTransaction.immediate(sessionId, expectedNextSeq, entries);
        wrote();
        textIndex.appended();
        return written;
      });
    },

    nextSeq(sessionId) {
      return guard(`read next seq of session ${sessionId}`, () => statements.nextSeq.get(sessionId) ?? 0);
    },

    occurrences(sessionId, range?: SeqRange) {
      return guard(`read occurrences of session ${sessionId}`, () =>
        statements.occurrences.all(sessionId, range?.fromSeq ?? 0, range?.toSeq ?? LAST_SEQ).map(toOccurrence),
      );
    },

    occurrencesOf(sessionId, spanId) {
      return guard(`read occurrences of span ${spanId} in session ${sessionId}`, () =>
        statements.occurrencesOfSpan.all(sessionId, ...rowKeys(sessionId, spanId)).map(toOccurrence),
      );
    },

    spans(sessionId, ids) {
      return guard(`read spans of session ${sessionId}`, () =>
        ids.flatMap((id) => {
          const row = statements.spanOfSession.get(...rowKeys(sessionId, id), sessionId);
          return row ? [toSpan(row)] : [];
        }),
      );
    },

    findHandles(sessionId, key, page) {
      return guard(`find handles of session ${sessionId}`, () => {
        const { fromSeq, limit } = checkHandlePage(page, { sessionId, key });
        const session = sessionNumber(sessionId);
        if (session === undefined) return [];
        const rowLimit = limit === Number.POSITIVE_INFINITY ? -1 : limit;
        const found: Handle[] = [];
        // The index narrows by a 32-bit digest of the key: rows of another key with the same digest are dropped, and
        // the next rows read, until the page is full or the rows run out.
        for (let offset = 0; ;) {
          const rows = statements.handlesByKey.all(session, keyHash(key), fromSeq, rowLimit, offset);
          for (const handle of handlesOfRows(sessionId, rows))
            if (handle.key === key && found.length < limit) found.push(handle);
          if (rowLimit === -1 || rows.length < rowLimit || found.length >= limit) return found;
          offset += rows.length;
        }
      });
    },

    countHandles(sessionId, key) {
      return guard(`count handles of session ${sessionId}`, () => {
        const session = sessionNumber(sessionId);
        return session === undefined ? 0 : (statements.handleCountByKey.get(session, keyHash(key)) ?? 0);
      });
    },

    handles(sessionId, range?: SeqRange) {
      return guard(`read handles of session ${sessionId}`, () => {
        const session = sessionNumber(sessionId);
        if (session === undefined) return [];
        return handlesOfRows(sessionId, statements.handles.all(session, range?.fromSeq ?? 0, range?.toSeq ?? LAST_SEQ));
      });
    },

    searchText(sessionId, query, limit) {
      return guard(`search session ${sessionId}`, () => {
        checkCount('limit', limit, { sessionId });
        const terms = searchTerms(query);
        if (terms.length === 0 || limit === 0) return [];
        const trigramReady = terms.every((term) => [...term].length >= 3);
        if (!trigramReady) return searchWithLike(sessionId, terms, limit);
        if (!readonly) textIndex.catchUp();
        const hits = textSearch.search(sessionId, terms, limit);
        return readonly && textIndex.pending() ? withPendingHits(sessionId, terms, limit, hits) : hits;
      });
    },

    writeRecord(record) {
      return guard(`write record ${String(record?.id)} of session ${String(record?.sessionId)}`, () => {
        const copy = checkRecord(record);
        checkWritable(`write record ${copy.id}`);
        const { parts, written } = recordTransaction.immediate(copy);
        rememberIds(copy.sessionId, parts, written.body.ids);
        bases.wrote(copy, written);
        wrote();
      });
    },

    records(sessionId) {
      return guard(`read records of session ${sessionId}`, () =>
        loadRows(sessionId, statements.records.all(sessionId), false),
      );
    },

    recordCount(sessionId) {
      return guard(`count records of session ${sessionId}`, () => statements.recordCount.get(sessionId) ?? 0);
    },

    record(sessionId, recordId) {
      return guard(`read record ${recordId} of session ${sessionId}`, () => {
        const [row, ...chain] = recordChain(sessionId, recordId);
        if (row === undefined) return undefined;
        try {
          return loadRows(sessionId, [row], true, chain)[0];
        } catch (error) {
          // A chain that did not rebuild or check may have left wrong bodies behind: read the rows again next time.
          bodies.clear();
          throw error;
        }
      });
    },

    async close() {
      textIndex.stop();
      if (!readonly && db.open) {
        try {
          textIndex.catchUp();
        } catch {
          // Busy or failing: the rows stay past the mark, and the next writer or search indexes them.
        }
      }
      // The worker's connection closes first, so the writer's close is the last one and checkpoints the WAL away.
      await checkpointer?.stop();
      return guard('close', () => {
        if (db.open) db.close();
      });
    },
  };
}
