/**
 * What the parts of the PostgreSQL store share (`postgres-store.ts` composes them): the pool and the location errors
 * name, the queries of its schema (prepared by name unless turned off), the session lookups, and the cleaner of the
 * trigram index's pending list. Every query goes through `read` (retried once on a connection dropped while idle) or
 * `write` (never retried).
 */
import type pg from 'pg';
import { StoreUnavailableError } from '../../errors.js';
import { openConnection, type Connection, type PostgresStoreOptions } from './connection.js';
import { isConnectionError, mapPostgresError } from './driver-errors.js';
import type { MigrationResult } from './migrate.js';
import { openSchema } from './open-schema.js';
import { createPendingListCleaner, type PendingListCleaner } from './pending-list-cleaner.js';
import { buildQueries, type Queries, type SessionRow } from './queries.js';
import { PostgresSessionLookup } from './session-lookup.js';
import { statementNames } from './statement-names.js';

/**
 * Connects and migrates (or checks) the schema, then returns the context; on failure the pool is let go (ended when
 * the store made it) before the error is thrown.
 */
export async function openPostgresContext(options: PostgresStoreOptions): Promise<PostgresContext> {
  const connection = openConnection(options);
  const { pool, ownsPool, schema, location } = connection;
  const onIdleError = () => undefined; // An idle connection that dies is dropped by the pool; the next query reconnects.
  pool.on('error', onIdleError);
  let migration: MigrationResult;
  try {
    migration = await openSchema(pool, schema, location, options.migrate !== false);
  } catch (error) {
    pool.off('error', onIdleError);
    if (ownsPool) await pool.end().catch(() => undefined);
    throw error;
  }
  return new PostgresContext(connection, migration, options.preparedStatements !== false, onIdleError);
}

/** The pool of one PostgreSQL store and what its parts share. */
export class PostgresContext {
  /** `postgres://host:port/db` (plus `?schema=`), never with the password. */
  readonly location: string;
  /** The queries of the store's schema. */
  readonly sql: Queries;
  /** Tenants and span row keys of the sessions seen. */
  readonly sessions: PostgresSessionLookup;
  /** Cleans the trigram index's pending list after appends (undefined without pg_trgm). */
  readonly cleaner: PendingListCleaner | undefined;
  private readonly connection: Connection;
  /** Name each fixed statement is prepared under, by its text (empty: prepared statements off). */
  private readonly statementNameByText: ReadonlyMap<string, string>;
  private closed = false;

  constructor(
    connection: Connection,
    migration: MigrationResult,
    preparedStatements: boolean,
    private readonly onIdleError: () => void,
  ) {
    this.connection = connection;
    this.location = connection.location;
    this.sql = buildQueries(connection.schema, migration.trigramSchema);
    this.statementNameByText = preparedStatements
      ? statementNames({ ...this.sql, similarity: undefined })
      : new Map<string, string>();
    this.cleaner =
      migration.trigramSchema === undefined ? undefined : createPendingListCleaner(connection.pool, connection.schema);
    this.sessions = new PostgresSessionLookup(async (sessionId, operation) => {
      const [row] = await this.read<SessionRow>(operation, this.sql.session, [sessionId]);
      return row;
    });
  }

  /** Rows of a query that only reads: sent once more when the connection was dropped while idle. */
  read<R extends pg.QueryResultRow>(operation: string, text: string, values: unknown[]): Promise<R[]> {
    return this.run<R>(operation, text, values, true);
  }

  /** Rows of a query that writes (never sent twice). */
  write<R extends pg.QueryResultRow>(operation: string, text: string, values: unknown[]): Promise<R[]> {
    return this.run<R>(operation, text, values, false);
  }

  /** Waits for the pending-list clean in flight, then ends the pool (or, not the store's, lets it go). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.cleaner?.idle();
    if (this.connection.ownsPool) await this.connection.pool.end();
    else this.connection.pool.off('error', this.onIdleError);
  }

  private async run<R extends pg.QueryResultRow>(
    operation: string,
    text: string,
    values: unknown[],
    retry: boolean,
  ): Promise<R[]> {
    if (this.closed)
      throw new StoreUnavailableError(
        `${this.location}: ${operation} failed: the store is closed; create a new store with createPostgresStore.`,
        { location: this.location, operation },
      );
    try {
      const name = this.statementNameByText.get(text);
      return (await this.connection.pool.query<R>({ name, text, values })).rows;
    } catch (error) {
      // A read on a connection the server dropped while idle is safe to send once more.
      if (retry && isConnectionError(error)) return this.run<R>(operation, text, values, false);
      throw mapPostgresError(this.location, operation, error);
    }
  }
}
