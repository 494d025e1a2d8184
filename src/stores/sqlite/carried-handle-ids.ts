/**
 * A record's carried handles in `carried_handles`, by id: each distinct handle of a session is stored once (as a
 * reference to the handle row that gives its JSON, else as its JSON: `carried-handles.ts`), and a record row names
 * the ids. Rows of `carried_handles` are append-only, so a committed handle keeps its id.
 */
import { BoundedMemo } from '../../collections/bounded-memo.js';
import type { CompactionRecord, Handle } from '../../types.js';
import { MEMO_ENTRIES, type RecordParts } from '../record-handles.js';
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

  constructor(private readonly context: SqliteContext) {
    this.handleRowJson = createHandleRowJson(context.db, context.location, context.recent);
  }

  /**
   * Inside the record's write transaction: ids of its carried handles, storing each handle the session has not stored
   * yet: as a reference to the handle row that gives its JSON, else as its JSON.
   */
  store(record: CompactionRecord, parts: RecordParts): number[] {
    const { statements, sessions } = this.context;
    const { sessionId } = record;
    const known = this.idsOfLastRecords?.sessionId === sessionId ? this.idsOfLastRecords.idByJson : undefined;
    const session = sessions.numberOf(sessionId) as number;
    let next: number | undefined;
    let rows: SessionHandleJson | undefined;
    return parts.digests.map((fullDigest, index) => {
      const json = parts.handles[index] as string;
      // Most handles were carried by the last record too: found by JSON before the digest is cut (a view per handle).
      const remembered = known?.get(json);
      if (remembered !== undefined) return remembered;
      const digest = fullDigest.subarray(0, CARRIED_DIGEST_BYTES);
      const stored = statements.carriedHandleId.get(session, digest);
      if (stored !== undefined) return stored;
      next ??= statements.nextCarriedHandleId.get(session) ?? 0;
      rows ??= this.handleRowJson(sessionId, session);
      const handle = record.handles[index] as Handle;
      const position = rows.positionOf(handle, json);
      if (position === undefined) statements.insertCarriedHandle.run(session, next, digest, null, null, json);
      else statements.insertCarriedHandle.run(session, next, digest, handle.seq, position, null);
      next += 1;
      return next - 1;
    });
  }

  /** After the record committed: remember the ids of its carried handles (see `idsOfLastRecords`). */
  committed(sessionId: string, parts: RecordParts, ids: readonly number[]): void {
    if (this.idsOfLastRecords?.sessionId !== sessionId)
      this.idsOfLastRecords = { sessionId, idByJson: new BoundedMemo<string, number>(MEMO_ENTRIES) };
    const memo = this.idsOfLastRecords.idByJson;
    // Started over before it fills, not midway (that kept only the tail of this record's handles): the next record
    // finds every handle of this one.
    if (memo.size + ids.length > MEMO_ENTRIES) memo.clear();
    ids.forEach((id, index) => memo.set(parts.handles[index] as string, id));
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
