/**
 * The SQLite schema, versioned with `PRAGMA user_version`: `MIGRATIONS[n]` takes a database
 * from version n to n + 1. Never edit a shipped migration; append a new one, and bring `schema-current.ts` (what a new
 * file is made with) to the same schema.
 */

/** Message raised by the immutability triggers on spans, occurrences and handles. */
export const IMMUTABLE_SPANS_MESSAGE = 'context-ledger: spans are immutable';
/** Message raised by the immutability triggers on records. */
export const IMMUTABLE_RECORDS_MESSAGE = 'context-ledger: records are immutable';
/** Message raised by the immutability triggers on sessions. */
export const IMMUTABLE_SESSIONS_MESSAGE = 'context-ledger: sessions are immutable';

/**
 * Triggers that make a table append-only, enforced by SQLite itself for every connection:
 * no UPDATE, no DELETE, and no INSERT over an existing key (which would let
 * `INSERT OR REPLACE` delete the old row without firing a DELETE trigger).
 */
export function appendOnly(table: string, sameKey: string, message: string): string {
  return `
CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${table} BEGIN SELECT RAISE(ABORT, '${message}'); END;
CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${table} BEGIN SELECT RAISE(ABORT, '${message}'); END;
CREATE TRIGGER ${table}_no_replace BEFORE INSERT ON ${table}
  WHEN EXISTS (SELECT 1 FROM ${table} AS old WHERE ${sameKey})
  BEGIN SELECT RAISE(ABORT, '${message}'); END;`;
}

/** The key test of the occurrence_text_rows append-only trigger (see `appendOnly`). */
export const TEXT_ROW_SAME_KEY = 'old.row = NEW.row OR (old.session_id = NEW.session_id AND old.seq = NEW.seq)';

const VERSION_1 = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  tenant_id TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX sessions_tenant ON sessions (tenant_id, id);

CREATE TABLE spans (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  tool_name TEXT,
  tool_call_id TEXT,
  tokens INTEGER NOT NULL
) STRICT;

