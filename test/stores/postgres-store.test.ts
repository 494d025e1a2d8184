/** PostgreSQL-only behaviour: locations, migrations, options, driver errors, U+0000, pools. */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import {
  InvalidInputError,
  NotFoundError,
  SequenceConflictError,
  StoreOperationError,
  StoreUnavailableError,
} from '../../src/errors.js';
import { migrateCommand } from '../../src/cli/migrate.js';
import { openStore } from '../../src/stores/store-spec.js';
import { createSpan } from '../../src/model/span.js';
import { mapPostgresError } from '../../src/stores/postgres/driver-errors.js';
import { SCHEMA_VERSION, createPostgresStore, migratePostgres } from '../../src/stores/postgres/index.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { entry, expectLedgerError, sampleEntries } from './fixtures.js';
import { PG_URL, describePostgres, dropSchema, rawClient, uniqueSchema } from './postgres-env.js';

describePostgres('PostgreSQL store', () => {
  const schemas: string[] = [];
  const stores: LedgerStore[] = [];
  function schema(): string {
    const name = uniqueSchema('pg');
    schemas.push(name);
    return name;
  }
  async function open(options: Parameters<typeof createPostgresStore>[0]): Promise<LedgerStore> {
    const store = await createPostgresStore(options);
    stores.push(store);
    return store;
  }
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const name of schemas.splice(0)) await dropSchema(name);
  });

  it('names its location without the password', async () => {
    const url = new URL(PG_URL);
    url.password = 'hunter2-secret';
    const name = schema();
    const store = await open({ connectionString: url.toString(), schema: name });
    expect(store.kind).toBe('postgres');
    expect(store.location).toBe(`postgres://${url.hostname}:${url.port || '5432'}${url.pathname}?schema=${name}`);
    const missing = await expectLedgerError(store.append('missing', 0, []), NotFoundError, 'NOT_FOUND', [
      store.location,
    ]);
    expect(missing.message).not.toContain('hunter2');
    const refused = new URL('postgres://postgres:hunter2-secret@127.0.0.1:1/test');
    const unreachable = await expectLedgerError(
      createPostgresStore({ connectionString: refused.toString(), connectTimeoutMs: 2_000 }),
      StoreUnavailableError,
      'STORE_UNAVAILABLE',
      ['postgres://127.0.0.1:1/test', /is the PostgreSQL server running/],
    );
    expect(unreachable.message).not.toContain('hunter2');
    // What the tests read (CONTEXT_LEDGER_PG_URL) is said by the test helpers, never in a user's error.
    expect(unreachable.message).not.toContain('CONTEXT_LEDGER_PG_URL');
  });

  it('migrates once when several hosts open a fresh schema at the same time', async () => {
    const name = schema();
    const opened = await Promise.all(
      Array.from({ length: 4 }, () => open({ connectionString: PG_URL, schema: name, maxConnections: 2 })),
    );
    await opened[0]!.openSession('s1');
    await opened[1]!.append('s1', 0, sampleEntries());
    expect(await opened[3]!.nextSeq('s1')).toBe(3);
    const raw = await rawClient();
    try {
      const versions = await raw.query(`SELECT version FROM "${name}".schema_migrations ORDER BY version`);
      expect(versions.rows.map((row: { version: number }) => row.version)).toEqual(
        Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1),
      );
      const index = await raw.query(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'spans_text_trigram'",
        [name],
      );
      expect(index.rows[0]?.indexdef).toMatch(/gin .*gin_trgm_ops/);
    } finally {
      await raw.end();
    }
    const again = await migratePostgres({ connectionString: PG_URL, schema: name });
    expect(again).toMatchObject({ fromVersion: SCHEMA_VERSION, toVersion: SCHEMA_VERSION, schema: name });
    expect(again.trigramSchema).toBeDefined();
  });

  it('refuses a newer schema, and an unmigrated one when migrations are off', async () => {
    const name = schema();
    await expectLedgerError(
      createPostgresStore({ connectionString: PG_URL, schema: name, migrate: false }),
      StoreUnavailableError,
      'STORE_UNAVAILABLE',
      [/context-ledger migrate --store postgres:\/\//],
    );
    await (await open({ connectionString: PG_URL, schema: name })).close();
    const raw = await rawClient();
    await raw.query(`INSERT INTO "${name}".schema_migrations (version) VALUES (${SCHEMA_VERSION + 1})`);
    await raw.end();
    await expectLedgerError(
      createPostgresStore({ connectionString: PG_URL, schema: name }),
      StoreUnavailableError,
      'STORE_UNAVAILABLE',
      [/upgrade context-ledger/],
    );
  });

  it('takes the schema from ?schema= in the connection string, and validates options', async () => {
    const name = schema();
    const store = await open({ connectionString: `${PG_URL}?schema=${name}` });
    expect(store.location).toContain(`?schema=${name}`);
    await store.openSession('s1');
    await expectLedgerError(
      createPostgresStore({ connectionString: PG_URL, schema: 'bad-name; DROP' }),
      InvalidInputError,
      'INVALID_INPUT',
      [/schema/],
    );
    await expectLedgerError(
      createPostgresStore({ connectionString: PG_URL, maxConnections: 0 }),
      InvalidInputError,
      'INVALID_INPUT',
      [/maxConnections/],
    );
  });

  it('keeps span text with U+0000 exactly, and refuses it where PostgreSQL text cannot hold it', async () => {
    const store = await open({ connectionString: PG_URL, schema: schema() });
    await store.openSession('s1');
    const binary = entry(
      'tool-result',
      'bytes: \u0000\u0001 after-nul eu-west-2b',
      [{ kind: 'identifier', text: 'eu-west-2b' }],
      { toolName: 'cat', toolCallId: 'c1' },
    );
    const [written] = await store.append('s1', 0, [binary]);
    expect(written!.span).toEqual(binary.span);
    expect((await store.occurrences('s1'))[0]!.span.text).toBe(binary.span.text);
    expect((await store.searchText('s1', 'after-nul', 5)).map((hit) => hit.seq)).toEqual([0]);
    await expectLedgerError(
      store.append('s1', 1, [entry('user', 'labelled', [], { label: 'a\u0000b' })]),
      InvalidInputError,
      'INVALID_INPUT',
      [/U\+0000/, 'label'],
    );
    expect(await store.nextSeq('s1')).toBe(1);
    expect(await store.getSession('s\u0000')).toBeUndefined();
    expect(await store.findHandles('s1', '\u0000')).toEqual([]);
  });

  it("reads a tenant session's spans stored under the bare id by older versions, one id or several, the row key first", async () => {
    const name = schema();
    const store = await open({ connectionString: PG_URL, schema: name });
    await store.openSession('t1', { tenantId: 'acme' });
    const older = [entry('user', 'written by an older version'), entry('assistant', 'also written before row keys')];
    const client = await rawClient();
    try {
      for (const [seq, item] of older.entries()) {
        await client.query(`INSERT INTO "${name}".spans (id, kind, text, tokens) VALUES ($1, $2, $3, 5)`, [
          item.span.id,
          item.span.kind,
          item.span.text,
        ]);
        await client.query(
          `INSERT INTO "${name}".occurrences (session_id, seq, span_id, role, byte_start, byte_end) VALUES ('t1', $1, $2, $3, 0, 1)`,
          [seq, item.span.id, item.role],
        );
      }
    } finally {
      await client.end();
    }
    const [first, second] = older.map((item) => item.span);
    const texts = async (ids: string[]) => (await store.spans('t1', ids)).map((span) => [span.text, span.tokens]);
    expect(await texts([first!.id])).toEqual([[first!.text, 5]]);
    expect(await texts([second!.id, first!.id])).toEqual([
      [second!.text, 5],
      [first!.text, 5],
    ]);
    // The same content appended today is stored under the tenant's row key: both rows are the session's, the row key wins.
    await store.append('t1', 2, [{ ...older[0]!, span: createSpan({ kind: 'user', text: first!.text, tokens: 77 }) }]);
    expect(await texts([first!.id])).toEqual([[first!.text, 77]]);
    expect(await texts([second!.id, first!.id])).toEqual([
      [second!.text, 5],
      [first!.text, 77],
    ]);
  });

  it('leaves a pool it was given open, and fails clearly once closed', async () => {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
    try {
      const store = await createPostgresStore({ pool, schema: schema() });
      await store.openSession('s1');
      await store.close();
      expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
      await expectLedgerError(store.nextSeq('s1'), StoreUnavailableError, 'STORE_UNAVAILABLE', [/closed/]);
    } finally {
      await pool.end();
    }
  });

  it('migrates from the CLI command and opens from a --store spec', async () => {
    const name = schema();
    const lines: string[] = [];
    await migrateCommand({ store: PG_URL, schema: name }, (line) => lines.push(line));
    expect(lines[0]).toMatch(new RegExp(`schema ${name} at version ${SCHEMA_VERSION} \\(migrated from version 0\\)`));
    expect(lines[1]).toMatch(/pg_trgm trigram index/);
    lines.length = 0;
    await migrateCommand({ store: `${PG_URL}?schema=${name}` }, (line) => lines.push(line));
    expect(lines[0]).toContain('(already current)');
    await expectLedgerError(
      migrateCommand({ store: 'memory:' }, () => undefined),
      InvalidInputError,
      'INVALID_INPUT',
      [/postgres:\/\//],
    );
    const store = await openStore(`${PG_URL}?schema=${name}`);
    stores.push(store);
    expect(store.kind).toBe('postgres');
    expect(await store.listSessions()).toEqual([]);
  });

  it('maps driver errors to ledger errors naming store and operation', () => {
    const at = 'postgres://h:5432/db';
    const duplicate = Object.assign(new Error('duplicate key value violates unique constraint "occurrences_pkey"'), {
      code: '23505',
    });
    expect(SequenceConflictError.isInstance(mapPostgresError(at, 'append to session s1', duplicate))).toBe(true);
    const full = mapPostgresError(
      at,
      'append to session s1',
      Object.assign(new Error('could not extend file'), { code: '53100' }),
    );
    expect(StoreOperationError.isInstance(full) && full.message).toMatch(
      /^postgres:\/\/h:5432\/db: append to session s1 failed: the server's disk is full/,
    );
    const other = mapPostgresError(
      at,
      'read records of session s1',
      Object.assign(new Error('boom'), { code: 'XX000' }),
    );
    expect(other.message).toBe('postgres://h:5432/db: read records of session s1 failed: boom (SQLSTATE XX000)');
    expect(
      StoreUnavailableError.isInstance(
        mapPostgresError(
          at,
          'x',
          Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
        ),
      ),
    ).toBe(true);
  });
});
