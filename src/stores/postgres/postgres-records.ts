/**
 * The records part of the PostgreSQL store: a record's carried handles are stored once per session in
 * `record_handles` (by digest) and the record row names their ids; the row is a delta against the last record of its
 * session and type when that is smaller (`record-delta.ts`). Reads rebuild the rows and verify each record against
 * its content-derived id.
 */
import { ImmutableSpanError, NotFoundError, SequenceConflictError } from '../../errors.js';
import type { CompactionRecord } from '../../types.js';
import { ChainHandles, identityOfJson } from '../chain-identities.js';
import type { HandleIdentity } from '../store.js';
import { DeltaBases } from '../delta-bases.js';
import { MAX_DELTA_CHAIN, rebuildBodies, rowForm, storedAs, type DeltaBase } from '../record-delta.js';
import {
  brokenRow,
  handleDigestMemo,
  rebuildRecordRows,
  recordRowIds,
  sparseIds,
  splitRecord,
} from '../record-handles.js';
import { checkRecord, loadRecord } from '../store-input.js';
import type { RecordPart } from '../store-parts.js';
import { checkNoNul } from './append-batch.js';
import type { PostgresContext } from './postgres-context.js';
import type { RecordRow, SessionRow } from './queries.js';

const NUL = '\u0000';

/** Record writes and reads of one PostgreSQL store. */
export class PostgresRecords implements RecordPart {
  /** Content of the records this store wrote last, per session and type: the bases of the next records' deltas. */
  private readonly lastWrittenBases = new DeltaBases();
  /** Digests of the carried-handle JSON of the last records split (`splitRecord`). */
  private readonly handleDigests = handleDigestMemo();

  constructor(private readonly context: PostgresContext) {}

