import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { storedSpanKey } from '../../src/stores/sqlite/span-keys.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { describeStoreConformance, type TamperHooks } from './conformance.js';

/** The handle rows of a target (session by its number in `session_keys`). */
const HANDLE_OF_TARGET = 'session = (SELECT key FROM session_keys WHERE session_id = ?) AND seq = ?';

/** Tampering through a second, raw better-sqlite3 connection to the same file. */
function sqliteTamper(raw: Database.Database): TamperHooks {
  const run =
    (sql: string, ...parameters: unknown[]) =>
    async () =>
      void raw.prepare(sql).run(...parameters);
  return {
    refusal: /context-ledger: \w+ are immutable/,
    overwriteSpan: (target) =>
      run('UPDATE spans SET text = ? WHERE id = ?', 'tampered', storedSpanKey(target.spanId))(),
    deleteSpan: (target) => run('DELETE FROM spans WHERE id = ?', storedSpanKey(target.spanId))(),
    overwriteOccurrence: (target) =>
      run('UPDATE occurrences SET byte_start = 999 WHERE session_id = ? AND seq = ?', target.sessionId, target.seq)(),
    deleteOccurrence: (target) =>
      run('DELETE FROM occurrences WHERE session_id = ? AND seq = ?', target.sessionId, target.seq)(),
    overwriteHandle: (target) =>
      run(`UPDATE handle_rows SET text = 'eu-west-9z' WHERE ${HANDLE_OF_TARGET}`, target.sessionId, target.seq)(),
    deleteHandle: (target) => run(`DELETE FROM handle_rows WHERE ${HANDLE_OF_TARGET}`, target.sessionId, target.seq)(),
    overwriteRecord: (target) =>
      run("UPDATE records SET json = '{}' WHERE session_id = ? AND id = ?", target.sessionId, target.recordId)(),
    deleteRecord: (target) =>
      run('DELETE FROM records WHERE session_id = ? AND id = ?', target.sessionId, target.recordId)(),
    extra: {
      'INSERT OR REPLACE a span': (target) =>
        run(
          "INSERT OR REPLACE INTO spans (id, kind, text, tokens) VALUES (?, 'user', 'tampered', 1)",
          storedSpanKey(target.spanId),
        )(),
      'INSERT OR REPLACE an occurrence': (target) =>
        run(
          "INSERT OR REPLACE INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end) SELECT session_id, seq, span_id, 'system', 0, 1 FROM occurrences WHERE session_id = ? AND seq = ?",
          target.sessionId,
          target.seq,
        )(),
      'INSERT OR REPLACE a handle': (target) =>
        run(
          `INSERT OR REPLACE INTO handle_rows SELECT session, seq, position, kind, start, "end", tokens, key_hash, key, role, span_id, 'x' FROM handle_rows WHERE ${HANDLE_OF_TARGET}`,
          target.sessionId,
          target.seq,
        )(),
      'INSERT OR REPLACE a record': (target) =>
        run(
          "INSERT OR REPLACE INTO records (session_id, id, ordinal, type, json, created_at) VALUES (?, ?, 0, 'summary', '{}', 'now')",
          target.sessionId,
          target.recordId,
        )(),
      'take a record ordinal with REPLACE': (target) =>
        run(
          "INSERT OR REPLACE INTO records (session_id, id, ordinal, type, json, created_at) VALUES (?, 'rec_x', 0, 'summary', '{}', 'now')",
          target.sessionId,
        )(),
      'move a session to another tenant': (target) =>
        run("UPDATE sessions SET tenant_id = 'other' WHERE id = ?", target.sessionId)(),
      'delete a session': (target) => run('DELETE FROM sessions WHERE id = ?', target.sessionId)(),
      'UPDATE OR REPLACE a span': (target) =>
        run("UPDATE OR REPLACE spans SET text = 'x' WHERE id = ?", storedSpanKey(target.spanId))(),
    },
    countStoredSpans: async (spanId) =>
      raw.prepare('SELECT COUNT(*) FROM spans WHERE id = ?').pluck().get(storedSpanKey(spanId)) as number,
  };
}

describeStoreConformance('sqlite', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'context-ledger-sqlite-'));
  const path = join(directory, 'ledger.db');
  let store: LedgerStore = createSqliteStore({ path });
  const raw = new Database(path);
  return {
    store,
    tamper: sqliteTamper(raw),
    reopen: async () => {
      await store.close();
      store = createSqliteStore({ path });
      return store;
    },
    openUnavailable: async () => createSqliteStore({ path: '/proc/context-ledger/ledger.db' }),
    cleanup: async () => {
      raw.close();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
