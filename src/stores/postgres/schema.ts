/**
 * The PostgreSQL schema as versioned migrations: `MIGRATIONS[n]` takes a schema from version
 * n to n + 1 and is recorded in `schema_migrations`. Never edit a shipped migration; append a
 * new one. Each migration runs with `search_path` set to the ledger's schema (then the schema
 * holding pg_trgm), so the SQL names no schema.
 *
 * Immutability is enforced by the database for every connection: statement-level triggers
 * refuse UPDATE, DELETE and TRUNCATE on sessions, spans, occurrences, handles and records
 * (statement-level, so even an UPDATE matching no row fails loudly, and so does
 * `INSERT … ON CONFLICT DO UPDATE`).
 *
 * A stricter, privilege-based variant for deployments where the application connects with
 * its own role (run as the schema owner after migrating):
 *
 * ```sql
 * REVOKE ALL ON ALL TABLES IN SCHEMA context_ledger FROM app_role;
 * GRANT USAGE ON SCHEMA context_ledger TO app_role;
 * GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA context_ledger TO app_role;
 * REVOKE UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA context_ledger FROM app_role;
 * GRANT EXECUTE ON FUNCTION context_ledger.append_batch, context_ledger.store_record_handles TO app_role;
 * ```
 *
 * The store never needs UPDATE, DELETE or TRUNCATE (the append lock is an advisory lock, not
 * `SELECT … FOR UPDATE`), so it runs unchanged under that role.
 */

/** Message raised by the immutability triggers on spans, occurrences and handles. */
export const IMMUTABLE_SPANS_MESSAGE = 'context-ledger: spans are immutable';
/** Message raised by the immutability trigger on records. */
export const IMMUTABLE_RECORDS_MESSAGE = 'context-ledger: records are immutable';
/** Message raised by the immutability trigger on sessions. */
export const IMMUTABLE_SESSIONS_MESSAGE = 'context-ledger: sessions are immutable';

function appendOnly(table: string, message: string): string {
  return `CREATE TRIGGER ${table}_immutable BEFORE UPDATE OR DELETE OR TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('${message}');`;
}

/** The handle parameters of `append_batch()` (one line of its signature, shared by versions 1 and 3). */
const APPEND_BATCH_HANDLE_PARAMETERS =
  'h_entries integer[], h_positions integer[], h_kinds text[], h_texts text[], h_keys text[], ' +
  'h_starts bigint[], h_ends bigint[], h_roles text[], h_tokens bigint[]';
/** The select list of the occurrence INSERT in `append_batch()` (shared by versions 1 and 3). */
const APPEND_BATCH_OCCURRENCE_SELECT =
  'SELECT p_session, p_expected + u.n - 1, u.span_id, u.entry_role, u.entry_start, u.entry_end, ' +
  'u.entry_label, u.entry_chunk, u.entry_chunks';

