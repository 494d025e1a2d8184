/** The PostgreSQL `LedgerStore` (the `context-ledger/postgres` subpath; loads `pg`). */
export { createPostgresStore } from './postgres-store.js';
export { migratePostgres } from './open-schema.js';
export { DEFAULT_SCHEMA } from './connection.js';
export type { PostgresStoreOptions } from './connection.js';
export type { MigrationResult } from './migrate.js';
export { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
