/**
 * The stores the recall latency benchmark runs on: a fresh SQLite file or a fresh PostgreSQL
 * schema per session size, each with a raw lookup that runs the store's own handle-by-key SQL on
 * a second connection (the floor recall is compared with) and that statement's query plan.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createPostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { buildQueries } from '../../src/stores/postgres/queries.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { keyHash } from '../../src/stores/sqlite/handle-rows.js';
import { prepareStatements } from '../../src/stores/sqlite/statements.js';
import type { LedgerStore } from '../../src/stores/store.js';

/** A store under test. */
export interface RecallBackend {
  readonly name: 'sqlite' | 'postgres';
  /** The store (a new one after `reopen`). */
  readonly store: LedgerStore;
  /** Closes the store (SQLite: its free-text index catches up, the WAL is checkpointed) and opens it again. */
  reopen(): Promise<void>;
  /** Opens the second connection (after the fill); `raw` and `plan` need it. */
  connectRaw(): Promise<void>;
  /** The store's own SQL for the handles of `key`, on the second connection. */
  raw(sessionId: string, key: string): Promise<unknown>;
  /** The plan of that SQL for `key` (EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on PostgreSQL). */
  plan(sessionId: string, key: string): Promise<string>;
  /** Closes both connections and removes what was created. */
  dispose(): Promise<void>;
}

/** A SQLite store on a new file in `directory`. */
export function openSqliteBackend(directory: string, spans: number): RecallBackend {
  const path = join(directory, `recall-${spans}.db`);
  let store = createSqliteStore({ path });
  let db: Database.Database | undefined;
  let lookup: ReturnType<typeof prepareStatements>['handlesByKey'] | undefined;
  return {
    name: 'sqlite',
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = createSqliteStore({ path });
    },
    connectRaw() {
      db = new Database(path, { readonly: true });
      lookup = prepareStatements(db).handlesByKey;
      return Promise.resolve();
    },
    raw(sessionId, key) {
      const session = db?.prepare('SELECT key FROM session_keys WHERE session_id = ?').pluck().get(sessionId) as number;
      return Promise.resolve(lookup?.all(session, keyHash(key), 0, -1, 0));
    },
    plan(sessionId, key) {
      const sql = lookup?.source ?? '';
      const session = db?.prepare('SELECT key FROM session_keys WHERE session_id = ?').pluck().get(sessionId) as number;
      const rows = db?.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(session, keyHash(key), 0, -1, 0) as {
        detail: string;
      }[];
      return Promise.resolve(rows.map((row) => row.detail).join('; '));
    },
    async dispose() {
      db?.close();
      await store.close();
    },
  };
}

/** A PostgreSQL store in a new schema (dropped by `dispose`). */
export async function openPostgresBackend(connectionString: string, spans: number): Promise<RecallBackend> {
  const schema = `cl_recall_${process.pid}_${spans}`;
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  let store = await createPostgresStore({ connectionString, schema });
  const sql = buildQueries(schema, undefined).handlesByKey;
  return {
    name: 'postgres',
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = await createPostgresStore({ connectionString, schema });
    },
    connectRaw: () => Promise.resolve(),
    raw: (sessionId, key) => admin.query({ name: 'raw-handles-by-key', text: sql, values: [sessionId, key, 0, null] }),
    async plan(sessionId, key) {
      const result = await admin.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, [
        sessionId,
        key,
        0,
        null,
      ]);
      return result.rows.map((row) => row['QUERY PLAN'].trim()).join('; ');
    },
    async dispose() {
      await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}
