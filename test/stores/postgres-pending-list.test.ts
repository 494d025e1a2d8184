/**
 * PostgreSQL append path: the trigram GIN index's pending list is cleaned in the background after
 * appends (not by the INSERT that finds it full), except on a single-connection pool.
 */
import { afterEach, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { entry } from './fixtures.js';
import { PG_URL, describePostgres, dropSchema, rawClient, uniqueSchema } from './postgres-env.js';

/** Pages left in the pending list, as a final clean by the test reports them (0: already clean). */
async function pendingPages(schema: string): Promise<number> {
  const client = await rawClient();
  try {
    const result = await client.query<{ pages: string | null }>(
      'SELECT gin_clean_pending_list(to_regclass($1)) AS pages',
      [`"${schema}".spans_text_trigram`],
    );
    return Number(result.rows[0]?.pages ?? -1);
  } finally {
    await client.end();
  }
}

function bulkyEntries(count: number): ReturnType<typeof entry>[] {
  return Array.from({ length: count }, (_, index) =>
    entry(
      'tool-result',
      Array.from({ length: 300 }, (__, word) => `w${index}x${word}q${(index * 7919 + word * 31) % 100_003}`).join(' '),
      [],
      { toolName: 'read', toolCallId: `call-${index}` },
    ),
  );
}

describePostgres('PostgreSQL pending-list cleaning', () => {
  const schemas: string[] = [];
  afterEach(async () => {
    for (const schema of schemas.splice(0)) await dropSchema(schema);
  });

  it('cleans the trigram index pending list after an append, before close returns', async () => {
    const schema = uniqueSchema('pending');
    schemas.push(schema);
    const store = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 });
    await store.openSession('s');
    await store.append('s', 0, bulkyEntries(20));
    await store.close();
    expect(await pendingPages(schema)).toBe(0);
  });

  it('leaves the pending list to the inserts on a single-connection pool', async () => {
    const schema = uniqueSchema('pending_one');
    schemas.push(schema);
    const store = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 1 });
    await store.openSession('s');
    await store.append('s', 0, bulkyEntries(20));
    expect((await store.searchText('s', 'w7x150q', 5)).map((hit) => hit.seq)).toEqual([7]);
    await store.close();
    expect(await pendingPages(schema)).toBeGreaterThan(0);
  });
});
