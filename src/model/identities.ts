import { handleIdentity } from '../handles/handle-sets.js';
import type { Handle } from '../types.js';
import { RecentObjects } from './recent-objects.js';

/**
 * The identity strings of the handles asked for lately (the same string object each time it is asked again). A
 * compaction reads every candidate of its lookback on each pass: a read does not move the entry (see RecentObjects).
 */
const identities = new RecentObjects<string>(false);

/** Whether a handle's `kind` and `text` are fixed: a frozen object holding them as data properties. */
function hasFixedIdentity(handle: object): boolean {
  if (!Object.isFrozen(handle)) return false;
  const kind = Object.getOwnPropertyDescriptor(handle, 'kind');
  const text = Object.getOwnPropertyDescriptor(handle, 'text');
  return kind !== undefined && 'value' in kind && text !== undefined && 'value' in text;
}

/**
 * Make the identities remembered hold at least `entries` handles: a compaction about to rank a lookback of that many
 * candidates (several passes over them) asks for it, or each pass would push its own first entries out.
 */
export function reserveIdentities(entries: number): void {
  identities.reserve(entries);
}

/**
 * `handleIdentity(handle)`, the same string object for a frozen handle asked for again: the ranking looks each
 * candidate up in maps keyed by the identities of the same handle objects, and an identical string object is
 * found without building, hashing and comparing a new one.
 */
export function identityOf(handle: Pick<Handle, 'kind' | 'text'>): string {
  const known = identities.get(handle);
  if (known !== undefined) return known;
  const identity = handleIdentity(handle);
  if (hasFixedIdentity(handle)) identities.set(handle, identity);
  return identity;
}
