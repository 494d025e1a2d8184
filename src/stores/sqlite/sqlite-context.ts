/**
 * What the parts of the SQLite store share (`sqlite-store.ts` composes them): the connection and its prepared
 * statements, the location errors name, whether the connection may write, the session lookups, and the driver-error
 * mapping every operation runs under.
 */
import type Database from 'better-sqlite3';
import { StoreOperationError } from '../../errors.js';
import { mapDriverError } from './driver-errors.js';
import { openDatabase } from './open-database.js';
import { RecentWrites } from './recent-writes.js';
import { SqliteSessionLookup } from './session-lookup.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { prepareStatements, type Statements } from './statements.js';
import { durabilityOf, WriteGroups } from './write-groups.js';

/** The connection of one SQLite store and what its parts share. */
export class SqliteContext {
  /** The connection. */
  readonly db: Database.Database;
  /** `sqlite:<absolute path>`. */
  readonly location: string;
  /** Absolute path of the file; undefined for `:memory:`. */
  readonly file: string | undefined;
  /** Whether the store was opened read-only (writes then fail). */
  readonly isReadonly: boolean;
  /** Every statement the parts run, prepared once. */
  readonly statements: Statements;
  /** Tenants, session numbers and span row keys of the sessions seen. */
  readonly sessions: SqliteSessionLookup;
  /** The spans and occurrences this connection appended lately (read back from memory: `recent-writes.ts`). */
  readonly recent = new RecentWrites();
  /** How writes commit: each on its own, or grouped (`write-groups.ts`). */
  readonly writes: WriteGroups;
  private readonly busyTimeoutMs: number;

  /** Opens (and, read-write, creates and migrates) the database: see `open-database.ts`. */
  constructor(options: SqliteStoreOptions) {
    const durability = durabilityOf(options);
    const { db, location, busyTimeoutMs, file } = openDatabase(options);
    this.db = db;
    this.location = location;
    this.busyTimeoutMs = busyTimeoutMs;
    this.file = file;
    this.isReadonly = options.readonly === true;
    this.statements = prepareStatements(db);
    this.sessions = new SqliteSessionLookup(this.statements, location);
    this.writes = new WriteGroups(db, location, this.isReadonly ? 'commit' : durability);
  }

  /** Runs `body` now; its result resolves, and a driver error rejects as the store's error naming `operation`. */
  guard<T>(operation: string, body: () => T): Promise<T> {
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(mapDriverError(this.location, operation, error, this.busyTimeoutMs));
    }
  }

  /** Throws `StoreOperationError` naming `operation` when the store was opened read-only. */
  checkWritable(operation: string): void {
    if (this.isReadonly) {
      throw new StoreOperationError(
        `${this.location}: ${operation} failed: the store was opened read-only; open it with readonly: false to write.`,
        { location: this.location, operation },
      );
    }
  }
}