const VERSION_1 = `
CREATE TABLE sessions (
  id text COLLATE "C" PRIMARY KEY,
  tenant_id text COLLATE "C",
  created_at text NOT NULL
);
CREATE INDEX sessions_tenant ON sessions (tenant_id, id);

CREATE TABLE spans (
  id text COLLATE "C" PRIMARY KEY,
  kind text NOT NULL,
  text text NOT NULL,
  exact bytea,
  tool_name text,
  tool_call_id text,
  tokens bigint NOT NULL
);
COMMENT ON COLUMN spans.text IS 'span text for search; U+0000 (which PostgreSQL text cannot hold) replaced by U+FFFD';
COMMENT ON COLUMN spans.exact IS 'the exact UTF-8 bytes when text had to replace U+0000, else NULL';

CREATE TABLE occurrences (
  session_id text COLLATE "C" NOT NULL REFERENCES sessions (id),
  seq bigint NOT NULL,
  span_id text COLLATE "C" NOT NULL REFERENCES spans (id),
  role text NOT NULL,
  byte_start bigint NOT NULL,
  byte_end bigint NOT NULL,
  label text,
  chunk_index bigint,
  chunk_count bigint,
  PRIMARY KEY (session_id, seq)
);
CREATE INDEX occurrences_span ON occurrences (session_id, span_id, seq);

CREATE TABLE handles (
  session_id text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  position integer NOT NULL,
  span_id text COLLATE "C" NOT NULL,
  kind text NOT NULL,
  text text NOT NULL,
  key text COLLATE "C" NOT NULL,
  start bigint NOT NULL,
  "end" bigint NOT NULL,
  role text NOT NULL,
  tokens bigint NOT NULL,
  PRIMARY KEY (session_id, seq, position),
  FOREIGN KEY (session_id, seq) REFERENCES occurrences (session_id, seq)
);
CREATE INDEX handles_key ON handles (session_id, key, seq, start, position);

CREATE TABLE records (
  session_id text COLLATE "C" NOT NULL REFERENCES sessions (id),
  id text COLLATE "C" NOT NULL,
  ordinal bigint NOT NULL,
  type text NOT NULL,
  json text NOT NULL,
  created_at text NOT NULL,
  PRIMARY KEY (session_id, id),
  UNIQUE (session_id, ordinal)
);

CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0] USING HINT = 'write new spans or records instead of changing stored ones';
END $$;
${appendOnly('sessions', IMMUTABLE_SESSIONS_MESSAGE)}
${appendOnly('spans', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('occurrences', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('handles', IMMUTABLE_SPANS_MESSAGE)}
${appendOnly('records', IMMUTABLE_RECORDS_MESSAGE)}

-- One batch in one statement (one round trip, one transaction): take the session's append
-- lock, compare the next seq with the writer's expectation, then multi-row INSERTs from
-- unnest(). Returns the actual next seq (-1: no such session) and, when written, the stored
-- token count of each entry's span (the first write of a span wins).
CREATE FUNCTION append_batch(
  p_session text, p_expected bigint,
  p_span_ids text[], p_kinds text[], p_texts text[], p_exacts bytea[], p_tool_names text[], p_tool_call_ids text[], p_tokens bigint[],
  p_roles text[], p_byte_starts bigint[], p_byte_ends bigint[], p_labels text[], p_chunk_indexes bigint[], p_chunk_counts bigint[],
  ${APPEND_BATCH_HANDLE_PARAMETERS}
) RETURNS TABLE (actual_next bigint, stored_tokens bigint[])
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  v_next bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(current_schema()), hashtext(p_session));
  IF NOT EXISTS (SELECT 1 FROM sessions WHERE id = p_session) THEN
    RETURN QUERY SELECT -1::bigint, NULL::bigint[];
    RETURN;
  END IF;
  SELECT COALESCE(MAX(o.seq) + 1, 0) INTO v_next FROM occurrences o WHERE o.session_id = p_session;
  IF v_next <> p_expected THEN
    RETURN QUERY SELECT v_next, NULL::bigint[];
    RETURN;
  END IF;
  INSERT INTO spans (id, kind, text, exact, tool_name, tool_call_id, tokens)
    SELECT DISTINCT ON (u.span_id) u.span_id, u.span_kind, u.span_text, u.span_exact, u.span_tool, u.span_call, u.span_tokens
    FROM unnest(p_span_ids, p_kinds, p_texts, p_exacts, p_tool_names, p_tool_call_ids, p_tokens)
      WITH ORDINALITY AS u(span_id, span_kind, span_text, span_exact, span_tool, span_call, span_tokens, n)
    ORDER BY u.span_id, u.n
  ON CONFLICT (id) DO NOTHING;
  INSERT INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end, label, chunk_index, chunk_count)
    ${APPEND_BATCH_OCCURRENCE_SELECT}
    FROM unnest(p_span_ids, p_roles, p_byte_starts, p_byte_ends, p_labels, p_chunk_indexes, p_chunk_counts)
      WITH ORDINALITY AS u(span_id, entry_role, entry_start, entry_end, entry_label, entry_chunk, entry_chunks, n);
  INSERT INTO handles (session_id, seq, position, span_id, kind, text, key, start, "end", role, tokens)
    SELECT p_session, p_expected + h.entry, h.handle_position, p_span_ids[h.entry + 1], h.handle_kind, h.handle_text, h.handle_key,
      h.handle_start, h.handle_end, h.handle_role, h.handle_tokens
    FROM unnest(h_entries, h_positions, h_kinds, h_texts, h_keys, h_starts, h_ends, h_roles, h_tokens)
      AS h(entry, handle_position, handle_kind, handle_text, handle_key, handle_start, handle_end, handle_role, handle_tokens);
  RETURN QUERY SELECT v_next, ARRAY(
    SELECT s.tokens FROM unnest(p_span_ids) WITH ORDINALITY AS u(span_id, n) JOIN spans s ON s.id = u.span_id ORDER BY u.n);
END $$;
`;

/**
 * Version 2: a trigram index for free-text recall, when pg_trgm is installed (the migration
 * runner tries `CREATE EXTENSION IF NOT EXISTS pg_trgm` first). Without it, search still
 * works (ILIKE, sequential), only slower.
 */
const VERSION_2 = `
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX spans_text_trigram ON spans USING gin (text gin_trgm_ops);
  END IF;
END $$;
`;

/** Message raised by `append_batch()` when a span id is already stored with other content. */
export const SPAN_CONTENT_CONFLICT_MESSAGE = 'context-ledger: span content conflict';

/**
 * Version 3: `append_batch()` compares every entry's span with the row stored under its key
 * (kind, text, exact bytes, tool name, tool call id) and raises, rolling the whole batch back,
 * when they differ; it never silently reuses a row holding other content. The row keys it
 * receives are per tenant (see `spanRowKey`).
 */
