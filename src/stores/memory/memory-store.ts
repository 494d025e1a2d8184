/**
 * The in-memory `LedgerStore`: a context (the sessions and spans: `memory-context.ts`) and the four parts of every
 * store (`store-parts.ts`): sessions, spans, search and records.
 */
import { composeStore } from '../store-parts.js';
import type { LedgerStore } from '../store.js';
import { MemoryContext } from './memory-context.js';
import { MemoryRecords } from './memory-records.js';
import { MemorySearch } from './memory-search.js';
import { MemorySessions } from './memory-sessions.js';
import { MemorySpans } from './memory-spans.js';

/**
 * Creates an in-process `LedgerStore` (kind `memory`, location `memory:`), for tests, demos
 * and short-lived agents.
 *
 * Everything it stores and returns is deep-frozen, so changing a span, occurrence, handle or
 * record after the fact throws a `TypeError` in strict mode; no method overwrites or deletes.
 * Spans are content-addressed: the same span appended twice is stored once (the first token
 * count wins) and gets two occurrences.
 *
 * Errors: `SequenceConflictError` for a stale `expectedNextSeq` and for a record ordinal that
 * is already taken (another writer got there first: re-read and retry); `ImmutableSpanError`
 * for a record id that is already written; `TenantMismatchError`; `NotFoundError` when
 * appending or writing to a session that was never opened; `InvalidInputError` for malformed
 * input (a span whose id is not its hash, a handle that is not verbatim at its offsets).
 */
export function createMemoryStore(): LedgerStore {
  const context = new MemoryContext();
  return composeStore({
    kind: 'memory',
    location: context.location,
    sessions: new MemorySessions(context),
    spans: new MemorySpans(context),
    search: new MemorySearch(context),
    records: new MemoryRecords(context),
    async close() {
      // Nothing to release; the data lives as long as the store object.
    },
  });
}
