/**
 * `context-ledger migrate --store SPEC`: bring a store's schema to the version this build
 * reads, and say what was done. Safe to run from several hosts at once (PostgreSQL migrates
 * under an advisory lock; SQLite in an IMMEDIATE transaction).
 */
import { InvalidInputError } from '../errors.js';

/** Options of `context-ledger migrate`, as commander parses them. */
export interface MigrateCommandOptions {
  /** Store spec: `postgres://…` or `sqlite:PATH`. */
  readonly store: string;
  /** PostgreSQL schema (default `context_ledger`). */
  readonly schema?: string | undefined;
}

/** Runs the migrations of the store named by `options.store`, printing one line per fact. */
export async function migrateCommand(options: MigrateCommandOptions, print: (line: string) => void): Promise<void> {
  const spec = options.store;
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) {
    const { migratePostgres } = await import('../stores/postgres/index.js');
    const result = await migratePostgres({ connectionString: spec, schema: options.schema });
    const change =
      result.fromVersion === result.toVersion ? 'already current' : `migrated from version ${result.fromVersion}`;
    print(`${result.location}: schema ${result.schema} at version ${result.toVersion} (${change})`);
    const problem = result.trigramProblem ? ` (${result.trigramProblem})` : '';
    print(
      result.trigramSchema === undefined
        ? `free-text search: pg_trgm is not installed${problem}; search uses ILIKE without an index. ` +
            'Install the extension (CREATE EXTENSION pg_trgm) and re-create the schema for indexed search.'
        : `free-text search: pg_trgm trigram index (extension in schema ${result.trigramSchema})`,
    );
    return;
  }
  if (spec.startsWith('sqlite:')) {
    if (options.schema !== undefined)
      throw new InvalidInputError('--schema applies to PostgreSQL stores only.', { store: spec });
    const { createSqliteStore, SCHEMA_VERSION } = await import('../stores/sqlite/index.js');
    const store = createSqliteStore({ path: spec.slice('sqlite:'.length) });
    print(`${store.location}: schema at version ${SCHEMA_VERSION}`);
    await store.close();
    return;
  }
  throw new InvalidInputError(
    `migrate --store ${JSON.stringify(spec)}: give postgres://USER@HOST:PORT/DB or sqlite:PATH (a memory: store has no schema to migrate).`,
    { store: spec },
  );
}
