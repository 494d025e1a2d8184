/**
 * The PostgreSQL server the tests use: `CONTEXT_LEDGER_PG_URL` (default
 * `postgres://postgres@127.0.0.1:5432/test`). When it cannot be reached the PostgreSQL suites
 * are skipped with the reason in their name, unless `CONTEXT_LEDGER_REQUIRE_PG=1` (CI), which
 * turns the missing server into a failing test.
 */
import pg from 'pg';
import { describe, it } from 'vitest';

/** Connection string of the test server. */
export const PG_URL = process.env.CONTEXT_LEDGER_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Whether a missing server fails the run. */
export const REQUIRE_PG = process.env.CONTEXT_LEDGER_REQUIRE_PG === '1';

async function probe(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `no PostgreSQL at ${PG_URL.replace(/:[^:@/]*@/, ':***@')} (${error instanceof Error ? error.message : String(error)}); set CONTEXT_LEDGER_PG_URL`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why PostgreSQL is unusable, or undefined when it answers. */
export const pgUnavailable: string | undefined = await probe();

/** Registers `body` as a PostgreSQL suite: run, skipped with the reason, or failing under REQUIRE_PG. */
export function describePostgres(name: string, body: () => void): void {
  if (pgUnavailable !== undefined && REQUIRE_PG) {
    describe(name, () => {
      it('reaches PostgreSQL (CONTEXT_LEDGER_REQUIRE_PG=1 makes a missing server a failure)', () => {
        throw new Error(pgUnavailable);
      });
    });
    return;
  }
  if (pgUnavailable !== undefined) console.warn(`[context-ledger] skipping "${name}": ${pgUnavailable}`);
  describe.skipIf(pgUnavailable !== undefined)(
    pgUnavailable === undefined ? name : `${name} (skipped: ${pgUnavailable})`,
    body,
  );
}

let counter = 0;

/** A schema name no other test uses. */
export function uniqueSchema(prefix: string): string {
  counter += 1;
  return `cl_${prefix}_${process.pid}_${Date.now().toString(36)}_${counter}`.toLowerCase();
}

/** A raw client on the test server (caller ends it). */
export async function rawClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: PG_URL });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Drops a schema and everything in it (DROP SCHEMA fires no row or statement triggers). */
export async function dropSchema(schema: string): Promise<void> {
  const client = await rawClient();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * Begins a transaction on `raw` that creates schema `name` at an older schema version: its first `version` migrations
 * applied and recorded, `search_path` set to it (and to pg_trgm's schema). The caller writes old-format rows, then
 * COMMITs.
 */
export async function beginOldSchema(
  raw: pg.Client,
  name: string,
  migrations: readonly string[],
  version: number,
): Promise<void> {
  const trigram = await raw.query(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
  );
  const path = [name, ...trigram.rows.map((row: { schema: string }) => row.schema)].map((s) => `"${s}"`).join(', ');
  await raw.query('BEGIN');
  await raw.query(`CREATE SCHEMA "${name}"`);
  await raw.query(`SET LOCAL search_path TO ${path}`);
  await raw.query(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (let applied = 0; applied < version; applied += 1) {
    await raw.query(migrations[applied] ?? '');
    await raw.query('INSERT INTO schema_migrations (version) VALUES ($1)', [applied + 1]);
  }
}
