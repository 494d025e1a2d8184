/**
 * Crash test, PostgreSQL: 50 worker processes appending and rendering (compacting) are
 * SIGKILLed at random moments (the server sees their connections drop mid-statement); after
 * each round the ledger holds every acknowledged append, gapless seqs, whole batches and
 * records, and replays the window a reopened session shows.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { PG_URL, describePostgres, dropSchema, rawClient, uniqueSchema } from '../stores/postgres-env.js';
import { crashScenario } from './crash-scenario.js';

describePostgres('crash: PostgreSQL', () => {
  const schema = uniqueSchema('crash');
  beforeAll(async () => (await createPostgresStore({ connectionString: PG_URL, schema })).close());
  afterAll(() => dropSchema(schema));

  it('survives 50 SIGKILLs of writers without losing or half-writing anything', async () => {
    const result = await crashScenario(
      {
        spec: `${PG_URL}?schema=${schema}`,
        open: () => createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 }),
        rawRecordJson: async (sessionId) => {
          const raw = await rawClient();
          try {
            return (
              await raw.query(
                // A delta row keeps its content in `delta` against `base_id`: it must have both.
                `SELECT CASE WHEN delta IS NULL THEN json::text
                   WHEN base_id IS NOT NULL AND octet_length(delta) > 0 THEN '{"delta":true}' ELSE '' END AS json
                 FROM "${schema}".records WHERE session_id = $1 ORDER BY ordinal`,
                [sessionId],
              )
            ).rows.map((row: { json: string }) => row.json);
          } finally {
            await raw.end();
          }
        },
      },
      50,
      { parallel: 5, maxDelayMs: 300 },
    );
    console.info(`[crash postgres] ${JSON.stringify(result)}`);
    expect(result.kills).toBe(50);
  }, 120_000);
});
