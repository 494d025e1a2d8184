/**
 * The bases a SQL store writes record deltas against (`record-delta.ts`): the content of the last record it wrote per
 * session and type, so the usual next write (the next summary of the same session) needs no read.
 */
import { BoundedMemo } from '../collections/bounded-memo.js';
import { ImmutableSpanError } from '../errors.js';
import type { CompactionRecord } from '../types.js';
import { rebuildBodies, type DeltaBase, type StoredRecordRow } from './record-delta.js';

/** Sessions × record types whose last record a store remembers (past this the memo starts over). */
const REMEMBERED_BASES = 64;

function keyOf(record: Pick<CompactionRecord, 'sessionId' | 'type'>): string {
  return `${record.sessionId}\u0000${record.type}`;
}

/** The last record a store wrote per session and type, as a delta base. */
export class DeltaBases {
  private readonly last = new BoundedMemo<string, DeltaBase>(REMEMBERED_BASES);

  /** The remembered base for `record` (same session and type, an earlier ordinal), if any. */
  before(record: CompactionRecord): DeltaBase | undefined {
    const base = this.last.get(keyOf(record));
    return base !== undefined && base.ordinal < record.ordinal ? base : undefined;
  }

  /** After `record` committed: it is the base of the next record of its session and type. */
  wrote(record: CompactionRecord, written: DeltaBase): void {
    const known = this.last.get(keyOf(record));
    if (known === undefined || known.ordinal < written.ordinal) this.last.set(keyOf(record), written);
  }

  /**
   * A base read back from the store: `rows` are its row and the rows of its chain, nearest first. Undefined (the new
   * record is then written in full) when it cannot be rebuilt: a row changed below the API, or one written before
   * carried handles were stored apart. Its own reads report such a row.
   */
  rebuilt(
    location: string,
    sessionId: string,
    row: { readonly id: string; readonly ordinal: number; readonly chain: number },
    rows: readonly StoredRecordRow[],
  ): DeltaBase | undefined {
    const [first, ...chain] = rows;
    if (first === undefined) return undefined;
    try {
      const [body] = rebuildBodies(location, sessionId, [first], chain);
      return body === undefined
        ? undefined
        : { id: row.id, ordinal: Number(row.ordinal), chain: Number(row.chain), body };
    } catch (error) {
      if (error instanceof ImmutableSpanError) return undefined;
      throw error;
    }
  }
}
