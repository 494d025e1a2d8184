/**
 * Options of the SQLite store. Apart from `open-database.ts` so the public declarations need no driver types.
 */

/** Options of `createSqliteStore`. */
export interface SqliteStoreOptions {
  /** Path of the database file (created with its directory when missing), or `:memory:`. */
  readonly path: string;
  /** Open without write access; the file must exist and be migrated. Writes then fail. */
  readonly readonly?: boolean;
  /** How long to wait for another connection's lock before failing (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /**
   * Run WAL checkpoints in a worker thread with its own connection, off the append path
   * (default true; see `background-checkpoint.ts`). False: SQLite's automatic checkpoint runs
   * inside the COMMIT of the append that crosses 1000 WAL pages. Durability is the same either way.
   */
  readonly backgroundCheckpoint?: boolean;
  /**
   * The connection's page cache in KiB (`PRAGMA cache_size`; default: the driver's, 16 MiB for better-sqlite3). A
   * batch writer with no reader to serve can keep less (`replay` keeps 4,000 KiB).
   */
  readonly cacheSizeKiB?: number;
}

/** Default of `SqliteStoreOptions.busyTimeoutMs`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
