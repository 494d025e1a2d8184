/**
 * The records part of the SQLite store: a record is written in one immediate transaction, its carried handles by id
 * (`carried-handle-ids.ts`) and its row as a delta against the last record of its session and type when that is
 * smaller (`record-delta.ts`); reads rebuild the rows and verify each record against its content-derived id.
 */
import { ImmutableSpanError, SequenceConflictError } from '../../errors.js';
import { BoundedMemo } from '../../collections/bounded-memo.js';
import type { CompactionRecord } from '../../types.js';
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
import {
  handleDigestMemo,
  lazyRecordParts,
  rebuildRecordRows,
  recordRowIds,
  type LazyRecordParts,
} from '../record-handles.js';
import { checkRecord, loadRecord } from '../store-input.js';
import type { RecordPart } from '../store-parts.js';
import { ChainHandles } from '../chain-identities.js';
import type { HandleIdentity } from '../store.js';
import { CarriedHandleIds } from './carried-handle-ids.js';
import { SqliteHandleIdentities } from './handle-identities.js';
import type { SqliteContext } from './sqlite-context.js';
import type { RecordRow } from './statements.js';
import type { WriteUpkeep } from './write-upkeep.js';

/** Record bodies a store remembers for `record()`: a few snapshot intervals' worth (`SNAPSHOT_INTERVAL` is 32). */
const BODIES_KEPT = 256;

/** Record writes and reads of one SQLite store. */
export class SqliteRecords implements RecordPart {
  private readonly recordTransaction;
  /** The carried handles of the records, stored and read by id. */
  private readonly carriedHandles: CarriedHandleIds;
  /** Content of the records this store wrote last, per session and type: the bases of the next records' deltas. */
  private readonly lastWrittenBases = new DeltaBases();
  /** Digests of the carried-handle JSON of the last records split (`lazyRecordParts`). */
  private readonly handleDigests = handleDigestMemo();
  /**
   * Record bodies `record()` rebuilt, by session and id: reading a chain of records one at a time (a checkpoint chain,
   * newest first) rebuilds each delta chain once, not once per record in it.
   */
  private readonly rebuiltBodies = new BoundedMemo<string, RecordBody>(BODIES_KEPT);
  /** Carried-handle identities read without building records (`chainHandleIdentities`). */
  private readonly identities: SqliteHandleIdentities;

  constructor(
    private readonly context: SqliteContext,
    private readonly upkeep: WriteUpkeep,
  ) {
    this.carriedHandles = new CarriedHandleIds(context);
    this.identities = new SqliteHandleIdentities(context);
    this.recordTransaction = context.db.transaction((record: CompactionRecord) => this.writeRows(record));
  }

  writeRecord(record: CompactionRecord): Promise<void> {
    return this.context.guard(`write record ${String(record?.id)} of session ${String(record?.sessionId)}`, () => {
      const copy = checkRecord(record);
      this.context.checkWritable(`write record ${copy.id}`);
      const { parts, written } = this.context.writes.run(`write record ${copy.id}`, () =>
        this.recordTransaction.immediate(copy),
      );
      this.carriedHandles.committed(copy, parts, written.body.ids);
      this.lastWrittenBases.wrote(copy, written);
      this.upkeep.wrote();
    });
  }

  records(sessionId: string): Promise<CompactionRecord[]> {
    const { statements } = this.context;
    return this.context.guard(`read records of session ${sessionId}`, () =>
      this.loadRows(sessionId, statements.records.all(sessionId), false),
    );
  }

  recordCount(sessionId: string): Promise<number> {
    const { statements } = this.context;
    return this.context.guard(
      `count records of session ${sessionId}`,
      () => statements.recordCount.get(sessionId) ?? 0,
    );
  }

  record(sessionId: string, recordId: string): Promise<CompactionRecord | undefined> {
    return this.context.guard(`read record ${recordId} of session ${sessionId}`, () => {
      const [row, ...chain] = this.recordChain(sessionId, recordId);
      if (row === undefined) return undefined;
      try {
        return this.loadRows(sessionId, [row], true, chain)[0];
      } catch (error) {
        // A chain that did not rebuild or check may have left wrong bodies behind: read the rows again next time.
        this.rebuiltBodies.clear();
        throw error;
      }
    });
  }

