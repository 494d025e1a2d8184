/** A bounded cache of token counts, shared by ingest (handle texts) and the window (message prefixes). */

/** Most entries a token-count cache holds: it is cleared when full (counts are pure, so they are just recounted). */
export const COUNT_CACHE_ENTRIES = 20_000;

/**
 * The count cached under `key`, or `count()` remembered there. Keys stay short (a long text is keyed by
 * its digest), so a cache that lives as long as a session holds at most {@link COUNT_CACHE_ENTRIES} short keys.
 */
export function cachedCount(cache: Map<string, number>, key: string, count: () => number): number {
  let value = cache.get(key);
  if (value === undefined) {
    value = count();
    if (cache.size >= COUNT_CACHE_ENTRIES) cache.clear();
    cache.set(key, value);
  }
  return value;
}

/**
 * {@link cachedCount} of `text` under itself with `counter` (no function made per call: ingest asks it for every
 * handle of every message).
 */
export function cachedTextCount(
  cache: Map<string, number>,
  text: string,
  counter: { count(text: string): number },
): number {
  let value = cache.get(text);
  if (value === undefined) {
    value = counter.count(text);
    if (cache.size >= COUNT_CACHE_ENTRIES) cache.clear();
    cache.set(text, value);
  }
  return value;
}
