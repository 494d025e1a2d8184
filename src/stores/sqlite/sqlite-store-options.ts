/**
 * Options of the SQLite store. Apart from `open-database.ts` so the public declarations need no driver types.
 */

/**
 * When the SQLite store's writes are committed (`SqliteStoreOptions.durability`):
 * - `'commit'`: each write (append, record, session opened) commits before its promise resolves; once acknowledged it
 *   survives the process being killed right after (an OS crash or power loss may lose the last ones, never corrupting
 *   the file). What a hook, a library session or a server needs.
 * - `'batch'`: writes are grouped into one transaction that commits about every second of writing
 *   (`GROUP_COMMIT_MS`), when the store has been idle that long, and on `close()`. A process killed before a group
 *   commits loses that group's writes (whole writes, the last ones: the ledger keeps a prefix of what was written, so
 *   `replay --resume` continues it); other connections see the writes once their group commits, and their own writes
 *   wait for it. For a bulk write that can be redone, like `replay`: on the real SWE-agent session it writes a
 *   fraction of the pages and syncs.
 */
export type SqliteDurability = 'commit' | 'batch';

/** The values of `SqliteDurability`. */
export const SQLITE_DURABILITIES: readonly SqliteDurability[] = ['commit', 'batch'];

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
  /**
   * When writes are committed: `'commit'` (default), each before its promise resolves; `'batch'`, grouped into fewer
   * transactions, committed on `close()` at the latest (see `SqliteDurability`). Ignored read-only.
   */
  readonly durability?: SqliteDurability;
}

/** Default of `SqliteStoreOptions.busyTimeoutMs`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
