/** Handle sets: identity of a handle within a set, and merging lists of handles. */
import type { Handle } from '../types.js';

/** Identity of a handle within a handle set: kind and verbatim text. */
export function handleIdentity(handle: Pick<Handle, 'kind' | 'text'>): string {
  return `${handle.kind}\u0000${handle.text}`;
}

/**
 * Merges handle lists one at a time, keeping the earliest occurrence of each (kind, verbatim text): what
 * `mergeHandles` does, for lists read one after another (a checkpoint chain read from the store) so that
 * only the merged handles are held, not every list.
 */
export class HandleMerger {
  private readonly byIdentity = new Map<string, Handle>();

  /** Add one list (lists added earlier win ties, as earlier arguments of `mergeHandles` do). */
  add(list: readonly Handle[]): void {
    const { byIdentity } = this;
    for (const handle of list) {
      const identity = handleIdentity(handle);
      const existing = byIdentity.get(identity);
      if (
        existing === undefined ||
        handle.seq < existing.seq ||
        (handle.seq === existing.seq && handle.start < existing.start)
      )
        byIdentity.set(identity, handle);
    }
  }

  /** The merged handles, oldest first. */
  result(): Handle[] {
    return [...this.byIdentity.values()].sort(
      (a, b) => a.seq - b.seq || a.start - b.start || a.kind.localeCompare(b.kind),
    );
  }
}

/** Merge handle lists, keeping the earliest occurrence of each (kind, verbatim text). */
export function mergeHandles(...lists: readonly (readonly Handle[])[]): Handle[] {
  const merger = new HandleMerger();
  for (const list of lists) merger.add(list);
  return merger.result();
}
