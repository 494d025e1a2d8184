/**
 * The code half of schema version 6: the version 5 `handles` rows copied into the compact `handle_rows`
 * (`handle-rows.ts`), each compared with its occurrence, then the old table dropped.
 */
import type Database from 'better-sqlite3';
import type { HandleKind, Role } from '../../types.js';
import { spanIdOfRowKey } from '../store-input.js';
import { compactHandleValues } from './handle-rows.js';

/** A row of the version 5 `handles` table, for `copyHandleRows`. */
interface OldHandleRow {
  session: number;
  seq: number;
  position: number;
  kind: string;
  text: string;
  key: string;
  start: number;
  end: number;
  role: string;
  span_id: string;
  tokens: number;
}

/**
 * Copies the version 5 handle rows into `handle_rows`, one occurrence at a time (each compared with its occurrence),
 * and drops the old table.
 */
export function copyHandleRows(db: Database.Database): void {
  const insert = db.prepare(
    `INSERT INTO handle_rows (session, seq, position, kind, start, "end", tokens, key_hash, key, role, span_id, text)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const seqs = db.prepare(
    'SELECT DISTINCT session_id, seq FROM handles ORDER BY session_id, seq',
  ) as Database.Statement<[], { session_id: string; seq: number }>;
  const source = db.prepare(
    `SELECT o.span_id, o.role, s.text FROM occurrences o JOIN spans s ON s.id = o.span_id
     WHERE o.session_id = ? AND o.seq = ?`,
  ) as Database.Statement<[string, number], { span_id: string; role: string; text: string }>;
  const rows = db.prepare(
    `SELECT k.key AS session, h.seq, h.position, h.kind, h.text, h.key, h.start, h."end" AS "end", h.role, h.span_id,
       h.tokens
     FROM handles h JOIN session_keys k ON k.session_id = h.session_id
     WHERE h.session_id = ? AND h.seq = ? ORDER BY h.position`,
  ) as Database.Statement<[string, number], OldHandleRow>;
  for (const { session_id: sessionId, seq } of seqs.all()) {
    // The old table's foreign key kept every handle row with its occurrence.
    const occurrence = source.get(sessionId, seq) as { span_id: string; role: string; text: string };
    for (const row of rows.all(sessionId, seq)) {
      const handle = { ...row, kind: row.kind as HandleKind, role: row.role as Role, spanId: row.span_id };
      const values = compactHandleValues(handle, spanIdOfRowKey(occurrence.span_id), occurrence.role, occurrence.text);
      insert.run(row.session, row.seq, row.position, ...values);
    }
  }
  db.exec(`DROP TRIGGER handles_no_update; DROP TRIGGER handles_no_delete; DROP TRIGGER handles_no_replace;
    DROP TABLE handles;`);
}
