import type { Handle, HandleKind } from '../types.js';

/** Kinds whose handles are whole lines or sentences, so copies that differ only in a number are one fact. */
const LINE_KINDS: ReadonlySet<HandleKind> = new Set<HandleKind>(['constraint', 'error']);

const TIMESTAMP = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g;
const CLOCK = /\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\b/g;
const HEX_ID = /\b(?=[0-9a-fA-F-]*\d)(?=[0-9a-fA-F-]*[a-fA-F])[0-9a-fA-F]{6,}(?:-[0-9a-fA-F]{4,})*\b/g;
const NUMBER = /\d+(?:\.\d+)?/g;

/**
 * The key under which line-like handles (constraints, error lines) that differ only in
 * timestamps, clock times, hex ids or counters collapse to one entry of the window, or
 * undefined when the handle never collapses (paths, identifiers, numbers … name different
 * things when a digit differs). A user or system instruction collapses only over timestamps,
 * clock times and hex ids: "worker pool 3" and "worker pool 5" are two instructions. Role is
 * part of the key: an instruction never merges with quoted tool output.
 */
export function collapseKey(handle: Pick<Handle, 'kind' | 'text' | 'role'>): string | undefined {
  if (!LINE_KINDS.has(handle.kind)) return undefined;
  const known = collapseKeys.get(handle);
  if (known !== undefined) return known ?? undefined;
  const key = lineKey(handle);
  if (Object.isFrozen(handle)) collapseKeys.set(handle, key ?? null);
  return key;
}

/**
 * The key of each frozen line-like handle, found once: a compaction asks it of every carried handle (its placement
 * and its layout), and carries most of them again the next time. Safe module-level: a frozen handle's kind, text and
 * role cannot change, so an entry is what computing the key again gives; weak, so it holds no handle alive.
 */
const collapseKeys = new WeakMap<object, string | null>();

/** `collapseKey` of a line-like handle, computed. */
function lineKey(handle: Pick<Handle, 'kind' | 'text' | 'role'>): string | undefined {
  const stamped = handle.text.replace(TIMESTAMP, '<ts>').replace(CLOCK, '<time>').replace(HEX_ID, '<hex>');
  const instruction = handle.role === 'user' || handle.role === 'system';
  const shape = instruction ? stamped : stamped.replace(NUMBER, '#');
  if ((shape.match(/[A-Za-z]{3,}/g) ?? []).length < 2) return undefined;
  return `${handle.kind}\u0000${handle.role === 'system' ? 'user' : handle.role}\u0000${shape}`;
}

const WORD = /[A-Za-z0-9_]/;

/** Whether a UTF-16 unit is a word character of `containsAtBoundary` (what `WORD` matches). */
export function isWordUnit(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
}

/** Whether a needle found at `at` in `text` may start on a word boundary there: not a word character after another. */
export function mayStartAt(text: string, at: number): boolean {
  return at === 0 || !isWordUnit(text.charCodeAt(at)) || !isWordUnit(text.charCodeAt(at - 1));
}

/**
 * Whether `needle` occurs verbatim in `haystack` on word boundaries (so `lib/a.ex` is inside
 * `/home/u/app/lib/a.ex`, `ReviewTokenStore` inside `ReviewTokenStore.mint`, but `Review`
 * is not inside `ReviewTokenStore`). Texts shorter than 4 characters never count as inside
 * another: a `7` inside `v2.7.0` is not the number 7.
 */
export function containsAtBoundary(haystack: string, needle: string): boolean {
  if (needle.length < 4 || haystack.length <= needle.length) return false;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1))
    if (onBoundariesAt(haystack, needle, at)) return true;
  return false;
}

/** Whether `needle`, found in `haystack` at `at`, sits on word boundaries there. */
export function onBoundariesAt(haystack: string, needle: string, at: number): boolean {
  const before = at === 0 ? '' : (haystack[at - 1] ?? '');
  return onBoundaries(needle, before, haystack[at + needle.length] ?? '');
}

/** Whether `needle`, found between the characters `before` and `after` ('' at an end), sits on word boundaries. */
export function onBoundaries(needle: string, before: string, after: string): boolean {
  const startsWord = WORD.test(needle[0] ?? '');
  const endsWord = WORD.test(needle[needle.length - 1] ?? '');
  return (!startsWord || !WORD.test(before)) && (!endsWord || !WORD.test(after));
}
