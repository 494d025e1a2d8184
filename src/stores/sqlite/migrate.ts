/**
 * Bringing a SQLite ledger to `SCHEMA_VERSION` (`PRAGMA user_version`), or checking it is there.
 * Kept apart from `schema.ts` so the public declarations (`SCHEMA_VERSION`) need no driver types.
 */
import type Database from 'better-sqlite3';
import { StoreUnavailableError } from '../../errors.js';
import { checkNotNewer } from '../schema-version.js';
import { copyCarriedHandles } from './migrate-carried-handles.js';
import { copyHandleRows } from './migrate-handle-rows.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { CURRENT_SCHEMA } from './schema-current.js';
import { registerSpanKeyFunction } from './span-keys.js';
import { registerPackSpanTextFunction } from './span-text.js';

/** Steps done in code after a migration's SQL, by the version they migrate from. */
const AFTER_SQL: Readonly<Partial<Record<number, (db: Database.Database) => void>>> = {
  5: copyHandleRows,
  7: copyCarriedHandles,
};

function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Steps done in code before a migration's SQL, by the version they migrate from. */
const BEFORE_SQL: Readonly<Partial<Record<number, (db: Database.Database) => void>>> = {
  8: registerSpanKeyFunction,
  9: registerPackSpanTextFunction,
};

/**
 * Brings the database to `SCHEMA_VERSION`, each pending migration in one IMMEDIATE
 * transaction so two processes opening a fresh file at once do not both migrate. Foreign keys are off while the
 * migrations run (versions 9 and 10 drop and make again tables other tables refer to) and checked before the commit.
 * A new file (version 0) is given the current schema directly (`schema-current.ts`), in the same transaction.
 */
export function migrate(db: Database.Database, location: string): void {
  if (schemaVersion(db) === SCHEMA_VERSION) return;
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      const current = schemaVersion(db);
      checkNotNewer(current, SCHEMA_VERSION, location);
      if (current === 0) db.exec(CURRENT_SCHEMA);
      else for (let version = current; version < SCHEMA_VERSION; version += 1) applyMigration(db, version);
      checkForeignKeys(db, location);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }).immediate();
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
  }
}

/** Throws, naming the table and row, when a row refers to a row that is not there (after migrating without checks). */
function checkForeignKeys(db: Database.Database, location: string): void {
  const broken = db.pragma('foreign_key_check') as { table: string; rowid: number | null; parent: string }[];
  const first = broken[0];
  if (first === undefined) return;
  throw new StoreUnavailableError(
    `${location}: migrating the ledger left ${broken.length} row(s) without the row they refer to ` +
      `(first: table ${first.table}, row ${first.rowid ?? 'without rowid'}, refers to ${first.parent}); nothing was changed.`,
    { location, table: first.table, parent: first.parent },
  );
}

/** Applies migration `version` (from `version` to `version + 1`) to `db` (also for tests that build an older ledger). */
export function applyMigration(db: Database.Database, version: number): void {
  BEFORE_SQL[version]?.(db);
  db.exec(MIGRATIONS[version] ?? '');
  AFTER_SQL[version]?.(db);
}

/** For read-only opens: throws unless the schema is exactly the current version. */
export function checkSchema(db: Database.Database, location: string): void {
  const version = schemaVersion(db);
  checkNotNewer(version, SCHEMA_VERSION, location);
  if (version < SCHEMA_VERSION) {
    throw new StoreUnavailableError(
      `${location}: the ledger has schema version ${version}, older than ${SCHEMA_VERSION}, and it was opened read-only; ` +
        'open it once read-write to migrate it.',
      { location, version, supported: SCHEMA_VERSION },
    );
  }
}
