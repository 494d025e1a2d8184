/**
 * The conformance suite against PostgreSQL (`CONTEXT_LEDGER_PG_URL`), each test in a fresh
 * schema dropped afterwards; tampering goes through a second, raw pg client.
 */
import type pg from 'pg';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { describeStoreConformance, type TamperHooks } from './conformance.js';
import { PG_URL, describePostgres, dropSchema, rawClient, uniqueSchema } from './postgres-env.js';

/** Raw SQL below the API through a separate connection; the triggers must refuse all of it. */
function postgresTamper(raw: pg.Client, schema: string): TamperHooks {
  const q = (table: string) => `"${schema}".${table}`;
  const run = async (sql: string, ...values: unknown[]) => void (await raw.query(sql, values));
  return {
    refusal: /context-ledger: \w+ are immutable/,
    overwriteSpan: (target) => run(`UPDATE ${q('spans')} SET text = 'tampered' WHERE id = $1`, target.spanId),
    deleteSpan: (target) => run(`DELETE FROM ${q('spans')} WHERE id = $1`, target.spanId),
    overwriteOccurrence: (target) =>
      run(
        `UPDATE ${q('occurrences')} SET byte_start = 999 WHERE session_id = $1 AND seq = $2`,
        target.sessionId,
        target.seq,
      ),
    deleteOccurrence: (target) =>
      run(`DELETE FROM ${q('occurrences')} WHERE session_id = $1 AND seq = $2`, target.sessionId, target.seq),
    overwriteHandle: (target) =>
      run(
        `UPDATE ${q('handles')} SET text = 'eu-west-9z' WHERE session_id = $1 AND seq = $2`,
        target.sessionId,
        target.seq,
      ),
    deleteHandle: (target) =>
      run(`DELETE FROM ${q('handles')} WHERE session_id = $1 AND seq = $2`, target.sessionId, target.seq),
    overwriteRecord: (target) =>
      run(
        `UPDATE ${q('records')} SET json = '{}' WHERE session_id = $1 AND id = $2`,
        target.sessionId,
        target.recordId,
      ),
    deleteRecord: (target) =>
      run(`DELETE FROM ${q('records')} WHERE session_id = $1 AND id = $2`, target.sessionId, target.recordId),
    extra: {
      'TRUNCATE spans': () => run(`TRUNCATE ${q('spans')} CASCADE`),
      'TRUNCATE occurrences': () => run(`TRUNCATE ${q('occurrences')} CASCADE`),
      'TRUNCATE handles': () => run(`TRUNCATE ${q('handles')}`),
      'TRUNCATE records': () => run(`TRUNCATE ${q('records')}`),
      'TRUNCATE sessions': () => run(`TRUNCATE ${q('sessions')} CASCADE`),
      'upsert a span (INSERT … ON CONFLICT DO UPDATE)': (target) =>
        run(
          `INSERT INTO ${q('spans')} (id, kind, text, tokens) VALUES ($1, 'user', 'tampered', 1) ON CONFLICT (id) DO UPDATE SET text = EXCLUDED.text`,
          target.spanId,
        ),
      'upsert a record': (target) =>
        run(
          `INSERT INTO ${q('records')} (session_id, id, ordinal, type, json, created_at) VALUES ($1, $2, 0, 'summary', '{}', 'now') ON CONFLICT (session_id, id) DO UPDATE SET json = '{}'`,
          target.sessionId,
          target.recordId,
        ),
      'an UPDATE matching no row': () => run(`UPDATE ${q('spans')} SET text = 'x' WHERE id = 'sha256:none'`),
      'move a session to another tenant': (target) =>
        run(`UPDATE ${q('sessions')} SET tenant_id = 'other' WHERE id = $1`, target.sessionId),
      'delete a session': (target) => run(`DELETE FROM ${q('sessions')} WHERE id = $1`, target.sessionId),
      'delete a handle inside a transaction that would commit': async (target) => {
        await raw.query('BEGIN');
        try {
          await run(`DELETE FROM ${q('handles')} WHERE session_id = $1`, target.sessionId);
          await raw.query('COMMIT');
        } finally {
          await raw.query('ROLLBACK').catch(() => undefined);
        }
      },
    },
    countStoredSpans: async (spanId) =>
      Number((await raw.query(`SELECT COUNT(*) AS n FROM ${q('spans')} WHERE id = $1`, [spanId])).rows[0].n),
  };
}

describePostgres('postgres store', () => {
  describeStoreConformance('postgres', async () => {
    const schema = uniqueSchema('conf');
    let store: LedgerStore = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 3 });
    const raw = await rawClient();
    return {
      store,
      tamper: postgresTamper(raw, schema),
      reopen: async () => {
        await store.close();
        store = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 3 });
        return store;
      },
      openUnavailable: () =>
        createPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/test', connectTimeoutMs: 2_000 }),
      cleanup: async () => {
        await raw.end();
        await store.close();
        await dropSchema(schema);
      },
    };
  });
});
