/**
 * The code half of schema version 8: the rows of `record_handles` copied into `carried_handles` with the same ids and
 * digests, each a reference to the handle row that gives its JSON byte for byte when there is one (`carried-handles.ts`),
 * then the old table dropped.
 */
import type Database from 'better-sqlite3';
import { createHandleRowJson, type HandlePlace } from './carried-handles.js';

/** A row of the version 7 `record_handles` table with its session's number. */
interface OldCarriedRow {
  session_id: string;
  session: number;
  id: number;
  digest: Buffer;
  json: string;
}

/** Where a carried handle's JSON places it, undefined when it names no place (or is not JSON: kept as it is). */
function placeOf(json: string): HandlePlace | undefined {
  try {
    const handle = JSON.parse(json) as Partial<Record<keyof HandlePlace, unknown>> | null;
    const { seq, start, end } = handle ?? {};
    return typeof seq === 'number' && typeof start === 'number' && typeof end === 'number'
      ? { seq, start, end }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Copies `record_handles` into `carried_handles` (the location names the ledger in errors), and drops it. */
export function copyCarriedHandles(db: Database.Database, location = 'sqlite'): void {
  const insert = db.prepare(
    'INSERT INTO carried_handles (session, id, digest, seq, position, json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const rows = db.prepare(
    `SELECT h.session_id, k.key AS session, h.id, h.digest, h.json FROM record_handles h
     JOIN session_keys k ON k.session_id = h.session_id ORDER BY h.session_id, h.id`,
  ) as Database.Statement<[], OldCarriedRow>;
  const forSession = createHandleRowJson(db, location);
  let current: { sessionId: string; reader: ReturnType<typeof forSession> } | undefined;
  for (const row of rows.all()) {
    if (current?.sessionId !== row.session_id)
      current = { sessionId: row.session_id, reader: forSession(row.session_id, row.session) };
    const place = placeOf(row.json);
    const position = place === undefined ? undefined : current.reader.positionOf(place, row.json);
    if (position === undefined) insert.run(row.session, row.id, row.digest, null, null, row.json);
    else insert.run(row.session, row.id, row.digest, place?.seq, position, null);
  }
  db.exec(`DROP TRIGGER record_handles_no_update; DROP TRIGGER record_handles_no_delete;
    DROP TRIGGER record_handles_no_replace; DROP TRIGGER record_handles_no_replace_digest; DROP TABLE record_handles;`);
}