  async writeRecord(record: CompactionRecord): Promise<void> {
    const { sql } = this.context;
    const copy = checkRecord(record);
    checkNoNul('record.id', copy.id);
    checkNoNul('record.sessionId', copy.sessionId);
    checkNoNul('record.type', copy.type);
    const operation = `write record ${copy.id} of session ${copy.sessionId}`;
    await this.requireSession(operation, copy.sessionId);
    const parts = splitRecord(copy, this.handleDigests);
    // Handles the session does not hold yet are stored even when the record then loses its id or ordinal to another
    // writer: rows of record_handles are append-only and only ever named by records, so later records reuse them.
    const [stored] = await this.context.write<{ ids: string[] }>(operation, sql.storeRecordHandles, [
      copy.sessionId,
      parts.digests,
      parts.handles,
    ]);
    const body = { json: parts.json, ids: (stored?.ids ?? []).map(Number) };
    const form = rowForm(body, await this.deltaBase(operation, copy));
    const [written] = await this.context.write<{ id: string }>(operation, sql.insertRecord, [
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
    if (written === undefined) throw await this.conflict(operation, copy);
    this.lastWrittenBases.wrote(copy, { id: copy.id, ordinal: copy.ordinal, chain: form.chain, body });
  }

  async records(sessionId: string): Promise<CompactionRecord[]> {
    if (sessionId.includes(NUL)) return [];
    const operation = `read records of session ${sessionId}`;
    const rows = await this.context.read<RecordRow>(operation, this.context.sql.records, [sessionId]);
    return this.loadRows(operation, sessionId, rows, false);
  }

  async recordCount(sessionId: string): Promise<number> {
    if (sessionId.includes(NUL)) return 0;
    const operation = `count records of session ${sessionId}`;
    const rows = await this.context.read<{ count: number }>(operation, this.context.sql.recordCount, [sessionId]);
    return rows[0]?.count ?? 0;
  }

  async record(sessionId: string, recordId: string): Promise<CompactionRecord | undefined> {
    if (sessionId.includes(NUL) || recordId.includes(NUL)) return undefined;
    const operation = `read record ${recordId} of session ${sessionId}`;
    const [row, ...chain] = await this.recordChain(operation, sessionId, recordId);
    return row === undefined ? undefined : (await this.loadRows(operation, sessionId, [row], true, chain))[0];
  }

  async chainHandleIdentities(sessionId: string, headId: string): Promise<HandleIdentity[]> {
    if (sessionId.includes(NUL)) return [];
    const { location, sql } = this.context;
    const operation = `read the checkpoint chain ${headId} of session ${sessionId}`;
    const chain = new ChainHandles();
    for (let id: string | undefined = headId; id !== undefined && !chain.walked(id) && !id.includes(NUL);) {
      const [row, ...rows] = await this.recordChain(operation, sessionId, id);
      if (row === undefined) break;
      const [body] = rebuildBodies(location, sessionId, [row], rows);
      id = chain.step(id, body, row.json, { location, sessionId, recordId: row.id });
    }
    const ids = [...chain.ids].sort((a, b) => a - b);
    const [low, high] = [ids[0], ids[ids.length - 1]];
    if (low === undefined || high === undefined) return chain.result();
    const sparse = sparseIds([ids], low, high);
    const found = new Map<number, string>();
    const values = sparse === undefined ? [sessionId, low, high] : [sessionId, sparse];
    const query = sparse === undefined ? sql.recordHandles : sql.recordHandlesByIds;
    for (const row of await this.context.read<{ id: string; json: string }>(operation, query, values))
      found.set(Number(row.id), row.json);
    for (const handleId of ids) {
      const json = found.get(handleId);
      if (json === undefined)
        throw brokenRow(
          { location, sessionId, recordId: headId },
          `carried handle ${handleId} its chain names is missing`,
        );
      chain.add(identityOfJson(JSON.parse(json)));
    }
    return chain.result();
  }

  /** Throws `NotFoundError` when the session does not exist. */
  private async requireSession(operation: string, sessionId: string): Promise<void> {
    const { sql, location } = this.context;
    const [session] = await this.context.read<SessionRow>(operation, sql.session, [sessionId]);
    if (!session) {
      throw new NotFoundError(
        `${location}: ${operation}: session ${sessionId} does not exist; call openSession(${JSON.stringify(sessionId)}) first.`,
        { sessionId, location },
      );
    }
  }

  /** Why a record row was not inserted: its id is written already (`ImmutableSpanError`) or its ordinal taken. */
  private async conflict(operation: string, copy: CompactionRecord): Promise<Error> {
    const { sql, location } = this.context;
    const [holder] = await this.context.read<{ id: string; ordinal: string }>(operation, sql.recordConflict, [
      copy.sessionId,
      copy.id,
      copy.ordinal,
    ]);
    if (!holder || holder.id === copy.id) {
      return new ImmutableSpanError(
        `${location}: record ${copy.id} of session ${copy.sessionId} is already written and records are immutable; ` +
          'write a new record with a new id instead.',
        { sessionId: copy.sessionId, recordId: copy.id, location },
      );
    }
    return new SequenceConflictError(
      `${location}: cannot write record ${copy.id}: ordinal ${copy.ordinal} of session ${copy.sessionId} ` +
        `is already taken by record ${holder.id}; another writer got there first. ` +
        'Re-read the records and retry with the next ordinal.',
      { sessionId: copy.sessionId, recordId: copy.id, ordinal: copy.ordinal, takenBy: holder.id, location },
    );
  }

  /**
   * The stored record a new record's delta is against: the last one this store wrote of its session and type, else
   * the session's last record of that type before it (rebuilt from its chain); undefined when there is none.
   */
  private async deltaBase(operation: string, record: CompactionRecord): Promise<DeltaBase | undefined> {
    const known = this.lastWrittenBases.before(record);
    if (known !== undefined) return known;
    const [row] = await this.context.read<{ id: string; ordinal: string; chain: number }>(
      operation,
      this.context.sql.recordBefore,
      [record.sessionId, record.type, record.ordinal],
    );
    if (row === undefined) return undefined;
    const chain = await this.recordChain(operation, record.sessionId, row.id);
    const base = { ...row, ordinal: Number(row.ordinal) };
    return this.lastWrittenBases.rebuilt(this.context.location, record.sessionId, base, chain);
  }

  /** The row of a record and the rows of its delta chain, nearest first. */
  private recordChain(operation: string, sessionId: string, recordId: string): Promise<RecordRow[]> {
    return this.context.read<RecordRow>(operation, this.context.sql.recordChain, [
      sessionId,
      recordId,
      MAX_DELTA_CHAIN,
    ]);
  }

  /**
   * Record rows rebuilt (carried handles stored apart read in one query, of their id range or of the ids themselves when
   * the range is sparse, each parsed once) and verified.
   */
  private async loadRows(
    operation: string,
    sessionId: string,
    rows: readonly RecordRow[],
    checkRowId: boolean,
    chain: readonly RecordRow[] = [],
  ): Promise<CompactionRecord[]> {
    const { sql, location } = this.context;
    const bodies = rebuildBodies(location, sessionId, rows, chain);
    const { ids, low, high, sparse } = recordRowIds(bodies);
    const stored = new Map<number, string>();
    const found =
      sparse !== undefined
        ? await this.context.read<{ id: string; json: string }>(operation, sql.recordHandlesByIds, [sessionId, sparse])
        : low <= high
          ? await this.context.read<{ id: string; json: string }>(operation, sql.recordHandles, [sessionId, low, high])
          : [];
    for (const row of found) stored.set(Number(row.id), row.json);
    return rebuildRecordRows(location, sessionId, rows, bodies, ids, stored, (row, json, handles) =>
      loadRecord(location, sessionId, json, checkRowId ? row.id : undefined, handles, storedAs(row)),
    );
  }
}