  chainHandleIdentities(sessionId: string, headId: string): Promise<HandleIdentity[]> {
    const { location, sessions } = this.context;
    return this.context.guard(`read the checkpoint chain ${headId} of session ${sessionId}`, () => {
      const chain = new ChainHandles();
      try {
        for (let id: string | undefined = headId; id !== undefined && !chain.walked(id);) {
          const [row, ...rows] = this.recordChain(sessionId, id);
          if (row === undefined) break;
          const [body] = rebuildBodies(location, sessionId, [row], rows, this.bodyMemo(sessionId));
          id = chain.step(id, body, row.json, { location, sessionId, recordId: row.id });
        }
      } catch (error) {
        // As in `record()`: a chain that did not rebuild may have left wrong bodies behind.
        this.rebuiltBodies.clear();
        throw error;
      }
      const session = sessions.numberOf(sessionId);
      if (session !== undefined) this.identities.carried(sessionId, session, headId, chain);
      return chain.result();
    });
  }

  /** Inside the write transaction: the id and ordinal checked free, the carried handles stored, the row written. */
  private writeRows(record: CompactionRecord): { parts: LazyRecordParts; written: DeltaBase } {
    const { statements, sessions } = this.context;
    sessions.require(record.sessionId, `write record ${record.id}`);
    this.checkFree(record);
    const parts = lazyRecordParts(record);
    const ids = this.carriedHandles.store(record, parts, this.handleDigests);
    const body: RecordBody = { json: parts.json, ids };
    const form = rowForm(body, this.deltaBase(record), { packSnapshots: true });
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
  }

  /** Throws unless the record's id is not written yet (`ImmutableSpanError`) and its ordinal is free (`SequenceConflictError`). */
  private checkFree(record: CompactionRecord): void {
    const { statements, location } = this.context;
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
  }

  /**
   * The stored record a new record's delta is against: the last one this store wrote of its session and type, else
   * the session's last record of that type before it (rebuilt from its chain); undefined when there is none.
   */
  private deltaBase(record: CompactionRecord): DeltaBase | undefined {
    const known = this.lastWrittenBases.before(record);
    if (known !== undefined) return known;
    const row = this.context.statements.recordBefore.get(record.sessionId, record.type, record.ordinal);
    if (row === undefined) return undefined;
    const chain = this.recordChain(record.sessionId, row.id);
    return this.lastWrittenBases.rebuilt(this.context.location, record.sessionId, row, chain);
  }

  /** The row of a record and the rows of its delta chain, nearest first. */
  private recordChain(sessionId: string, recordId: string): RecordRow[] {
    return this.context.statements.recordChain.all({ session: sessionId, id: recordId, limit: MAX_DELTA_CHAIN });
  }

  /**
   * Record rows rebuilt (deltas against their bases in `rows` or `chain`, carried handles stored apart read in one range
   * scan of the session's `carried_handles`, each parsed once) and verified.
   */
  private loadRows(
    sessionId: string,
    rows: readonly RecordRow[],
    checkRowId: boolean,
    chain: readonly RecordRow[] = [],
  ): CompactionRecord[] {
    const { location } = this.context;
    const memo = chain.length > 0 ? this.bodyMemo(sessionId) : undefined;
    const bodies = rebuildBodies(location, sessionId, rows, chain, memo);
    const { ids, low, high, sparse } = recordRowIds(bodies);
    const stored = this.carriedHandles.read(sessionId, { low, high, sparse });
    return rebuildRecordRows(location, sessionId, rows, bodies, ids, stored, (row, json, handles) =>
      loadRecord(location, sessionId, json, checkRowId ? row.id : undefined, handles, storedAs(row)),
    );
  }

  /** The session's view of `rebuiltBodies`. */
  private bodyMemo(sessionId: string): BodyMemo {
    return {
      get: (recordId) => this.rebuiltBodies.get(`${sessionId}\n${recordId}`),
      set: (recordId, body) => this.rebuiltBodies.set(`${sessionId}\n${recordId}`, body),
    };
  }
}
