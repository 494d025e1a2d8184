/** The PostgreSQL store prepares its fixed statements once per connection, named after their text. */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { STATEMENT_NAME_PREFIX } from '../../src/stores/postgres/statement-names.js';
import { sampleEntries } from './fixtures.js';
import { PG_URL, describePostgres, dropSchema, uniqueSchema } from './postgres-env.js';

/** Handles keyed `eu-west-2b` in the first `count` sample entries. */
function mentions(count = sampleEntries().length): number {
  return sampleEntries()
    .slice(0, count)
    .flatMap((entry) => entry.handles)
    .filter((handle) => handle.key === 'eu-west-2b').length;
}

describePostgres('PostgreSQL prepared statements', () => {
  const schemas: string[] = [];
  const pools: pg.Pool[] = [];
  /** A pool of one connection, so every query of a test runs on the same server session. */
  function onePool(): pg.Pool {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    pools.push(pool);
    return pool;
  }
  function schema(): string {
    const name = uniqueSchema('prep');
    schemas.push(name);
    return name;
  }
  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.end();
    for (const name of schemas.splice(0)) await dropSchema(name);
  });

  async function prepared(pool: pg.Pool): Promise<string[]> {
    const rows = await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name');
    return rows.rows.map((row) => row.name).filter((name) => name.startsWith(STATEMENT_NAME_PREFIX));
  }

  it('prepares a read once on a connection and reuses it', async () => {
    const pool = onePool();
    const store = await createPostgresStore({ pool, schema: schema() });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    const before = await prepared(pool);
    const first = await store.findHandles('s1', 'eu-west-2b');
    expect(first).toHaveLength(mentions());
    const afterFirst = await prepared(pool);
    expect(afterFirst.length).toBe(before.length + 1);
    expect(await store.findHandles('s1', 'eu-west-2b')).toEqual(first);
    expect(await store.findHandles('s1', '/etc/payments/config.env')).toHaveLength(1);
    expect(await prepared(pool)).toEqual(afterFirst);
    await store.close();
  });

  it('prepares nothing with preparedStatements: false', async () => {
    const pool = onePool();
    const store = await createPostgresStore({ pool, schema: schema(), preparedStatements: false });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    expect(await store.findHandles('s1', 'eu-west-2b')).toHaveLength(mentions());
    expect(await store.spans('s1', [sampleEntries()[0]!.span.id])).toHaveLength(1);
    expect(await prepared(pool)).toEqual([]);
    await store.close();
  });

  it('gives stores of two schemas on one connection their own statements', async () => {
    const pool = onePool();
    const one = await createPostgresStore({ pool, schema: schema() });
    const two = await createPostgresStore({ pool, schema: schema() });
    await one.openSession('s1');
    await two.openSession('s1');
    await one.append('s1', 0, sampleEntries());
    expect(await one.findHandles('s1', 'eu-west-2b')).toHaveLength(mentions());
    expect(await two.findHandles('s1', 'eu-west-2b')).toEqual([]);
    expect(await two.nextSeq('s1')).toBe(0);
    expect(await one.nextSeq('s1')).toBe(sampleEntries().length);
    await one.close();
    await two.close();
  });

  it('keeps working on a connection whose schema was dropped and created again', async () => {
    const pool = onePool();
    const name = schema();
    const first = await createPostgresStore({ pool, schema: name });
    await first.openSession('s1');
    await first.append('s1', 0, sampleEntries());
    expect(await first.findHandles('s1', 'eu-west-2b')).toHaveLength(mentions());
    await first.close();
    await pool.query(`DROP SCHEMA "${name}" CASCADE`);
    const again = await createPostgresStore({ pool, schema: name });
    await again.openSession('s1');
    expect(await again.findHandles('s1', 'eu-west-2b')).toEqual([]);
    await again.append('s1', 0, sampleEntries().slice(0, 1));
    expect(mentions(1)).toBe(1);
    expect(await again.findHandles('s1', 'eu-west-2b')).toHaveLength(1);
    await again.close();
  });
});
