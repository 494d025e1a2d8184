/**
 * Opening a SQLite ledger file: path checks before any work, the SQL functions reads use (`span_text`), pragmas,
 * schema migration.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { InvalidInputError, LedgerError, StoreUnavailableError } from '../../errors.js';
import { checkSchema, migrate } from './migrate.js';
import { registerSpanTextFunction } from './span-text.js';
import { DEFAULT_BUSY_TIMEOUT_MS, type SqliteStoreOptions } from './sqlite-store-options.js';
import { useStepMerging } from './text-merging.js';

/** An open database and its display location. */
export interface OpenedDatabase {
  /** The connection. */
  readonly db: Database.Database;
  /** `sqlite:<absolute path>`. */
  readonly location: string;
  /** The busy timeout in effect. */
  readonly busyTimeoutMs: number;
  /** Absolute path of the file; undefined for `:memory:`. */
  readonly file: string | undefined;
}

function unavailable(location: string, what: string, todo: string, error?: unknown): LedgerError {
  const reason = error instanceof Error ? `: ${error.message}` : '';
  return new StoreUnavailableError(`${location}: ${what}${reason}; ${todo}.`, { location }, { cause: error });
}

/**
 * The driver's native addon, when it is where the driver's install puts it (`build/Release` of the package). Given to
 * the driver (`nativeBinding`), it is loaded from there directly, without the `bindings` package's search of a dozen
 * folders (a hook call, a new process after every answer, spent about a quarter of loading the driver in that search).
 * Undefined when it is elsewhere: the driver then searches as before. (Looked up at each open, a few file checks: a
 * module of `src/stores` keeps no state.)
 */
export function nativeAddon(): string | undefined {
  try {
    const main = createRequire(import.meta.url).resolve('better-sqlite3');
    const file = join(dirname(main), '..', 'build', 'Release', 'better_sqlite3.node');
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates `directory` and its missing parents one level at a time. (Node's recursive
 * `mkdirSync` never returns under `/proc`, where `mkdir` reports ENOENT for a parent that exists.)
 */
function makeDirectory(directory: string): void {
  if (existsSync(directory)) return;
  const parent = dirname(directory);
  if (parent === directory) throw new Error(`root ${directory} does not exist`);
  makeDirectory(parent);
  try {
    mkdirSync(directory);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
}

/** Throws `StoreUnavailableError` when the file cannot be created, read or written. */
function checkPath(file: string, location: string, readonly: boolean): void {
  if (readonly) {
    try {
      accessSync(file, constants.R_OK);
    } catch (error) {
      throw unavailable(
        location,
        'cannot open the ledger read-only',
        'check the path, or open it read-write once to create it',
        error,
      );
    }
    return;
  }
  const directory = dirname(file);
  try {
    makeDirectory(directory);
    if (!statSync(directory).isDirectory()) throw new Error(`${directory} is not a directory`);
    accessSync(directory, constants.W_OK);
  } catch (error) {
    throw unavailable(
      location,
      `directory ${directory} cannot be created or written`,
      'choose a writable path or fix its permissions',
      error,
    );
  }
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats && !stats.isFile()) throw new Error(`${file} is not a regular file`);
    if (stats) accessSync(file, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw unavailable(
      location,
      'the ledger file cannot be read and written',
      'choose another path or fix its permissions',
      error,
    );
  }
}

/**
 * Opens a WAL ledger read-only. SQLite needs to create the `-shm` file next to it; when the
 * directory is not writable (SQLITE_READONLY_DIRECTORY) and no `-wal` content is pending, the
 * file is read into memory instead (a snapshot: still read-only).
 */
function openReadonly(file: string, location: string): Database.Database {
  const nativeBinding = nativeAddon();
  const db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding });
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code !== 'SQLITE_READONLY_DIRECTORY') throw error;
    if ((statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0) {
      throw unavailable(
        location,
        'cannot open the ledger read-only: its directory is not writable and it has pending WAL content',
        'open it once read-write, or make the directory writable',
        error,
      );
    }
    const image = readFileSync(file);
    // Bytes 18-19 of the header say "WAL"; an in-memory image must read as a rollback-journal file.
    image[18] = 1;
    image[19] = 1;
    return new Database(image, { readonly: true, nativeBinding });
  }
}

/**
 * Opens (and, read-write, creates and migrates) the database. WAL with `synchronous=NORMAL`:
 * an acknowledged append survives a crash or kill of the process; only an OS crash or power
 * loss may lose the last transactions (they never corrupt the file).
 */
export function openDatabase(options: SqliteStoreOptions): OpenedDatabase {
  if (typeof options?.path !== 'string' || options.path.length === 0) {
    throw new InvalidInputError('createSqliteStore: options.path must be a non-empty file path (or ":memory:").', {
      path: options?.path,
    });
  }
  const readonly = options.readonly === true;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new InvalidInputError(
      `createSqliteStore: options.busyTimeoutMs must be a whole number of milliseconds ≥ 0, got ${String(busyTimeoutMs)}.`,
      { busyTimeoutMs },
    );
  }
  const cacheSizeKiB = options.cacheSizeKiB;
  if (cacheSizeKiB !== undefined && (!Number.isSafeInteger(cacheSizeKiB) || cacheSizeKiB < 1)) {
    throw new InvalidInputError(
      `createSqliteStore: options.cacheSizeKiB must be a whole number of KiB ≥ 1, got ${String(cacheSizeKiB)}.`,
      { cacheSizeKiB },
    );
  }
  const inMemory = options.path === ':memory:';
  const file = inMemory ? options.path : resolve(options.path);
  const location = `sqlite:${file}`;
  if (!inMemory) checkPath(file, location, readonly);
  let db: Database.Database;
  try {
    db =
      readonly && !inMemory
        ? openReadonly(file, location)
        : new Database(file, { readonly, fileMustExist: readonly, nativeBinding: nativeAddon() });
  } catch (error) {
    throw unavailable(location, 'cannot open the database', 'check the path and its permissions', error);
  }
  try {
    registerSpanTextFunction(db, location);
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('foreign_keys = ON');
    if (cacheSizeKiB !== undefined) db.pragma(`cache_size = -${cacheSizeKiB}`);
    if (readonly) {
      checkSchema(db, location);
    } else {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // Statement journals in memory: each INSERT of an append journals the pages it changes (foreign keys and
      // multi-row inserts need one), and past 64 KiB SQLite spilled that journal to a temporary file: measured
      // about 60 page writes (120 write calls) an append of a 1-20 KB turn, 218 write calls an append before, 96 after.
      db.pragma('temp_store = MEMORY');
      migrate(db, location);
      useStepMerging(db);
    }
  } catch (error) {
    db.close();
    if (LedgerError.isInstance(error)) throw error;
    throw unavailable(
      location,
      'cannot prepare the database (is it a context-ledger SQLite file?)',
      'check the file or choose another path',
      error,
    );
  }
  return { db, location, busyTimeoutMs, file: inMemory ? undefined : file };
}
