/**
 * The SQLite `LedgerStore`: a context (the connection, its statements and session lookups: `sqlite-context.ts`), the
 * work off the write path (`write-upkeep.ts`), and the four parts of every store (`store-parts.ts`): sessions, spans,
 * search and records. Opening migrates the file (`open-database.ts`, `migrate.ts`).
 */
import { composeStore } from '../store-parts.js';
import type { LedgerStore } from '../store.js';
import { SqliteContext } from './sqlite-context.js';
import { SqliteRecords } from './sqlite-records.js';
import { SqliteSearch } from './sqlite-search.js';
import { SqliteSessions } from './sqlite-sessions.js';
import { SqliteSpans } from './sqlite-spans.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { WriteUpkeep } from './write-upkeep.js';

/**
 * Creates a `LedgerStore` on a SQLite file (kind `sqlite`, location `sqlite:<absolute path>`)
 * with better-sqlite3: WAL, `synchronous=NORMAL` (an acknowledged append survives a killed
 * process; an OS crash may lose the last transactions), a busy timeout (default 5 s), and triggers that
 * make spans, occurrences, handles, records and sessions append-only for every connection. Each write commits
 * before it is acknowledged, or, with `durability: 'batch'`, in groups (`write-groups.ts`). WAL
 * checkpoints run in a background worker (`background-checkpoint.ts`) and each append merges the
 * free-text index by one bounded step (`text-merging.ts`), so neither lands on one append.
 *
 * Throws `StoreUnavailableError` (before creating anything) when the path cannot be created,
 * read or written. Operations fail with `SequenceConflictError` (stale `expectedNextSeq`, or a
 * record ordinal already taken), `ImmutableSpanError` (a record id already written),
 * `TenantMismatchError`, `NotFoundError` (session never opened), `InvalidInputError`, and
 * `StoreOperationError` naming the location and operation for any driver failure.
 */
export function createSqliteStore(options: SqliteStoreOptions): LedgerStore {
  const context = new SqliteContext(options);
  const upkeep = new WriteUpkeep(context, options.backgroundCheckpoint);
  return composeStore({
    kind: 'sqlite',
    location: context.location,
    sessions: new SqliteSessions(context),
    spans: new SqliteSpans(context, upkeep),
    search: new SqliteSearch(context, upkeep.textIndex),
    records: new SqliteRecords(context, upkeep),
    async flush() {
      return context.guard('flush', () => {
        if (context.db.open) context.writes.commit();
      });
    },
    async close() {
      await upkeep.stop();
      return context.guard('close', () => {
        if (!context.db.open) return;
        try {
          context.writes.commit();
        } finally {
          context.db.close();
        }
      });
    },
  });
}
