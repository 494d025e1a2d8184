/**
 * `recordChain` (one record and its delta chain back to the nearest full snapshot) must read the chain's rows by key:
 * one read proportional to the chain, not to the session's records. The query had joined the chain's ids with the
 * table again, which PostgreSQL planned as a hash join over every record row of the session (a bitmap scan), or over
 * the whole table once analyzed (a sequential scan), for each read. Checked on the rows the plan's scans of `records`
 * actually return (`EXPLAIN ANALYZE`), with the generic plan a prepared statement settles on and the custom one,
 * before and after ANALYZE.
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migratePostgres } from '../../src/stores/postgres/index.js';
import { buildQueries } from '../../src/stores/postgres/queries.js';
import { describePostgres, dropSchema, rawClient, uniqueSchema } from './postgres-env.js';

/** Records per session; a snapshot every `CHAIN` records, deltas in between. */
const RECORDS = 2_000;
const CHAIN = 32;

/** A plan node of `EXPLAIN (FORMAT JSON)`, as far as the test reads it. */
interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Actual Rows': number;
  readonly 'Actual Loops': number;
  readonly 'Rows Removed by Filter'?: number;
  readonly 'Rows Removed by Index Recheck'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** Rows the scans of `records` in `node` read (returned or filtered away), over all their loops. */
function recordRowsRead(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'records'
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
        node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + recordRowsRead(child), 0);
}

describePostgres('PostgreSQL recordChain plan', () => {
  const schema = uniqueSchema('chain');
  let raw: pg.Client;

  beforeAll(async () => {
    await migratePostgres({ schema });
    raw = await rawClient();
    await raw.query(`SET search_path TO "${schema}"`);
    await raw.query(`INSERT INTO sessions (id, created_at) VALUES ('s', 'now'), ('other', 'now')`);
    // Rows as the store writes them: a full snapshot every CHAIN records, each other row a delta against the last one.
    await raw.query(
      `INSERT INTO records (session_id, id, ordinal, type, json, created_at, handle_ids, base_id, delta, chain)
       SELECT s.id, 'r' || i, i, 'summary', CASE WHEN i % $2 = 0 THEN repeat('x', 400) ELSE '' END, 'now',
         CASE WHEN i % $2 = 0 THEN '' END, CASE WHEN i % $2 <> 0 THEN 'r' || (i - 1) END,
         CASE WHEN i % $2 <> 0 THEN decode(repeat('ab', 200), 'hex') END, i % $2
       FROM generate_series(0, $1 - 1) AS i, (VALUES ('s'), ('other')) AS s (id)`,
      [RECORDS, CHAIN],
    );
    await raw.query(`PREPARE chain_read (text, text, integer) AS ${buildQueries(schema, undefined).recordChain}`);
  });

  afterAll(async () => {
    await raw?.end();
    await dropSchema(schema);
  });

  /** Rows of `records` one read of the chain of `id` touches, under `mode`; checks what it returns. */
  async function rowsRead(id: number, mode: 'force_generic_plan' | 'force_custom_plan'): Promise<number> {
    await raw.query(`SET plan_cache_mode = ${mode}`);
    const result = await raw.query<{ id: string }>(`EXECUTE chain_read ('s', 'r${id}', 1024)`);
    const first = id - (id % CHAIN);
    expect(result.rows.map((row) => row.id)).toEqual(
      Array.from({ length: id - first + 1 }, (_, index) => `r${id - index}`),
    );
    const explained = await raw.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE chain_read ('s', 'r${id}', 1024)`,
    );
    return recordRowsRead(explained.rows[0]?.['QUERY PLAN'][0].Plan as PlanNode);
  }

  it('reads each row of the chain by key, whatever the plan mode and statistics', async () => {
    const longest = RECORDS - (RECORDS % CHAIN) - 1;
    for (const analyzed of [false, true]) {
      if (analyzed) await raw.query('ANALYZE records');
      for (const mode of ['force_generic_plan', 'force_custom_plan'] as const) {
        // A chain of CHAIN rows and one of a single row (a snapshot): at most the chain's rows, plus one failed step.
        expect(await rowsRead(longest, mode), `${mode}, analyzed ${analyzed}`).toBeLessThanOrEqual(CHAIN + 1);
        expect(await rowsRead(CHAIN * 3, mode), `${mode}, analyzed ${analyzed}`).toBeLessThanOrEqual(2);
      }
    }
  });
});
