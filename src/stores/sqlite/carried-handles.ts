/**
 * A record's carried handles in SQLite (schema version 8): most of them are handles of the session's own spans, stored
 * already as handle rows (`handle-rows.ts`). A `carried_handles` row then names that handle row (`seq`, `position`)
 * instead of holding the handle's JSON; the JSON is kept only for a handle no handle row gives byte for byte (an
 * external summary's handle, a handle whose fields differ). A row is written as a reference only when the handle
 * row's JSON equals the carried handle's JSON exactly, so a read rebuilds the same text, and the record is checked
 * against its id on load as before: a handle row changed below the API fails that check.
 */
import type Database from 'better-sqlite3';
import { BoundedMemo } from '../../collections/bounded-memo.js';
import { handleOfRow, type CompactHandleRow, type HandleSource } from './handle-rows.js';
import type { RecentWrites } from './recent-writes.js';
import { SPAN_TEXT } from './span-text.js';
import { HANDLE_READ_COLUMNS } from './statements.js';
import type { CarriedHandleRow } from './statements.js';

export type { CarriedHandleRow } from './statements.js';

/** Where a carried handle's JSON comes from: a handle row, or the JSON itself. */
/** Where a carried handle sits in its span: what narrows the handle rows that may give it. */
export interface HandlePlace {
  readonly seq: number;
  readonly start: number;
  readonly end: number;
}

/** Carried-handle JSON from the handle rows of one session, read for one operation (a write or a read of records). */
export interface SessionHandleJson {
  /** Position of the handle row at `place` whose handle's JSON is `json`; undefined when none is. */
  positionOf(place: HandlePlace, json: string): number | undefined;
  /** The JSON of a carried-handle row: its own, or its handle row's (undefined when that row is missing). */
  jsonOf(row: CarriedHandleRow): string | undefined;
}

/** Occurrences (with their span text) remembered for the carried handles read: about 1 MB of text at most. */
const SOURCES_KEPT = 2_048;

/**
 * Prepares the reads over `db` (`location` names the ledger in errors; occurrences held in `recent` are not read
 * again); the function returned starts one operation, whose cache of the occurrences it read lives as long as it does.
 */
export function createHandleRowJson(
  db: Database.Database,
  location: string,
  recent?: RecentWrites,
): (sessionId: string, session: number) => SessionHandleJson {
  const rowsAt = db.prepare(
    `SELECT ${HANDLE_READ_COLUMNS} FROM handle_rows WHERE session = ? AND seq = ? AND start = ? AND "end" = ?
     ORDER BY position`,
  ) as Database.Statement<[number, number, number, number], CompactHandleRow>;
  const rowAt = db.prepare(
    `SELECT ${HANDLE_READ_COLUMNS} FROM handle_rows WHERE session = ? AND seq = ? AND position = ?`,
  ) as Database.Statement<[number, number, number], CompactHandleRow>;
  const source = db.prepare(
    `SELECT o.span_id, o.role, ${SPAN_TEXT} AS text FROM occurrences o JOIN spans s ON s.id = o.span_id
     WHERE o.session_id = ? AND o.seq = ?`,
  ) as Database.Statement<[string, number], HandleSource>;

  /**
   * The occurrence of each seq read (what a handle row's NULL columns are taken from), for the session read last:
   * occurrences are append-only, so one read of an occurrence that exists serves every later operation on the
   * session (reading a checkpoint chain record by record meets the same spans again and again).
   */
  let sourcesOfLastSession:
    { readonly sessionId: string; readonly bySeq: BoundedMemo<number, HandleSource> } | undefined;

  return (sessionId, session) => {
    if (sourcesOfLastSession?.sessionId !== sessionId)
      sourcesOfLastSession = { sessionId, bySeq: new BoundedMemo(SOURCES_KEPT) };
    const bySeq = sourcesOfLastSession.bySeq;
    function jsonOfRow(row: CompactHandleRow): string {
      let found = bySeq.get(row.seq);
      if (found === undefined) {
        found = recent?.source(sessionId, row.seq) ?? source.get(sessionId, row.seq);
        if (found !== undefined) bySeq.set(row.seq, found);
      }
      // A handle built from a row is a new object each time: its JSON is not worth remembering (`handleJson`).
      return JSON.stringify(handleOfRow(location, sessionId, row, found));
    }
    return {
      positionOf(place, json) {
        if (![place.seq, place.start, place.end].every(Number.isSafeInteger)) return undefined;
        for (const row of rowsAt.all(session, place.seq, place.start, place.end))
          if (jsonOfRow(row) === json) return row.position;
        return undefined;
      },
      jsonOf(row) {
        if (row.json !== null) return row.json;
        if (row.seq === null || row.position === null) return undefined;
        const stored = rowAt.get(session, row.seq, row.position);
        return stored === undefined ? undefined : jsonOfRow(stored);
      },
    };
  };
}
