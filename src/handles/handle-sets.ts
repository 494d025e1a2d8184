/** Handle sets: identity of a handle within a set, and merging lists of handles. */
import type { Handle } from '../types.js';

/** Identity of a handle within a handle set: kind and verbatim text. */
export function handleIdentity(handle: Pick<Handle, 'kind' | 'text'>): string {
  return `${handle.kind}\u0000${handle.text}`;
}

/** Merge handle lists, keeping the earliest occurrence of each (kind, verbatim text). */
export function mergeHandles(...lists: readonly (readonly Handle[])[]): Handle[] {
  const byIdentity = new Map<string, Handle>();
  for (const list of lists) {
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
  return [...byIdentity.values()].sort((a, b) => a.seq - b.seq || a.start - b.start || a.kind.localeCompare(b.kind));
}
