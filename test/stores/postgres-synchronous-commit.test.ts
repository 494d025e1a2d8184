import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openConnection } from '../../src/stores/postgres/connection.js';
import { InvalidInputError } from '../../src/errors.js';
import { PG_URL, describePostgres } from './postgres-env.js';

async function synchronousCommitOf(pool: pg.Pool): Promise<string> {
  try {
    const { rows } = await pool.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
    return rows[0]?.synchronous_commit ?? '';
  } finally {
    await pool.end();
  }
}

describe('PostgreSQL synchronousCommit option (opt-in)', () => {
  it('refuses any value but off, and refuses it with a caller-owned pool', () => {
    expect(() => openConnection({ connectionString: PG_URL, synchronousCommit: 'on' as 'off' })).toThrow(
      InvalidInputError,
    );
    const pool = new pg.Pool({ connectionString: PG_URL });
    try {
      expect(() => openConnection({ pool, synchronousCommit: 'off' })).toThrow(/own pool/);
    } finally {
      void pool.end();
    }
  });
});

describePostgres('PostgreSQL synchronousCommit on the connections', () => {
  it("keeps the server's setting by default and sets off on every connection when opted in", async () => {
    const raw = new pg.Pool({ connectionString: PG_URL, max: 1 });
    const server = await synchronousCommitOf(raw);
    expect(await synchronousCommitOf(openConnection({ connectionString: PG_URL }).pool)).toBe(server);
    const relaxed = openConnection({ connectionString: PG_URL, synchronousCommit: 'off', maxConnections: 2 }).pool;
    const clients = [await relaxed.connect(), await relaxed.connect()];
    try {
      for (const client of clients)
        expect((await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]).toEqual({
          synchronous_commit: 'off',
        });
    } finally {
      for (const client of clients) client.release();
      await relaxed.end();
    }
  });
});
