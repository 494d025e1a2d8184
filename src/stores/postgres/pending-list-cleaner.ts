/**
 * Cleaning of the trigram GIN index's pending list off the append path. With `fastupdate` (the
 * default), an INSERT puts its index entries in a pending list, and the INSERT that finds the list
 * over `gin_pending_list_limit` (4 MB) moves the whole list into the index itself before it
 * returns (measured: 2-3 appends in 300 of 1-20 KB turns took 65-170 ms; a trigram entry per
 * character of text fills 4 MB every few hundred KB of text). Autovacuum also cleans the list, but
 * only at its insert thresholds. Instead, after an append, the store asks PostgreSQL to clean the
 * list (`gin_clean_pending_list`) on another pool connection without awaiting it, at most one
 * request in flight and one start per `CLEAN_INTERVAL_MS`; appends meanwhile add to the list's tail
 * and do not wait for the cleaning (an INSERT that reaches the limit while a clean runs skips its own).
 *
 * Skipped when the pool has a single connection (the clean would hold the connection the next
 * append needs), and turned off for good when the role may not clean the index (it must own it,
 * as for VACUUM): inserts then clean the list themselves, as without this.
 */
import type pg from 'pg';
import { quoteIdentifier } from './connection.js';

/** Least time between the starts of two cleans (ms). */
export const CLEAN_INTERVAL_MS = 1000;

/** SQLSTATE of "must be owner of index". */
const INSUFFICIENT_PRIVILEGE = '42501';

/** A pending-list cleaner of one store. */
export interface PendingListCleaner {
  /** Call after each append: starts a clean when none is running and the interval has passed. */
  appended(): void;
  /** Number of cleans that finished (for tests and diagnostics). */
  readonly cleans: number;
  /** Waits for the clean in flight, if any (before the pool ends). */
  idle(): Promise<void>;
}

/** A cleaner of `schema`'s trigram index (a missing index makes each clean a no-op). */
export function createPendingListCleaner(pool: pg.Pool, schema: string): PendingListCleaner {
  const index = `${quoteIdentifier(schema)}.spans_text_trigram`;
  const poolSize = (pool.options as pg.PoolOptions).max ?? 10;
  let enabled = poolSize >= 2;
  let inFlight: Promise<void> | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;
  let cleans = 0;
  return {
    appended() {
      if (!enabled || inFlight !== undefined || performance.now() - lastStart < CLEAN_INTERVAL_MS) return;
      lastStart = performance.now();
      inFlight = pool
        .query('SELECT gin_clean_pending_list(to_regclass($1))', [index])
        .then(
          () => {
            cleans += 1;
          },
          (error: unknown) => {
            // Not the index owner: leave the cleaning to the inserts. Any other failure (a dropped
            // connection, a schema removed meanwhile) only skips this clean.
            if ((error as { code?: unknown } | null)?.code === INSUFFICIENT_PRIVILEGE) enabled = false;
          },
        )
        .finally(() => {
          inFlight = undefined;
        });
    },
    get cleans() {
      return cleans;
    },
    async idle() {
      await inFlight;
    },
  };
}
