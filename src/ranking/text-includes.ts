/**
 * `text.includes(needle)` for many needles against one long text (a compaction asks it of every handle and every
 * sentence it weighs): the same answers, found without a scan of the whole text for most needles that are not in it.
 */
import { gramKey } from '../handle-index/gram-key.js';

/** Needles answered by a plain scan before the piece filter is built (a short list costs no more than its scans). */
const PLAIN_SCANS = 4;
/** Bits of the piece filter per piece of the text (few bits set stay few false hits), and its bounds. */
const BITS_PER_PIECE = 8;
const MIN_BITS = 1 << 10;
const MAX_BITS = 1 << 24;

/** The pieces (4 characters) at each place of `text`, as bits of a bit set (different pieces may share a bit). */
function pieceBits(text: string): { bits: Uint32Array; mask: number } {
  let size = MIN_BITS;
  while (size < MAX_BITS && size < text.length * BITS_PER_PIECE) size *= 2;
  const bits = new Uint32Array(size >>> 5);
  const mask = size - 1;
  for (let at = 0; at + 4 <= text.length; at++) {
    const bit = gramKey(text, at) & mask;
    bits[bit >>> 5] = (bits[bit >>> 5] as number) | (1 << (bit & 31));
  }
  return { bits, mask };
}

/**
 * A test equal to `(needle) => text.includes(needle)`. A needle of 4 or more characters is searched for only when
 * the text holds (by the bit set) its last 4 characters and every 4 characters it starts with at a multiple of 4: a
 * text holding the needle holds each of its pieces, so a needle the filter turns away is not in the text.
 */
export function includesTest(text: string): (needle: string) => boolean {
  let filter: { bits: Uint32Array; mask: number } | undefined;
  let scans = 0;
  const holds = (needle: string, at: number): boolean => {
    const { bits, mask } = filter as { bits: Uint32Array; mask: number };
    const bit = gramKey(needle, at) & mask;
    return (((bits[bit >>> 5] as number) >>> (bit & 31)) & 1) === 1;
  };
  const mayHold = (needle: string): boolean => {
    if (needle.length < 4 || needle.length > text.length) return true;
    if (filter === undefined) {
      if (scans++ < PLAIN_SCANS) return true;
      filter = pieceBits(text);
    }
    if (!holds(needle, needle.length - 4)) return false;
    for (let at = 0; at + 4 <= needle.length; at += 4) if (!holds(needle, at)) return false;
    return true;
  };
  return (needle) => mayHold(needle) && text.includes(needle);
}
