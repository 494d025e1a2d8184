/**
 * The PostgreSQL `LedgerStore`: a context (the pool, the queries of its schema, the session lookups:
 * `postgres-context.ts`) and the four parts of every store (`store-parts.ts`): sessions, spans, search and records.
 * Opening migrates the schema (`open-schema.ts`, `migrate.ts`).
 */
import { composeStore } from '../store-parts.js';
import type { LedgerStore } from '../store.js';
import type { PostgresStoreOptions } from './connection.js';
import { openPostgresContext } from './postgres-context.js';
import { PostgresRecords } from './postgres-records.js';
import { PostgresSearch } from './postgres-search.js';
import { PostgresSessions } from './postgres-sessions.js';
import { PostgresSpans } from './postgres-spans.js';

/**
 * Creates a `LedgerStore` on PostgreSQL (kind `postgres`, location `postgres://host:port/db`,
 * never with the password), for many workers on many hosts. Opening connects and runs the
 * versioned migrations under an advisory lock (see `schema.ts`); tables live in
 * `options.schema` (default `context_ledger`).
 *
 * Guarantees: each append batch is one statement (`append_batch()`: multi-row INSERTs from
 * `unnest`) in one transaction, serialized per session by a transaction-scoped advisory lock,
 * with `PRIMARY KEY (session_id, seq)` as a second line of defence; different sessions append
 * in parallel. Triggers refuse UPDATE, DELETE and TRUNCATE for every connection. Free-text
 * search is a literal, case-insensitive, any-term substring match served by a pg_trgm GIN index
 * (plain ILIKE when the extension is unavailable), ranked by terms matched, then similarity,
 * then seq. Span text may contain U+0000 (kept exactly); ids, labels and handles may not.
 * The trigram index's pending list is cleaned in the background after appends
 * (`pending-list-cleaner.ts`), not by the append that finds it full.
 *
 * Errors: `StoreUnavailableError` when the server cannot be reached or the connection drops
 * (naming the location and what to check; the pool reconnects on the next call),
 * `SequenceConflictError`, `ImmutableSpanError`, `TenantMismatchError`, `NotFoundError`,
 * `InvalidInputError`, and `StoreOperationError` naming the location and operation otherwise.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<LedgerStore> {
  const context = await openPostgresContext(options);
  return composeStore({
    kind: 'postgres',
    location: context.location,
    sessions: new PostgresSessions(context),
    spans: new PostgresSpans(context),
    search: new PostgresSearch(context),
    records: new PostgresRecords(context),
    close: () => context.close(),
  });
}
