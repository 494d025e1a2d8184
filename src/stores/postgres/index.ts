/** The PostgreSQL `LedgerStore` (the `context-ledger/postgres` subpath; loads `pg`). */
export { createPostgresStore, migratePostgres } from './postgres-store.js';
export { DEFAULT_SCHEMA } from './connection.js';
export type { PostgresStoreOptions } from './connection.js';
export type { MigrationResult } from './migrate.js';
export { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
