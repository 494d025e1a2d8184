/**
 * The handle index's counts by kind, tallied as spill checkpoints are added, so a long replay's summary line does not
 * read every released checkpoint back from the store (`loadHandleIndex`). The index merges the active record's handles
 * with its checkpoint chain's, one handle per (kind, verbatim text), sorted by (seq, start, kind): so a kind's count is
 * its number of distinct texts over the union, and it first appears at the earliest (seq, start) of any handle of that
 * kind (ties between kinds by name, as the sort orders them). The tally follows one chain from its first checkpoint
 * (a checkpoint without ancestor) on; a checkpoint on another chain, or a tally past `MAX_IDENTITIES`, makes it give
 * up until a new chain starts (callers then count `loadHandleIndex()`).
 */
import { handleIdentity } from '../handles/handle-sets.js';
import type { CompactionRecord, Handle } from '../types.js';

/** Most distinct handles the tally keeps (a few MB of text); past it the counts are read from the store. */
export const MAX_IDENTITIES = 200_000;

interface KindTally {
  count: number;
  seq: number;
  start: number;
}

/** Counts by kind of a merged handle list, kinds in the order of their first handle (`loadHandleIndex()` order). */
export function kindCounts(handles: readonly Pick<Handle, 'kind'>[]): Map<string, number> {
  const byKind = new Map<string, number>();
  for (const handle of handles) byKind.set(handle.kind, (byKind.get(handle.kind) ?? 0) + 1);
  return byKind;
}

function tally(kinds: Map<string, KindTally>, handle: Handle, counted: boolean): void {
  const known = kinds.get(handle.kind);
  if (known === undefined) {
    kinds.set(handle.kind, { count: counted ? 1 : 0, seq: handle.seq, start: handle.start });
    return;
  }
  if (counted) known.count++;
  if (handle.seq < known.seq || (handle.seq === known.seq && handle.start < known.start)) {
    known.seq = handle.seq;
    known.start = handle.start;
  }
}

/** See the module comment. */
export class ChainKinds {
  /** The checkpoint the tally is for (undefined: none, or given up). */
  private head: string | undefined;
  private identities = new Set<string>();
  private kinds = new Map<string, KindTally>();

  /** Take in a record just added to the session (only checkpoints count). */
  add(record: CompactionRecord): void {
    if (record.type !== 'checkpoint') return;
    const parent = record.ancestors[0];
    if (parent === undefined) {
      this.identities = new Set();
      this.kinds = new Map();
    } else if (parent !== this.head || this.head === undefined) {
      this.giveUp();
      return;
    }
    for (const handle of record.handles) {
      const identity = handleIdentity(handle);
      const counted = !this.identities.has(identity);
      if (counted) this.identities.add(identity);
      tally(this.kinds, handle, counted);
    }
    this.head = record.id;
    if (this.identities.size > MAX_IDENTITIES) this.giveUp();
  }

  /**
   * Counts by kind of the index of `active` (its handles merged with its checkpoint chain), in index order; undefined
   * when the tally is not for its chain.
   */
  counts(active: CompactionRecord | undefined): Map<string, number> | undefined {
    if (active === undefined) return new Map();
    const headId = active.checkpointId;
    if (headId !== undefined && headId !== this.head) return undefined;
    const chain = headId === undefined ? new Set<string>() : this.identities;
    const kinds = new Map<string, KindTally>();
    if (headId !== undefined) for (const [kind, known] of this.kinds) kinds.set(kind, { ...known });
    const own = new Set<string>();
    for (const handle of active.handles) {
      const identity = handleIdentity(handle);
      const counted = !chain.has(identity) && !own.has(identity);
      own.add(identity);
      tally(kinds, handle, counted);
    }
    const order = [...kinds].sort(
      ([kindA, a], [kindB, b]) => a.seq - b.seq || a.start - b.start || kindA.localeCompare(kindB),
    );
    return new Map(order.map(([kind, known]) => [kind, known.count]));
  }

  private giveUp(): void {
    this.head = undefined;
    this.identities = new Set();
    this.kinds = new Map();
  }
}