const VERSION_3 = `
CREATE OR REPLACE FUNCTION append_batch(
  p_session text, p_expected bigint,
  p_span_ids text[], p_kinds text[], p_texts text[], p_exacts bytea[], p_tool_names text[], p_tool_call_ids text[], p_tokens bigint[],
  p_roles text[], p_byte_starts bigint[], p_byte_ends bigint[], p_labels text[], p_chunk_indexes bigint[], p_chunk_counts bigint[],
  ${APPEND_BATCH_HANDLE_PARAMETERS}
) RETURNS TABLE (actual_next bigint, stored_tokens bigint[])
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  v_next bigint;
  v_conflict text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(current_schema()), hashtext(p_session));
  IF NOT EXISTS (SELECT 1 FROM sessions WHERE id = p_session) THEN
    RETURN QUERY SELECT -1::bigint, NULL::bigint[];
    RETURN;
  END IF;
  SELECT COALESCE(MAX(o.seq) + 1, 0) INTO v_next FROM occurrences o WHERE o.session_id = p_session;
  IF v_next <> p_expected THEN
    RETURN QUERY SELECT v_next, NULL::bigint[];
    RETURN;
  END IF;
  INSERT INTO spans (id, kind, text, exact, tool_name, tool_call_id, tokens)
    SELECT DISTINCT ON (u.span_id) u.span_id, u.span_kind, u.span_text, u.span_exact, u.span_tool, u.span_call, u.span_tokens
    FROM unnest(p_span_ids, p_kinds, p_texts, p_exacts, p_tool_names, p_tool_call_ids, p_tokens)
      WITH ORDINALITY AS u(span_id, span_kind, span_text, span_exact, span_tool, span_call, span_tokens, n)
    ORDER BY u.span_id, u.n
  ON CONFLICT (id) DO NOTHING;
  SELECT u.span_id INTO v_conflict
    FROM unnest(p_span_ids, p_kinds, p_texts, p_exacts, p_tool_names, p_tool_call_ids)
      WITH ORDINALITY AS u(span_id, span_kind, span_text, span_exact, span_tool, span_call, n)
    JOIN spans s ON s.id = u.span_id
    WHERE s.kind <> u.span_kind OR s.text <> u.span_text OR s.exact IS DISTINCT FROM u.span_exact
      OR s.tool_name IS DISTINCT FROM u.span_tool OR s.tool_call_id IS DISTINCT FROM u.span_call
    ORDER BY u.n LIMIT 1;
  IF v_conflict IS NOT NULL THEN
    RAISE EXCEPTION '${SPAN_CONTENT_CONFLICT_MESSAGE}: %', v_conflict USING HINT = 'a span id names exactly one content';
  END IF;
  INSERT INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end, label, chunk_index, chunk_count)
    ${APPEND_BATCH_OCCURRENCE_SELECT}
    FROM unnest(p_span_ids, p_roles, p_byte_starts, p_byte_ends, p_labels, p_chunk_indexes, p_chunk_counts)
      WITH ORDINALITY AS u(span_id, entry_role, entry_start, entry_end, entry_label, entry_chunk, entry_chunks, n);
  INSERT INTO handles (session_id, seq, position, span_id, kind, text, key, start, "end", role, tokens)
    SELECT p_session, p_expected + h.entry, h.handle_position, p_span_ids[h.entry + 1], h.handle_kind, h.handle_text, h.handle_key,
      h.handle_start, h.handle_end, h.handle_role, h.handle_tokens
    FROM unnest(h_entries, h_positions, h_kinds, h_texts, h_keys, h_starts, h_ends, h_roles, h_tokens)
      AS h(entry, handle_position, handle_kind, handle_text, handle_key, handle_start, handle_end, handle_role, handle_tokens);
  RETURN QUERY SELECT v_next, ARRAY(
    SELECT s.tokens FROM unnest(p_span_ids) WITH ORDINALITY AS u(span_id, n) JOIN spans s ON s.id = u.span_id ORDER BY u.n);
END $$;
`;

/**
 * Version 4: a record's carried handles are stored once per session in `record_handles` (keyed
 * by a digest of each handle's JSON) and the record row names them by id (`handle_ids`, runs of
 * ids as text; see `record-handles.ts`) instead of repeating the list in every record's JSON.
 * `write_record()` stores the new handles and the record in one statement, under the session's
 * append lock (so two writers never hand out the same id). Records written before keep their
 * handles inline (`handle_ids` NULL) and read as before.
 */
