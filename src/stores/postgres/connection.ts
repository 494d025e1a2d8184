/**
 * Options of the PostgreSQL store, its display location (never with a password) and its pool.
 */
import pg from 'pg';
import { InvalidInputError } from '../../errors.js';

/** Options of `createPostgresStore` and `migratePostgres`. */
export interface PostgresStoreOptions {
  /**
   * `postgres://USER[:PASSWORD]@HOST:PORT/DB[?schema=NAME]`; default: env `CONTEXT_LEDGER_PG_URL`.
   * Ignored when `pool` is given.
   */
  readonly connectionString?: string | undefined;
  /** A pool the caller owns (it is not ended by `close()`); wins over `connectionString`. */
  readonly pool?: pg.Pool | undefined;
  /** PostgreSQL schema holding the ledger's tables (created when missing); default `context_ledger`. */
  readonly schema?: string | undefined;
  /** Largest number of connections of the store's own pool (default 10). */
  readonly maxConnections?: number | undefined;
  /** How long to wait for a connection before failing (default 10 000 ms). */
  readonly connectTimeoutMs?: number | undefined;
  /** Run pending migrations on open (default true); false only checks the schema version. */
  readonly migrate?: boolean | undefined;
  /**
   * Prepare the store's fixed statements once per connection (default true). Set false behind a
   * pooler that cannot keep named prepared statements (PgBouncer in transaction mode before 1.21):
   * every statement is then parsed and planned on each call, as an unnamed one.
   */
  readonly preparedStatements?: boolean | undefined;
  /**
   * OPT-IN, LESS DURABLE. `'off'` sets `synchronous_commit = off` on each connection of the store's own pool: a
   * commit then returns before its WAL is flushed to disk, which takes the server's fsync out of every append
   * (measured: append p50 about 6 ms -> 4 ms on a loaded 2-core machine). A crash of the PostgreSQL server or its
   * machine may then lose the last acknowledged appends and records (up to about three `wal_writer_delay`, 600 ms
   * by default); it never corrupts the database or breaks the ledger's order. Default (unset): the server's own
   * setting, normally `on`, where an acknowledged append is on disk. Not allowed with `pool` (set it on that pool).
   * The `SET` is sent when a connection opens; if it fails there (only a broken connection refuses it, and that
   * connection's next query then fails with the real error), the connection keeps the server's setting: its
   * commits stay synchronous, the durable side.
   */
  readonly synchronousCommit?: 'off' | undefined;
}

/** Default of `PostgresStoreOptions.schema`. */
export const DEFAULT_SCHEMA = 'context_ledger';

/** A resolved connection: the pool, whether the store owns it, where it points. */
export interface Connection {
  /** The pool every query goes through. */
  readonly pool: pg.Pool;
  /** True when the store created the pool (and so ends it on close). */
  readonly ownsPool: boolean;
  /** `postgres://host:port/db`, plus `?schema=` when not the default. */
  readonly location: string;
  /** The schema name (validated, unquoted). */
  readonly schema: string;
}

/** Double-quoted SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `postgres://host:port/db` of a connection string, without user or password. */
export function describeConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = url.hostname === '' ? (url.searchParams.get('host') ?? 'localhost') : url.hostname;
    const database =
      decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
    return `postgres://${host}:${url.port || '5432'}/${database}`;
  } catch {
    return 'postgres://(unparsable connection string)';
  }
}

function describePool(pool: pg.Pool): string {
  const options = pool.options as pg.PoolOptions;
  if (typeof options.connectionString === 'string') return describeConnectionString(options.connectionString);
  return `postgres://${options.host ?? 'localhost'}:${options.port ?? 5432}/${options.database ?? options.user ?? 'postgres'}`;
}

/** Takes a `schema=` query parameter (as in the store's own location) out of a connection string. */
function splitSchema(connectionString: string | undefined): {
  connectionString: string | undefined;
  schema: string | undefined;
} {
  if (typeof connectionString !== 'string' || !/[?&]schema=/.test(connectionString))
    return { connectionString, schema: undefined };
  try {
    const url = new URL(connectionString);
    const schema = url.searchParams.get('schema') ?? undefined;
    url.searchParams.delete('schema');
    return { connectionString: url.toString(), schema };
  } catch {
    return { connectionString, schema: undefined };
  }
}

function checkPositive(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved <= 0) {
    throw new InvalidInputError(
      `createPostgresStore: options.${name} must be a positive whole number, got ${String(value)}.`,
      { [name]: value },
    );
  }
  return resolved;
}

/** Whether the caller opted into `synchronous_commit = off` (see `PostgresStoreOptions.synchronousCommit`). */
function checkSynchronousCommit(options: PostgresStoreOptions): boolean {
  const value = options.synchronousCommit;
  if (value !== undefined && value !== 'off') {
    throw new InvalidInputError(
      `createPostgresStore: options.synchronousCommit must be 'off' or left out (the server's setting), got ${JSON.stringify(value)}.`,
      { synchronousCommit: value },
    );
  }
  if (value === 'off' && options.pool) {
    throw new InvalidInputError(
      "createPostgresStore: options.synchronousCommit applies to the store's own pool; with options.pool, set " +
        'synchronous_commit on that pool (e.g. its connection options) instead.',
      { synchronousCommit: value },
    );
  }
  return value === 'off';
}

/** Validates the options and creates (or adopts) the pool. Connects lazily: nothing is sent yet. */
export function openConnection(options: PostgresStoreOptions): Connection {
  const given = options?.pool ? undefined : splitSchema(options?.connectionString ?? process.env.CONTEXT_LEDGER_PG_URL);
  const schema = options?.schema ?? given?.schema ?? DEFAULT_SCHEMA;
  if (typeof schema !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new InvalidInputError(
      `createPostgresStore: options.schema must be a plain identifier (letters, digits, _; at most 63), got ${JSON.stringify(schema)}.`,
      { schema },
    );
  }
  const suffix = schema === DEFAULT_SCHEMA ? '' : `?schema=${schema}`;
  const relaxed = checkSynchronousCommit(options);
  if (options.pool)
    return { pool: options.pool, ownsPool: false, location: describePool(options.pool) + suffix, schema };
  const connectionString = given?.connectionString;
  if (typeof connectionString !== 'string' || connectionString.length === 0) {
    throw new InvalidInputError(
      'createPostgresStore: give options.connectionString (postgres://USER@HOST:PORT/DB) or options.pool, or set CONTEXT_LEDGER_PG_URL.',
      { connectionString },
    );
  }
  const pool = new pg.Pool({
    connectionString,
    max: checkPositive('maxConnections', options.maxConnections, 10),
    connectionTimeoutMillis: checkPositive('connectTimeoutMs', options.connectTimeoutMs, 10_000),
    application_name: 'context-ledger',
  });
  // Queued on the new client before any query of the store, so each of them runs with it. A failed SET leaves the
  // connection synchronous (see the option), so the error is not raised here: the client's next query reports it.
  if (relaxed) pool.on('connect', (client) => void client.query('SET synchronous_commit = off').catch(() => undefined));
  return { pool, ownsPool: true, location: describeConnectionString(connectionString) + suffix, schema };
}
