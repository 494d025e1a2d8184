/**
 * Records whose content-derived id was computed in this process over their content as it is, then deep-frozen
 * (`vouchRecord`): a compaction hashes each record it builds for its id, and the store's write check (`checkRecord`)
 * would copy it and hash it again, the same bytes (about 1-2% of a replay at 32,000 tokens). A vouched record is
 * frozen, so it cannot change between the two, and it holds only JSON values with no `undefined` field (the builder's
 * promise), so it is its own JSON-safe copy. The mark is a property of the record itself (a symbol, not enumerable: no
 * JSON, spread or comparison sees it, and a copy is not vouched for); the stores keep no state at module level.
 */
import { deepFreeze } from '../collections/deep-freeze.js';
import type { CompactionRecord } from '../types.js';

const VOUCHED: unique symbol = Symbol('context-ledger vouched record');

/**
 * Deep-freeze `record` and mark it as vouched for: its id is `recordId` over `recordIdContent(record)` (the builder
 * computed it so) and it is plain JSON data without `undefined` fields. Returns the record.
 */
export function vouchRecord(record: CompactionRecord): CompactionRecord {
  if (!Object.isFrozen(record)) Object.defineProperty(record, VOUCHED, { value: true });
  return deepFreeze(record);
}

/** Whether `record` was vouched for (see `vouchRecord`) and is still frozen. */
export function isVouched(record: CompactionRecord): boolean {
  return Object.isFrozen(record) && (record as { readonly [VOUCHED]?: boolean })[VOUCHED] === true;
}
