/**
 * A small-integer key of the 4 UTF-16 units of `text` at `at` (the caller keeps `at + 4 <= text.length`), for
 * indexes that look texts up by 4-character pieces without slicing them. Different pieces may share a key:
 * an index keyed by it finds a superset of the texts holding a piece, so every lookup checks its candidates.
 */
export function gramKey(text: string, at: number): number {
  let key = text.charCodeAt(at);
  key = Math.imul(key, 0x9e3779b1) ^ text.charCodeAt(at + 1);
  key = Math.imul(key, 0x85ebca6b) ^ text.charCodeAt(at + 2);
  key = Math.imul(key, 0xc2b2ae35) ^ text.charCodeAt(at + 3);
  // A 30-bit key stays a small integer in V8, the cheapest Map key.
  return (key ^ (key >>> 15)) & 0x3fffffff;
}

/**
 * A small-integer key of the 8 UTF-16 units of `text` at `at` (the caller keeps `at + 8 <= text.length`): two
 * `gramKey`s mixed, for indexes whose needles are that long (a longer piece is shared by fewer texts).
 */
export function wideGramKey(text: string, at: number): number {
  const key = Math.imul(gramKey(text, at), 0x27d4eb2d) ^ gramKey(text, at + 4);
  return (key ^ (key >>> 13)) & 0x3fffffff;
}
