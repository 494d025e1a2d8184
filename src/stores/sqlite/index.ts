/** The SQLite `LedgerStore` (the `context-ledger/sqlite` subpath; loads better-sqlite3). */
export { createSqliteStore } from './sqlite-store.js';
export type { SqliteStoreOptions } from './sqlite-store-options.js';
export { SCHEMA_VERSION } from './schema.js';
