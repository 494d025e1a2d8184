/** Ledgers as older SQLite schemas left them, built from a current one (for the migration tests). */
import type Database from 'better-sqlite3';
import { handleDigest } from '../../src/stores/record-handles.js';
import { registerSpanTextFunction } from '../../src/stores/sqlite/span-text.js';

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

/** The text row key of a stored span key (`span-keys.ts`), in SQL. */
const TEXT_KEY = (
  column: string,
) => `CASE WHEN typeof(${column}) = 'blob' THEN 'sha256:' || lower(hex(substr(${column}, 1, 32)))
  || CASE WHEN length(${column}) = 48 THEN '~' || lower(hex(substr(${column}, 33))) ELSE '' END ELSE ${column} END`;

/**
 * Turns `spans` (schema 10) back into that of schema 9: every text as TEXT (packed ones inflated), the same rows in
 * the same order, and the append-only triggers (foreign keys off on this connection).
 */
export function spanTextAsVersion9(db: Database.Database): void {
  db.pragma('foreign_keys = OFF');
  registerSpanTextFunction(db, 'sqlite:older');
  db.exec(`CREATE TABLE spans_plain (id ANY NOT NULL PRIMARY KEY, kind TEXT NOT NULL, text TEXT NOT NULL, tool_name TEXT,
      tool_call_id TEXT, tokens INTEGER NOT NULL) STRICT;
    INSERT INTO spans_plain SELECT id, kind, span_text(id, text), tool_name, tool_call_id, tokens FROM spans ORDER BY rowid;
    DROP TABLE spans;
    ALTER TABLE spans_plain RENAME TO spans;
    CREATE TRIGGER spans_no_update BEFORE UPDATE ON spans BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER spans_no_delete BEFORE DELETE ON spans BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER spans_no_replace BEFORE INSERT ON spans WHEN 0 BEGIN SELECT 1; END;`);
}

/**
 * Turns `spans` and `occurrences` (schema 10) back into those of schema 1 to 8: span row keys as text, the same rows, the
 * index and the append-only triggers (foreign keys off on this connection).
 */
export function spanKeysAsVersion8(db: Database.Database): void {
  spanTextAsVersion9(db);
  db.exec(`CREATE TABLE spans_text AS SELECT ${TEXT_KEY('id')} AS id, kind, text, tool_name, tool_call_id, tokens
      FROM spans ORDER BY rowid;
    CREATE TABLE occurrences_text AS SELECT session_id, seq, ${TEXT_KEY('span_id')} AS span_id, role, byte_start, byte_end,
      label, chunk_index, chunk_count FROM occurrences;
    DROP TABLE occurrences;
    DROP TABLE spans;
    CREATE TABLE spans (id TEXT PRIMARY KEY, kind TEXT NOT NULL, text TEXT NOT NULL, tool_name TEXT, tool_call_id TEXT,
      tokens INTEGER NOT NULL) STRICT;
    CREATE TABLE occurrences (session_id TEXT NOT NULL REFERENCES sessions (id), seq INTEGER NOT NULL,
      span_id TEXT NOT NULL REFERENCES spans (id), role TEXT NOT NULL, byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL,
      label TEXT, chunk_index INTEGER, chunk_count INTEGER, PRIMARY KEY (session_id, seq)) STRICT, WITHOUT ROWID;
    INSERT INTO spans SELECT * FROM spans_text;
    INSERT INTO occurrences SELECT * FROM occurrences_text ORDER BY session_id, seq;
    DROP TABLE spans_text;
    DROP TABLE occurrences_text;
    CREATE INDEX occurrences_span ON occurrences (session_id, span_id);
    CREATE TRIGGER spans_no_update BEFORE UPDATE ON spans BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER spans_no_delete BEFORE DELETE ON spans BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER spans_no_replace BEFORE INSERT ON spans WHEN 0 BEGIN SELECT 1; END;
    CREATE TRIGGER occurrences_no_update BEFORE UPDATE ON occurrences BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER occurrences_no_delete BEFORE DELETE ON occurrences BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER occurrences_no_replace BEFORE INSERT ON occurrences WHEN 0 BEGIN SELECT 1; END;`);
}