const VERSION_4 = `
CREATE TABLE record_handles (
  session_id text COLLATE "C" NOT NULL REFERENCES sessions (id),
  id bigint NOT NULL,
  digest bytea NOT NULL,
  json text NOT NULL,
  PRIMARY KEY (session_id, id),
  UNIQUE (session_id, digest)
);
${appendOnly('record_handles', IMMUTABLE_RECORDS_MESSAGE)}
ALTER TABLE records ADD COLUMN handle_ids text;

-- Returns the record id when written, NULL when its id or ordinal was taken (nothing written
-- but handles the session did not hold yet, which later records reuse).
CREATE FUNCTION write_record(
  p_session text, p_id text, p_ordinal bigint, p_type text, p_json text, p_created text, p_digests bytea[], p_handles text[]
) RETURNS text
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  v_base bigint;
  v_ids text;
  v_written text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(current_schema()), hashtext(p_session));
  SELECT COALESCE(MAX(r.id) + 1, 0) INTO v_base FROM record_handles r WHERE r.session_id = p_session;
  INSERT INTO record_handles (session_id, id, digest, json)
    SELECT p_session, v_base + row_number() OVER (ORDER BY f.n) - 1, f.digest, f.json FROM (
      SELECT DISTINCT ON (u.digest) u.digest, u.json, u.n
      FROM unnest(p_digests, p_handles) WITH ORDINALITY AS u(digest, json, n)
      WHERE NOT EXISTS (SELECT 1 FROM record_handles r WHERE r.session_id = p_session AND r.digest = u.digest)
      ORDER BY u.digest, u.n) f;
  SELECT COALESCE(string_agg(CASE WHEN c.lo = c.hi THEN c.lo::text ELSE c.lo || '-' || c.hi END, ',' ORDER BY c.first_n), '')
    INTO v_ids
    FROM (
      SELECT min(b.n) AS first_n, (array_agg(b.id ORDER BY b.n))[1] AS lo, (array_agg(b.id ORDER BY b.n DESC))[1] AS hi
      FROM (
        SELECT a.id, a.n, sum(a.brk) OVER (ORDER BY a.n) AS island FROM (
          SELECT r.id, u.n, CASE WHEN r.id = lag(r.id) OVER (ORDER BY u.n) + 1 THEN 0 ELSE 1 END AS brk
          FROM unnest(p_digests) WITH ORDINALITY AS u(digest, n)
          JOIN record_handles r ON r.session_id = p_session AND r.digest = u.digest) a) b
      GROUP BY b.island) c;
  INSERT INTO records (session_id, id, ordinal, type, json, created_at, handle_ids)
    VALUES (p_session, p_id, p_ordinal, p_type, p_json, p_created, v_ids)
    ON CONFLICT DO NOTHING RETURNING records.id INTO v_written;
  RETURN v_written;
END $$;
`;

/**
 * Version 5: records are stored as deltas (`record-delta.ts`): a delta row names its base record (`base_id`) and holds
 * the deflated change against it (`delta`; `json` empty, `handle_ids` NULL); `chain` counts the deltas back to the
 * nearest full snapshot. Rows written before are full snapshots (`chain` 0) and read as before. The store builds the
 * delta from the ids of the carried handles, so `store_record_handles()` stores the handles the session does not hold
 * yet (under its append lock, as `write_record()` did) and returns the ids; the record row is then one INSERT.
 */
const VERSION_5 = `
ALTER TABLE records ADD COLUMN base_id text COLLATE "C", ADD COLUMN delta bytea, ADD COLUMN chain integer NOT NULL DEFAULT 0;
CREATE FUNCTION store_record_handles(p_session text, p_digests bytea[], p_handles text[]) RETURNS bigint[]
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  v_base bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(current_schema()), hashtext(p_session));
  SELECT COALESCE(MAX(r.id) + 1, 0) INTO v_base FROM record_handles r WHERE r.session_id = p_session;
  INSERT INTO record_handles (session_id, id, digest, json)
    SELECT p_session, v_base + row_number() OVER (ORDER BY f.n) - 1, f.digest, f.json FROM (
      SELECT DISTINCT ON (u.digest) u.digest, u.json, u.n
      FROM unnest(p_digests, p_handles) WITH ORDINALITY AS u(digest, json, n)
      WHERE NOT EXISTS (SELECT 1 FROM record_handles r WHERE r.session_id = p_session AND r.digest = u.digest)
      ORDER BY u.digest, u.n) f;
  RETURN ARRAY(
    SELECT r.id FROM unnest(p_digests) WITH ORDINALITY AS u(digest, n)
    JOIN record_handles r ON r.session_id = p_session AND r.digest = u.digest ORDER BY u.n);
END $$;
`;

/** Schema migrations in order; the schema version is `MIGRATIONS.length` once all are applied. */
export const MIGRATIONS: readonly string[] = [VERSION_1, VERSION_2, VERSION_3, VERSION_4, VERSION_5];

/** The schema version this code reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
