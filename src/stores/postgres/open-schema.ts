/**
 * Opening the PostgreSQL schema: connect, then run the pending migrations (`migrate.ts`) or, with `migrate: false`,
 * only check the schema version. Used by `createPostgresStore` and the `context-ledger migrate` command.
 */
import type pg from 'pg';
import { StoreUnavailableError } from '../../errors.js';
import { openConnection, type PostgresStoreOptions } from './connection.js';
import { UNREACHABLE_ADVICE, mapPostgresError } from './driver-errors.js';
import { checkVersion, runMigrations, type MigrationResult } from './migrate.js';

/**
 * Connects, migrates (unless `migrate: false`) and reports what it did; used by
 * `createPostgresStore` and the `context-ledger migrate` command. Ends its own pool.
 */
export async function migratePostgres(
  options: PostgresStoreOptions,
): Promise<MigrationResult & { location: string; schema: string }> {
  const connection = openConnection(options);
  try {
    const result = await openSchema(connection.pool, connection.schema, connection.location, options.migrate !== false);
    return { ...result, location: connection.location, schema: connection.schema };
  } finally {
    if (connection.ownsPool) await connection.pool.end();
  }
}

/** Migrates `schema` (or, `migrate` false, checks its version) on one connection of `pool`. */
export async function openSchema(
  pool: pg.Pool,
  schema: string,
  location: string,
  migrate: boolean,
): Promise<MigrationResult> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(
      `${location}: cannot connect (${reason}); ${UNREACHABLE_ADVICE}.`,
      { location },
      { cause: error },
    );
  }
  try {
    const result = migrate
      ? await runMigrations(client, schema, location)
      : await checkVersion(client, schema, location);
    client.release();
    return result;
  } catch (error) {
    client.release(true);
    throw mapPostgresError(location, migrate ? `migrate schema ${schema}` : `check schema ${schema}`, error);
  }
}