CREATE TABLE occurrences (
  session_id TEXT NOT NULL REFERENCES sessions (id),
  seq INTEGER NOT NULL,
  span_id TEXT NOT NULL REFERENCES spans (id),
  role TEXT NOT NULL,
  byte_start INTEGER NOT NULL,
  byte_end INTEGER NOT NULL,
  label TEXT,
  chunk_index INTEGER,
  chunk_count INTEGER,
  PRIMARY KEY (session_id, seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX occurrences_span ON occurrences (session_id, span_id);

CREATE TABLE handles (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  position INTEGER NOT NULL,
  span_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  key TEXT NOT NULL,
  start INTEGER NOT NULL,
  "end" INTEGER NOT NULL,
  role TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq, position),
  FOREIGN KEY (session_id, seq) REFERENCES occurrences (session_id, seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX handles_key ON handles (session_id, key, seq, start, position);

CREATE TABLE records (
  session_id TEXT NOT NULL REFERENCES sessions (id),
  id TEXT NOT NULL,
  ordinal INTEGER NOT NULL,
  type TEXT NOT NULL,
  json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (session_id, id),
  UNIQUE (session_id, ordinal)
) STRICT;

CREATE VIRTUAL TABLE occurrence_fts USING fts5 (text, session_id UNINDEXED, seq UNINDEXED, tokenize = 'trigram');
${appendOnly('sessions', 'old.id = NEW.id', IMMUTABLE_SESSIONS_MESSAGE)}
${appendOnly('spans', 'old.id = NEW.id', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('occurrences', 'old.session_id = NEW.session_id AND old.seq = NEW.seq', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('handles', 'old.session_id = NEW.session_id AND old.seq = NEW.seq AND old.position = NEW.position', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('records', 'old.session_id = NEW.session_id AND (old.id = NEW.id OR old.ordinal = NEW.ordinal)', IMMUTABLE_RECORDS_MESSAGE)}
`;

/**
 * Version 2: free-text search moves to a contentless FTS5 table. SQLite allows no trigger on a
 * virtual table, and the version 1 table (with content) accepted UPDATE and DELETE from any
 * connection; a contentless table refuses both itself. Its rowids map to occurrences through
 * `occurrence_text_rows`, an ordinary append-only table. The index is rebuilt from the stored
 * spans (not from the old index, which may have been edited).
 */
const VERSION_2 = `
CREATE TABLE occurrence_text_rows (
  row INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  UNIQUE (session_id, seq),
  FOREIGN KEY (session_id, seq) REFERENCES occurrences (session_id, seq)
) STRICT;
INSERT INTO occurrence_text_rows (session_id, seq) SELECT session_id, seq FROM occurrences ORDER BY session_id, seq;
DROP TABLE occurrence_fts;
CREATE VIRTUAL TABLE occurrence_fts USING fts5 (text, content = '', tokenize = 'trigram');
INSERT INTO occurrence_fts (rowid, text)
  SELECT r.row, s.text FROM occurrence_text_rows r
  JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq JOIN spans s ON s.id = o.span_id;
${appendOnly('occurrence_text_rows', TEXT_ROW_SAME_KEY, IMMUTABLE_SPANS_MESSAGE)}
`;

/**
 * Version 3: a record's carried handles are stored once per session in `record_handles` (keyed
 * by a digest of each handle's JSON) and the record row names them by id (`handle_ids`, runs
 * of ids as text; see `record-handles.ts`), instead of repeating the list in every record's
 * JSON. Records written before keep their handles inline (`handle_ids` NULL) and read as before.
 * The no-replace check is one trigger per key (an OR of both keys in one lookup scans the table).
 */
const VERSION_3 = `
CREATE TABLE record_handles (
  session_id TEXT NOT NULL REFERENCES sessions (id),
  id INTEGER NOT NULL,
  digest BLOB NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (session_id, id),
  UNIQUE (session_id, digest)
) STRICT, WITHOUT ROWID;
ALTER TABLE records ADD COLUMN handle_ids TEXT;
${appendOnly('record_handles', 'old.session_id = NEW.session_id AND old.id = NEW.id', IMMUTABLE_RECORDS_MESSAGE)}
CREATE TRIGGER record_handles_no_replace_digest BEFORE INSERT ON record_handles
  WHEN EXISTS (SELECT 1 FROM record_handles AS old WHERE old.session_id = NEW.session_id AND old.digest = NEW.digest)
  BEGIN SELECT RAISE(ABORT, '${IMMUTABLE_RECORDS_MESSAGE}'); END;
`;

/**
 * Version 4: the free-text index is written after the append (`deferred-text-index.ts`); `text_index_mark` holds the
 * last `occurrence_text_rows` row it covers (every existing row is indexed already). The mark only moves forward, and
 * never past the last stored row.
 */
const VERSION_4 = `
CREATE TABLE text_index_mark (id INTEGER PRIMARY KEY CHECK (id = 1), row INTEGER NOT NULL) STRICT;
INSERT INTO text_index_mark (id, row) SELECT 1, COALESCE(MAX(row), 0) FROM occurrence_text_rows;
CREATE TRIGGER text_index_mark_forward BEFORE UPDATE ON text_index_mark
  WHEN NEW.row < OLD.row OR NEW.id <> OLD.id OR NEW.row > (SELECT COALESCE(MAX(row), 0) FROM occurrence_text_rows)
  BEGIN SELECT RAISE(ABORT, 'context-ledger: the text index mark only moves forward'); END;
CREATE TRIGGER text_index_mark_no_delete BEFORE DELETE ON text_index_mark
  BEGIN SELECT RAISE(ABORT, 'context-ledger: the text index mark only moves forward'); END;
`;

/**
 * Version 5: records are stored as deltas (`record-delta.ts`): a delta row names its base record (`base_id`) and holds
 * the deflated change against it (`delta`; `json` empty, `handle_ids` NULL); `chain` counts the deltas back to the
 * nearest full snapshot. Rows written before are full snapshots (`chain` 0) and read as before.
 */
const VERSION_5 = `
ALTER TABLE records ADD COLUMN base_id TEXT;
ALTER TABLE records ADD COLUMN delta BLOB;
ALTER TABLE records ADD COLUMN chain INTEGER NOT NULL DEFAULT 0;
`;

/**
 * Version 6: handle rows in their compact form (`handle-rows.ts`): a session is named by a number (`session_keys`), the
 * kind by a code, and the text, span id, role and key are NULL when the occurrence gives them; the key index holds a
 * digest of the key. A trigger refuses a handle row whose occurrence does not exist (the foreign key of the old table).
 * The old rows are copied by `copyHandleRows`, each compared with its occurrence, then the old table is dropped.
 */
const VERSION_6_TABLES = `
CREATE TABLE session_keys (
  key INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL UNIQUE REFERENCES sessions (id)
) STRICT;
INSERT INTO session_keys (session_id) SELECT id FROM sessions ORDER BY id;
${appendOnly('session_keys', 'old.key = NEW.key OR old.session_id = NEW.session_id', IMMUTABLE_SESSIONS_MESSAGE)}
CREATE TABLE handle_rows (
  session INTEGER NOT NULL REFERENCES session_keys (key),
  seq INTEGER NOT NULL,
  position INTEGER NOT NULL,
  kind ANY NOT NULL,
  start INTEGER NOT NULL,
  "end" INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  key_hash INTEGER NOT NULL,
  key TEXT,
  role TEXT,
  span_id TEXT,
  text TEXT,
  PRIMARY KEY (session, seq, position)
) STRICT, WITHOUT ROWID;
CREATE INDEX handle_rows_key ON handle_rows (session, key_hash);
${appendOnly('handle_rows', 'old.session = NEW.session AND old.seq = NEW.seq AND old.position = NEW.position', IMMUTABLE_SPANS_MESSAGE)}
CREATE TRIGGER handle_rows_need_occurrence BEFORE INSERT ON handle_rows
  WHEN NOT EXISTS (SELECT 1 FROM session_keys k JOIN occurrences o ON o.session_id = k.session_id AND o.seq = NEW.seq
    WHERE k.key = NEW.session)
  BEGIN SELECT RAISE(ABORT, 'context-ledger: a handle row needs its occurrence'); END;
`;

/**
 * Version 7: the free-text index keeps no positions (`detail = none`: about a quarter of the bytes). A term is matched
 * as an AND of its trigrams and the candidates are checked and ranked against the span text (`text-search.ts`), with
 * the hits, order and scores of the positional index. The index is rebuilt from the stored spans for the rows the old
 * one covered (up to `text_index_mark`); later rows stay pending for the deferred index.
 */
const VERSION_7 = `
DROP TABLE occurrence_fts;
CREATE VIRTUAL TABLE occurrence_fts USING fts5 (text, content = '', tokenize = 'trigram', detail = none);
INSERT INTO occurrence_fts (rowid, text)
  SELECT r.row, s.text FROM occurrence_text_rows r
  JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq JOIN spans s ON s.id = o.span_id
  WHERE r.row <= (SELECT row FROM text_index_mark WHERE id = 1) ORDER BY r.row;
INSERT INTO occurrence_fts (occurrence_fts) VALUES ('optimize');
`;

/**
 * Version 8: a record's carried handles in `carried_handles` (`carried-handles.ts`): the session by its number, and a
 * handle that a handle row gives byte for byte named by that row (`seq`, `position`, `json` NULL) instead of stored as
 * JSON again. The rows of `record_handles` are copied by `copyCarriedHandles` (same ids, same digests), then it is
 * dropped.
 */
const VERSION_8_TABLES = `
CREATE TABLE carried_handles (
  session INTEGER NOT NULL REFERENCES session_keys (key),
  id INTEGER NOT NULL,
  digest BLOB NOT NULL,
  seq INTEGER,
  position INTEGER,
  json TEXT,
  PRIMARY KEY (session, id),
  UNIQUE (session, digest),
  CHECK ((json IS NULL) = (seq IS NOT NULL AND position IS NOT NULL))
) STRICT, WITHOUT ROWID;
${appendOnly('carried_handles', 'old.session = NEW.session AND old.id = NEW.id', IMMUTABLE_RECORDS_MESSAGE)}
CREATE TRIGGER carried_handles_no_replace_digest BEFORE INSERT ON carried_handles
  WHEN EXISTS (SELECT 1 FROM carried_handles AS old WHERE old.session = NEW.session AND old.digest = NEW.digest)
  BEGIN SELECT RAISE(ABORT, '${IMMUTABLE_RECORDS_MESSAGE}'); END;
`;

/**
 * Version 9: a span's row key is stored in its compact form (`span-keys.ts`: the digest's 32 bytes, 48 with the tenant
 * part) in `spans.id` and `occurrences.span_id`, instead of its 71 or 104 characters in the table, its key index and
 * every occurrence. Both tables are copied through `span_key` (registered by `migrate.ts`), dropped and made again with
 * their index and triggers; the copies are dropped. Foreign keys are checked once the step is done (`migrate.ts`).
 */
const VERSION_9 = `
CREATE TABLE spans_copy AS SELECT span_key(id) AS id, kind, text, tool_name, tool_call_id, tokens FROM spans ORDER BY rowid;
CREATE TABLE occurrences_copy AS SELECT session_id, seq, span_key(span_id) AS span_id, role, byte_start, byte_end, label,
  chunk_index, chunk_count FROM occurrences ORDER BY session_id, seq;
DROP TABLE occurrences;
DROP TABLE spans;
CREATE TABLE spans (
  id ANY NOT NULL PRIMARY KEY,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  tool_name TEXT,
  tool_call_id TEXT,
  tokens INTEGER NOT NULL
) STRICT;
CREATE TABLE occurrences (
  session_id TEXT NOT NULL REFERENCES sessions (id),
  seq INTEGER NOT NULL,
  span_id ANY NOT NULL REFERENCES spans (id),
  role TEXT NOT NULL,
  byte_start INTEGER NOT NULL,
  byte_end INTEGER NOT NULL,
  label TEXT,
  chunk_index INTEGER,
  chunk_count INTEGER,
  PRIMARY KEY (session_id, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO spans SELECT * FROM spans_copy;
INSERT INTO occurrences SELECT * FROM occurrences_copy;
DROP TABLE spans_copy;
DROP TABLE occurrences_copy;
CREATE INDEX occurrences_span ON occurrences (session_id, span_id);
${appendOnly('spans', 'old.id = NEW.id', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('occurrences', 'old.session_id = NEW.session_id AND old.seq = NEW.seq', IMMUTABLE_SPANS_MESSAGE)}
`;

/**
 * Version 10: a span's text is stored packed when that makes it smaller (`span-text.ts`): `spans.text` becomes ANY,
 * holding the text (TEXT) or its deflated UTF-8 bytes (BLOB); SQL reads it through `span_text(id, text)`. The rows are
 * copied through `pack_span_text` (registered by `migrate.ts`) in their order, the old table dropped and the copy
 * renamed, with its triggers made again. Foreign keys are checked once the step is done (`migrate.ts`).
 */
const VERSION_10 = `
CREATE TABLE spans_packed (
  id ANY NOT NULL PRIMARY KEY,
  kind TEXT NOT NULL,
  text ANY NOT NULL,
  tool_name TEXT,
  tool_call_id TEXT,
  tokens INTEGER NOT NULL
) STRICT;
INSERT INTO spans_packed (id, kind, text, tool_name, tool_call_id, tokens)
  SELECT id, kind, pack_span_text(text), tool_name, tool_call_id, tokens FROM spans ORDER BY rowid;
DROP TABLE spans;
ALTER TABLE spans_packed RENAME TO spans;
${appendOnly('spans', 'old.id = NEW.id', IMMUTABLE_SPANS_MESSAGE)}
`;

/**
 * Version 11: a carried handle's digest (the per-session deduplication key of its JSON, `handleDigest`) is stored as
 * its first 8 bytes instead of 16, in the table and in its unique index (`CARRIED_DIGEST_BYTES`; a clash of two
 * handles of one session is about 1 in 10^10 for 100,000 distinct handles, and a record naming the wrong handle fails
 * its id check when it is read). The table is copied with the shorter digests, dropped and made again with its
 * triggers. Records written from this version on store their full snapshots packed (`record-delta.ts`: deflated, a
 * row with a delta and no base), which the code before could not read: hence the version.
 */
const VERSION_11 = `
CREATE TABLE carried_handles_copy AS
  SELECT session, id, substr(digest, 1, 8) AS digest, seq, position, json FROM carried_handles ORDER BY session, id;
DROP TABLE carried_handles;
CREATE TABLE carried_handles (
  session INTEGER NOT NULL REFERENCES session_keys (key),
  id INTEGER NOT NULL,
  digest BLOB NOT NULL,
  seq INTEGER,
  position INTEGER,
  json TEXT,
  PRIMARY KEY (session, id),
  UNIQUE (session, digest),
  CHECK ((json IS NULL) = (seq IS NOT NULL AND position IS NOT NULL))
) STRICT, WITHOUT ROWID;
INSERT INTO carried_handles SELECT * FROM carried_handles_copy;
DROP TABLE carried_handles_copy;
${appendOnly('carried_handles', 'old.session = NEW.session AND old.id = NEW.id', IMMUTABLE_RECORDS_MESSAGE)}
CREATE TRIGGER carried_handles_no_replace_digest BEFORE INSERT ON carried_handles
  WHEN EXISTS (SELECT 1 FROM carried_handles AS old WHERE old.session = NEW.session AND old.digest = NEW.digest)
  BEGIN SELECT RAISE(ABORT, '${IMMUTABLE_RECORDS_MESSAGE}'); END;
`;

/**
 * The SQL of each schema migration in order; the schema version is `MIGRATIONS.length` once all are applied. A step
 * that also copies rows in code (version 6: `copyHandleRows`, version 8: `copyCarriedHandles`) runs that code after its SQL, and
 * version 9 has `span_key` and version 10 `pack_span_text` registered before its SQL (`migrate.ts`).
 */
export const MIGRATIONS: readonly string[] = [
  VERSION_1,
  VERSION_2,
  VERSION_3,
  VERSION_4,
  VERSION_5,
  VERSION_6_TABLES,
  VERSION_7,
  VERSION_8_TABLES,
  VERSION_9,
  VERSION_10,
  VERSION_11,
];

/** Bytes of a carried handle's digest the SQLite store keeps (schema 11; `handleDigest` gives 16). */
export const CARRIED_DIGEST_BYTES = 8;

/** The schema version this code reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
