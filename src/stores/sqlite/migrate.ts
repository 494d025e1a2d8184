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

/** Steps done in code after a migration's SQL, by the version they migrate from. */
const AFTER_SQL: Readonly<Partial<Record<number, (db: Database.Database) => void>>> = {
  5: copyHandleRows,
  7: copyCarriedHandles,
};

function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the database to `SCHEMA_VERSION`, each pending migration in one IMMEDIATE
 * transaction so two processes opening a fresh file at once do not both migrate.
 */
export function migrate(db: Database.Database, location: string): void {
  if (schemaVersion(db) === SCHEMA_VERSION) return;
  db.transaction(() => {
    const current = schemaVersion(db);
    checkNotNewer(current, SCHEMA_VERSION, location);
    for (let version = current; version < SCHEMA_VERSION; version += 1) applyMigration(db, version);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** Applies migration `version` (from `version` to `version + 1`) to `db` (also for tests that build an older ledger). */
export function applyMigration(db: Database.Database, version: number): void {
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
