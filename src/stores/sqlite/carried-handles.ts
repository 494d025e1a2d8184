/**
 * A record's carried handles in SQLite (schema version 8): most of them are handles of the session's own spans, stored
 * already as handle rows (`handle-rows.ts`). A `carried_handles` row then names that handle row (`seq`, `position`)
 * instead of holding the handle's JSON; the JSON is kept only for a handle no handle row gives byte for byte (an
 * external summary's handle, a handle whose fields differ). A row is written as a reference only when the handle
 * row's JSON equals the carried handle's JSON exactly, so a read rebuilds the same text, and the record is checked
 * against its id on load as before: a handle row changed below the API fails that check.
 */
import type Database from 'better-sqlite3';
import { handleJson } from '../../compaction/record-json.js';
import { handleOfRow, type CompactHandleRow, type HandleSource } from './handle-rows.js';
import { HANDLE_READ_COLUMNS } from './statements.js';

/** Where a carried handle's JSON comes from: a handle row, or the JSON itself. */
export interface CarriedHandleRow {
  id: number;
  seq: number | null;
  position: number | null;
  json: string | null;
}

/** Carried-handle JSON from the handle rows of one session, read for one operation (a write or a read of records). */
export interface SessionHandleJson {
  /** Position of the handle row of `seq` whose handle's JSON is `json`; undefined when none is. */
  positionOf(seq: number, json: string): number | undefined;
  /** The JSON of a carried-handle row: its own, or its handle row's (undefined when that row is missing). */
  jsonOf(row: CarriedHandleRow): string | undefined;
}

/**
 * Prepares the reads over `db` (`location` names the ledger in errors); `forSession` starts one operation, whose cache
 * of the handle rows it read lives as long as it does.
 */
export function createHandleRowJson(
  db: Database.Database,
  location: string,
): (sessionId: string, session: number) => SessionHandleJson {
  const rowsOfSeq = db.prepare(
    `SELECT ${HANDLE_READ_COLUMNS} FROM handle_rows WHERE session = ? AND seq = ? ORDER BY position`,
  ) as Database.Statement<[number, number], CompactHandleRow>;
  const source = db.prepare(
    `SELECT o.span_id, o.role, s.text FROM occurrences o JOIN spans s ON s.id = o.span_id
     WHERE o.session_id = ? AND o.seq = ?`,
  ) as Database.Statement<[string, number], HandleSource>;

  return (sessionId, session) => {
    /** JSON of each handle row of the seqs read, by position. */
    const bySeq = new Map<number, string[]>();
    function jsonOfSeq(seq: number): string[] {
      let list = bySeq.get(seq);
      if (list === undefined) {
        const rows = rowsOfSeq.all(session, seq);
        const from = rows.length === 0 ? undefined : source.get(sessionId, seq);
        list = [];
        for (const row of rows) list[row.position] = handleJson(handleOfRow(location, sessionId, row, from));
        bySeq.set(seq, list);
      }
      return list;
    }
    return {
      positionOf(seq, json) {
        if (!Number.isSafeInteger(seq) || seq < 0) return undefined;
        const position = jsonOfSeq(seq).indexOf(json);
        return position < 0 ? undefined : position;
      },
      jsonOf(row) {
        if (row.json !== null) return row.json;
        if (row.seq === null || row.position === null) return undefined;
        return jsonOfSeq(row.seq)[row.position];
      },
    };
  };
}
