/**
 * Runs the PostgreSQL migrations: one transaction under a database-wide advisory lock, so two
 * hosts opening the same database at once never both migrate (the second waits, then finds
 * the schema current).
 */
import type pg from 'pg';
import { StoreUnavailableError } from '../../errors.js';
import { checkNotNewer } from '../schema-version.js';
import { quoteIdentifier } from './connection.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/** Key of the advisory lock held while migrating ("clmg"). */
export const MIGRATION_LOCK_KEY = 0x636c6d67;

/** What a migration run found and did. */
export interface MigrationResult {
  /** Schema version before. */
  readonly fromVersion: number;
  /** Schema version after (`SCHEMA_VERSION`). */
  readonly toVersion: number;
  /** Schema holding pg_trgm, or undefined when the extension is not installed (search then uses plain ILIKE). */
  readonly trigramSchema: string | undefined;
  /** Why pg_trgm could not be created, when it could not. */
  readonly trigramProblem?: string | undefined;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

async function currentVersion(client: Queryable, schema: string): Promise<number> {
  const table = `${quoteIdentifier(schema)}.schema_migrations`;
  const exists = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [table]);
  if (exists.rows[0]?.found == null) return 0;
  const result = await client.query<{ version: number }>(
    `SELECT COALESCE(MAX(version), 0)::int AS version FROM ${table}`,
  );
  return result.rows[0]?.version ?? 0;
}

/** The schema pg_trgm is installed in, if it is. */
export async function trigramSchemaOf(client: Queryable): Promise<string | undefined> {
  const result = await client.query<{ schema: string }>(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
  );
  return result.rows[0]?.schema;
}

/** Throws unless the schema is exactly at `SCHEMA_VERSION` (for opens with `migrate: false`). */
export async function checkVersion(client: Queryable, schema: string, location: string): Promise<MigrationResult> {
  const version = await currentVersion(client, schema);
  checkNotNewer(version, SCHEMA_VERSION, location);
  if (version < SCHEMA_VERSION) {
    throw new StoreUnavailableError(
      `${location}: schema ${schema} is at version ${version}, older than ${SCHEMA_VERSION}, and migrations are off; ` +
        `run \`context-ledger migrate --store ${location.replace(/\?.*$/, '')}\` (or open with migrate: true).`,
      { location, version, supported: SCHEMA_VERSION },
    );
  }
  return { fromVersion: version, toVersion: version, trigramSchema: await trigramSchemaOf(client) };
}

/** Brings `schema` to `SCHEMA_VERSION` (creating it when missing). */
export async function runMigrations(client: Queryable, schema: string, location: string): Promise<MigrationResult> {
  const before = await currentVersion(client, schema);
  checkNotNewer(before, SCHEMA_VERSION, location);
  if (before === SCHEMA_VERSION)
    return { fromVersion: before, toVersion: before, trigramSchema: await trigramSchemaOf(client) };
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    let trigramProblem: string | undefined;
    await client.query('SAVEPOINT trigram');
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await client.query('RELEASE SAVEPOINT trigram');
    } catch (error) {
      await client.query('ROLLBACK TO SAVEPOINT trigram');
      trigramProblem = error instanceof Error ? error.message : String(error);
    }
    const trigramSchema = await trigramSchemaOf(client);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    const path = [schema, ...(trigramSchema === undefined ? [] : [trigramSchema])].map(quoteIdentifier).join(', ');
    await client.query(`SET LOCAL search_path TO ${path}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const from = await currentVersion(client, schema);
    checkNotNewer(from, SCHEMA_VERSION, location);
    for (let version = from; version < SCHEMA_VERSION; version += 1) {
      await client.query(MIGRATIONS[version] ?? '');
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version + 1]);
    }
    await client.query('COMMIT');
    return { fromVersion: from, toVersion: SCHEMA_VERSION, trigramSchema, trigramProblem };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
