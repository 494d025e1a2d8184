/**
 * The SQLite schema at `SCHEMA_VERSION`, made in one step: a new ledger file is created with it (`migrate.ts`) instead
 * of running every migration of `schema.ts` in turn (on an empty file they only create, drop and copy empty tables;
 * about 10 ms of CPU of every command that opens a new ledger). It must be exactly what the migrations reach: the
 * same tables, columns, keys, indexes and triggers (`test/stores/sqlite-schema-current.test.ts` compares the two), and
 * the rows the migrations leave in an empty ledger (the text index mark). A new migration changes this text too.
 */
import {
  appendOnly,
  IMMUTABLE_RECORDS_MESSAGE,
  IMMUTABLE_SESSIONS_MESSAGE,
  IMMUTABLE_SPANS_MESSAGE,
  TEXT_ROW_SAME_KEY,
} from './schema.js';

/** Sessions, spans, occurrences and records: versions 1, 3, 5, 9 and 10. */
const CORE_TABLES = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  tenant_id TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX sessions_tenant ON sessions (tenant_id, id);

CREATE TABLE spans (
  id ANY NOT NULL PRIMARY KEY,
  kind TEXT NOT NULL,
  text ANY NOT NULL,
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
CREATE INDEX occurrences_span ON occurrences (session_id, span_id);

CREATE TABLE records (
  session_id TEXT NOT NULL REFERENCES sessions (id),
  id TEXT NOT NULL,
  ordinal INTEGER NOT NULL,
  type TEXT NOT NULL,
  json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  handle_ids TEXT,
  base_id TEXT,
  delta BLOB,
  chain INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (session_id, id),
  UNIQUE (session_id, ordinal)
) STRICT;
${appendOnly('sessions', 'old.id = NEW.id', IMMUTABLE_SESSIONS_MESSAGE)}
${appendOnly('spans', 'old.id = NEW.id', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('occurrences', 'old.session_id = NEW.session_id AND old.seq = NEW.seq', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('records', 'old.session_id = NEW.session_id AND (old.id = NEW.id OR old.ordinal = NEW.ordinal)', IMMUTABLE_RECORDS_MESSAGE)}
`;

/** The free-text index, its row map and its mark: versions 2, 4 and 7. */
const TEXT_INDEX_TABLES = `
CREATE TABLE occurrence_text_rows (
  row INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  UNIQUE (session_id, seq),
  FOREIGN KEY (session_id, seq) REFERENCES occurrences (session_id, seq)
) STRICT;
CREATE VIRTUAL TABLE occurrence_fts USING fts5 (text, content = '', tokenize = 'trigram', detail = none);
${appendOnly('occurrence_text_rows', TEXT_ROW_SAME_KEY, IMMUTABLE_SPANS_MESSAGE)}

CREATE TABLE text_index_mark (id INTEGER PRIMARY KEY CHECK (id = 1), row INTEGER NOT NULL) STRICT;
INSERT INTO text_index_mark (id, row) VALUES (1, 0);
CREATE TRIGGER text_index_mark_forward BEFORE UPDATE ON text_index_mark
  WHEN NEW.row < OLD.row OR NEW.id <> OLD.id OR NEW.row > (SELECT COALESCE(MAX(row), 0) FROM occurrence_text_rows)
  BEGIN SELECT RAISE(ABORT, 'context-ledger: the text index mark only moves forward'); END;
CREATE TRIGGER text_index_mark_no_delete BEFORE DELETE ON text_index_mark
  BEGIN SELECT RAISE(ABORT, 'context-ledger: the text index mark only moves forward'); END;
`;

/** Session numbers, compact handle rows and carried handles: versions 6, 8 and 11. */
const HANDLE_TABLES = `
CREATE TABLE session_keys (
  key INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL UNIQUE REFERENCES sessions (id)
) STRICT;
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

/** The SQL that makes an empty database a ledger at `SCHEMA_VERSION` (the version itself is set by `migrate.ts`). */
export const CURRENT_SCHEMA = CORE_TABLES + TEXT_INDEX_TABLES + HANDLE_TABLES;
