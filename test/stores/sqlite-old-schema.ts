/** Ledgers as older SQLite schemas left them, built from a current one (for the migration tests). */
import type Database from 'better-sqlite3';
import { handleDigest } from '../../src/stores/record-handles.js';

/**
 * Turns `carried_handles` (schema 8) back into the `record_handles` of schema 3 to 7: every carried handle of
 * `session` as JSON (`jsonById`), the same ids and digests, and the triggers the version 8 migration drops.
 */
export function carriedHandlesAsVersion7(
  db: Database.Database,
  session: string,
  jsonById: ReadonlyMap<number, string>,
): void {
  db.exec(`CREATE TABLE record_handles (
      session_id TEXT NOT NULL REFERENCES sessions (id), id INTEGER NOT NULL, digest BLOB NOT NULL, json TEXT NOT NULL,
      PRIMARY KEY (session_id, id), UNIQUE (session_id, digest)) STRICT, WITHOUT ROWID;
    CREATE TRIGGER record_handles_no_update BEFORE UPDATE ON record_handles BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER record_handles_no_delete BEFORE DELETE ON record_handles BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER record_handles_no_replace BEFORE INSERT ON record_handles WHEN 0 BEGIN SELECT 1; END;
    CREATE TRIGGER record_handles_no_replace_digest BEFORE INSERT ON record_handles WHEN 0 BEGIN SELECT 1; END;
    DROP TABLE carried_handles;`);
  const insert = db.prepare('INSERT INTO record_handles (session_id, id, digest, json) VALUES (?, ?, ?, ?)');
  for (const [id, json] of jsonById) insert.run(session, id, handleDigest(json), json);
}
