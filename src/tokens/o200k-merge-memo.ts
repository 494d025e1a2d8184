/**
 * Memos of merged counts for `o200k-bpe.ts`: how many tokens the byte-pair merge leaves of a pre-token that is not
 * one token. Agent text repeats such pre-tokens (JSON punctuation, escapes, paths, hashes), and an append counts a
 * text more than once (the message, its chunks, the window).
 *
 * - Short pre-tokens (under `SHORT_BYTES` UTF-8 bytes) are kept by their bytes in a direct-mapped table with
 *   typed arrays, found by the hash the rank lookup already computed: no string is made for them.
 * - Longer ones, whose merge is quadratic in their length, are kept by their text in a Map emptied when full.
 *
 * A merge depends only on the bytes, so the counts are exact whichever text the bytes came from. That is why both
 * memos are module-level, shared by every counter and session: each is keyed by the whole input of a pure function
 * (the bytes, the text), so an entry is what merging again gives, whatever was counted before; both are bounded.
 */

/** Pre-tokens shorter than this many UTF-8 bytes go to the short table. */
export const SHORT_BYTES = 24;
const SHORT_SLOTS = 1 << 14;
const shortHashes = new Int32Array(SHORT_SLOTS);
/** Count + 1 per slot (0 = empty). */
const shortCounts = new Int32Array(SHORT_SLOTS);
const shortLengths = new Uint8Array(SHORT_SLOTS);
const shortBytes = new Uint8Array(SHORT_SLOTS * SHORT_BYTES);

/** The remembered count of the `size` (< SHORT_BYTES) bytes at the start of `buffer`, whose hash is `hash`; -1 when unknown. */
export function shortMergedCount(buffer: Uint8Array, size: number, hash: number): number {
  const slot = hash & (SHORT_SLOTS - 1);
  const count = shortCounts[slot] ?? 0;
  if (count === 0 || shortHashes[slot] !== (hash | 0) || shortLengths[slot] !== size) return -1;
  const at = slot * SHORT_BYTES;
  for (let index = 0; index < size; index += 1) if (shortBytes[at + index] !== buffer[index]) return -1;
  return count - 1;
}

/** Remembers `count` for the `size` (< SHORT_BYTES) bytes at the start of `buffer`, replacing that slot's entry. */
export function rememberShortMergedCount(buffer: Uint8Array, size: number, hash: number, count: number): void {
  const slot = hash & (SHORT_SLOTS - 1);
  shortHashes[slot] = hash | 0;
  shortCounts[slot] = count + 1;
  shortLengths[slot] = size;
  shortBytes.set(buffer.subarray(0, size), slot * SHORT_BYTES);
}

/** Long pre-tokens' counts by text; emptied when it holds `LONG_LIMIT` of them. */
const longCounts = new Map<string, number>();
const LONG_LIMIT = 8_192;

/** The remembered count of the long pre-token `preToken`, or undefined. */
export function longMergedCount(preToken: string): number | undefined {
  return longCounts.get(preToken);
}

/** Remembers `count` for the long pre-token `preToken`. */
export function rememberLongMergedCount(preToken: string, count: number): void {
  if (longCounts.size >= LONG_LIMIT) longCounts.clear();
  longCounts.set(preToken, count);
}

/** Empties both memos (for benchmarks of text the counter has not seen). */
export function clearMergedCounts(): void {
  longCounts.clear();
  shortCounts.fill(0);
}
