/**
 * A record's carried handles in `carried_handles`, by id: each distinct handle of a session is stored once (as a
 * reference to the handle row that gives its JSON, else as its JSON: `carried-handles.ts`), and a record row names
 * the ids. Rows of `carried_handles` are append-only, so a committed handle keeps its id.
 */
import { BoundedMemo } from '../../collections/bounded-memo.js';
import type { CompactionRecord } from '../../types.js';
import { MEMO_ENTRIES, type HandleDigestMemo, type LazyRecordParts } from '../record-handles.js';
import { isVouched } from '../vouched-records.js';
import { createHandleRowJson, type CarriedHandleRow, type SessionHandleJson } from './carried-handles.js';
import { CARRIED_DIGEST_BYTES } from './schema.js';
import type { SqliteContext } from './sqlite-context.js';

/** Which carried handles a read needs: the id range of its records, or the ids themselves when the range is sparse. */
export interface CarriedIdRange {
  readonly low: number;
  readonly high: number;
  readonly sparse: readonly number[] | undefined;
}

/** The carried handles of one SQLite store's records. */
export class CarriedHandleIds {
  /** Carried-handle JSON from the session's handle rows (it keeps the occurrences it read for the session read last). */
  private readonly handleRowJson: (sessionId: string, session: number) => SessionHandleJson;
  /**
   * Ids by JSON of the carried handles of the last records written, for the session they were written to. Filled only
   * after a record commits.
   */
  private idsOfLastRecords: { readonly sessionId: string; readonly idByJson: BoundedMemo<string, number> } | undefined;
  /**
   * Ids by handle object of the carried handles of the vouched records written to one session (`vouched-records.ts`:
   * deep-frozen, so each handle object always has the same JSON, hence digest and id). A compaction re-carries the
   * same handle objects record after record (on the real SWE-agent replay at 32,000 tokens: 226,862 carried handles,
   * 25,528 distinct objects): found here, a handle is neither stringified, nor digested, nor looked up by its JSON.
   * Filled only after a record commits; a weak map, so it holds no handle the session let go of.
   */
  private idsOfHandles: { readonly sessionId: string; readonly idByHandle: WeakMap<object, number> } | undefined;

  constructor(private readonly context: SqliteContext) {
    this.handleRowJson = createHandleRowJson(context.db, context.location, context.recent);
  }

  /**
   * Inside the record's write transaction: ids of its carried handles, storing each handle the session has not stored
   * yet: as a reference to the handle row that gives its JSON, else as its JSON. `parts` gives a handle's JSON and
   * digest when they are needed (a handle found by object or by JSON needs no digest).
   */
  store(record: CompactionRecord, parts: LazyRecordParts, digests: HandleDigestMemo): number[] {
    const { statements, sessions } = this.context;
    const { sessionId } = record;
    const known = this.idsOfLastRecords?.sessionId === sessionId ? this.idsOfLastRecords.idByJson : undefined;
    const byHandle = this.handleIds(record);
    const session = sessions.numberOf(sessionId) as number;
    let next: number | undefined;
    let rows: SessionHandleJson | undefined;
    return record.handles.map((handle, index) => {
      const held = byHandle?.get(handle);
      if (held !== undefined) return held;
      const json = parts.handle(index);
      // Most handles were carried by the last record too: found by JSON before the digest is cut (a view per handle).
      const remembered = known?.get(json);
      if (remembered !== undefined) return remembered;
      const digest = parts.digest(index, digests).subarray(0, CARRIED_DIGEST_BYTES);
      const stored = statements.carriedHandleId.get(session, digest);
      if (stored !== undefined) return stored;
      next ??= statements.nextCarriedHandleId.get(session) ?? 0;
      rows ??= this.handleRowJson(sessionId, session);
      const position = rows.positionOf(handle, json);
      if (position === undefined) statements.insertCarriedHandle.run(session, next, digest, null, null, json);
      else statements.insertCarriedHandle.run(session, next, digest, handle.seq, position, null);
      next += 1;
      return next - 1;
    });
  }

  /** After the record committed: remember the ids of its carried handles (see `idsOfLastRecords`, `idsOfHandles`). */
  committed(record: CompactionRecord, parts: LazyRecordParts, ids: readonly number[]): void {
    const { sessionId } = record;
    if (isVouched(record)) {
      // By object only: the JSON of these handles is not built at all when the next records carry them again.
      if (this.idsOfHandles?.sessionId !== sessionId) this.idsOfHandles = { sessionId, idByHandle: new WeakMap() };
      const byHandle = this.idsOfHandles.idByHandle;
      record.handles.forEach((handle, index) => byHandle.set(handle, ids[index] as number));
      return;
    }
    if (this.idsOfLastRecords?.sessionId !== sessionId)
      this.idsOfLastRecords = { sessionId, idByJson: new BoundedMemo<string, number>(MEMO_ENTRIES) };
    const memo = this.idsOfLastRecords.idByJson;
    // Started over before it fills, not midway (that kept only the tail of this record's handles): the next record
    // finds every handle of this one.
    if (memo.size + ids.length > MEMO_ENTRIES) memo.clear();
    ids.forEach((id, index) => memo.set(parts.handle(index), id));
  }

  /** The ids by handle object of the record's session, when the record is vouched for (its handles deep-frozen). */
  private handleIds(record: CompactionRecord): WeakMap<object, number> | undefined {
    if (!isVouched(record) || this.idsOfHandles?.sessionId !== record.sessionId) return undefined;
    return this.idsOfHandles.idByHandle;
  }

  /** The stored JSON of the session's carried handles in `range` (read in one range scan, or id by id when sparse). */
  read(sessionId: string, range: CarriedIdRange): Map<number, string> {
    const { statements, sessions } = this.context;
    const { low, high, sparse } = range;
    const stored = new Map<number, string>();
    const session = sessions.numberOf(sessionId);
    if (session !== undefined && low <= high) {
      const rows = this.handleRowJson(sessionId, session);
      const keep = (row: CarriedHandleRow | undefined) => {
        const json = row === undefined ? undefined : rows.jsonOf(row);
        if (row !== undefined && json !== undefined) stored.set(row.id, json);
      };
      if (sparse !== undefined) for (const id of sparse) keep(statements.carriedHandle.get(session, id));
      else for (const row of statements.carriedHandlesBetween.all(session, low, high)) keep(row);
    }
    return stored;
  }
}
