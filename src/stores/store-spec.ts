import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { SqliteDurability } from './sqlite/sqlite-store-options.js';
import type { LedgerStore } from './store.js';

/** The default store of the CLI: an embedded SQLite file under `.context-ledger/`. */
export const DEFAULT_STORE = 'sqlite:.context-ledger/ledger.db';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /**
   * For commands that only read (`recall`): a SQLite file is opened read-only (so a ledger
   * the user cannot write still answers) and must already exist; nothing is ever created.
   */
  readonly readonly?: boolean | undefined;
  /**
   * For commands that use a ledger but must not start one (`serve`, `describe`, `expand`, `grep`): a SQLite path where
   * no file exists is refused (a typo would otherwise serve a new, empty ledger), and nothing is created.
   */
  readonly existing?: boolean | undefined;
  /** A sentence added to the error of a missing SQLite ledger (`serve`: how to start an empty one on purpose). */
  readonly missingHint?: string | undefined;
  /**
   * False: a SQLite store checkpoints its WAL inside the append that crosses SQLite's threshold instead of in a
   * background worker (default true). For a process that writes a few turns and exits (a hook call, which would stop
   * the worker again milliseconds later) and for a batch write no agent waits on (`replay`: the worker's thread,
   * connection and heap cost about 10 MB of peak RSS and no throughput).
   */
  readonly backgroundCheckpoint?: boolean | undefined;
  /** A SQLite store's page cache in KiB (`SqliteStoreOptions.cacheSizeKiB`); other stores ignore it. */
  readonly sqliteCacheKiB?: number | undefined;
  /**
   * When a SQLite store commits (`SqliteStoreOptions.durability`, default `'commit'`: each write before it is
   * acknowledged); a `?durability=` in the spec wins over it. `replay` passes `'batch'`. Other stores ignore it.
   */
  readonly durability?: SqliteDurability | undefined;
}

/** A `sqlite:` spec's file path and the parameters after it (`sqlite:PATH?durability=batch`). */
export interface SqliteSpec {
  readonly path: string;
  readonly durability?: SqliteDurability | undefined;
}

/** The parameters a `sqlite:` spec takes after `?`, and their values. */
const SQLITE_PARAMETERS: Readonly<Record<string, readonly string[]>> = { durability: ['commit', 'batch'] };

/**
 * The path and parameters of a `sqlite:` spec. `?name=value[&name=value]` at the end is read as parameters when every
 * name is a word: `durability=commit|batch` (when writes are committed, `SqliteDurability`); another name or value is
 * refused. Anything else after a `?` stays part of the path.
 */
export function parseSqliteSpec(spec: string): SqliteSpec {
  const rest = spec.slice('sqlite:'.length);
  const query = rest.lastIndexOf('?');
  const pairs = query < 0 ? [] : rest.slice(query + 1).split('&');
  if (pairs.length === 0 || !pairs.every((pair) => /^[a-z][a-z_-]*=[^&=]*$/i.test(pair))) return { path: rest };
  let durability: SqliteDurability | undefined;
  for (const pair of pairs) {
    const [name = '', value = ''] = pair.split('=');
    const values = SQLITE_PARAMETERS[name];
    if (values === undefined || !values.includes(value))
      throw new InvalidInputError(
        `--store ${spec}: ${values === undefined ? `unknown parameter "${name}"` : `"${value}" is not a ${name}`}; ` +
          `a sqlite: spec takes ${Object.entries(SQLITE_PARAMETERS)
            .map(([key, allowed]) => `?${key}=${allowed.join('|')}`)
            .join(', ')}`,
        { store: spec },
      );
    durability = value as SqliteDurability;
  }
  return { path: rest.slice(0, query), durability };
}

/** Refuse a SQLite ledger path where no file exists (a command that must not create one), naming the path. */
async function requireLedgerFile(spec: string, path: string, options: OpenStoreOptions): Promise<void> {
  const stats = await stat(path).catch(() => undefined);
  if (stats?.isFile()) return;
  const what = stats === undefined ? 'no ledger file' : 'not a ledger file';
  throw new NotFoundError(
    `--store ${spec}: ${what} at ${resolve(path)}; this command never creates one. Run replay first, or check the ` +
      `path (the default is ${DEFAULT_STORE}, relative to the current directory).` +
      (options.missingHint === undefined ? '' : ` ${options.missingHint}`),
    { store: spec, path: resolve(path) },
  );
}

/**
 * Open a store from a spec: `sqlite:PATH` (optionally `sqlite:PATH?durability=batch`, see {@link parseSqliteSpec}),
 * `memory:` or `postgres://…`. Drivers are imported only when used. Fails before any work when the store cannot be
 * opened.
 */
export async function openStore(spec: string = DEFAULT_STORE, options: OpenStoreOptions = {}): Promise<LedgerStore> {
  if (spec === 'memory:' || spec === 'memory') {
    const { createMemoryStore } = await import('./memory/memory-store.js');
    return createMemoryStore();
  }
  if (spec.startsWith('sqlite:')) {
    const parsed = parseSqliteSpec(spec);
    const { path } = parsed;
    const durability = parsed.durability ?? options.durability;
    if (path.length === 0)
      throw new InvalidInputError(
        `--store ${spec}: give a file path after "sqlite:", e.g. sqlite:.context-ledger/ledger.db`,
        { store: spec },
      );
    const { createSqliteStore } = await import('./sqlite/sqlite-store.js');
    if (path !== ':memory:' && (options.readonly === true || options.existing === true))
      await requireLedgerFile(spec, path, options);
    if (options.readonly === true && path !== ':memory:') return createSqliteStore({ path, readonly: true });
    return createSqliteStore({
      path,
      ...(options.backgroundCheckpoint === false ? { backgroundCheckpoint: false } : {}),
      ...(options.sqliteCacheKiB !== undefined ? { cacheSizeKiB: options.sqliteCacheKiB } : {}),
      ...(durability !== undefined ? { durability } : {}),
    });
  }
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) {
    const module = './postgres/index.js';
    const loaded = (await import(module).catch(() => undefined)) as
      { createPostgresStore?: (options: { connectionString: string }) => Promise<LedgerStore> } | undefined;
    if (!loaded?.createPostgresStore)
      throw new InvalidInputError(`--store ${spec}: the PostgreSQL store is not available in this build`, {
        store: spec,
      });
    return loaded.createPostgresStore({ connectionString: spec });
  }
  throw new InvalidInputError(
    `--store ${JSON.stringify(spec)} is not a store spec: ` +
      `use sqlite:PATH (default ${DEFAULT_STORE}), memory:, or postgres://USER@HOST:PORT/DB`,
    { store: spec },
  );
}
