/**
 * Counting the ledger block with the default o200k counter, one segment at a time: the block is rebuilt at every
 * compaction but most of its lines and list items (handle entries, summary sentences, the fixed instructions) were
 * in the last one. The block is cut only at o200k pre-token boundaries (`isPreTokenBoundary`), each segment's count
 * is remembered, and the sum is exactly `countO200kTokens(block)`: no pre-token spans a boundary, and when every
 * stretch between boundaries is shorter than a counting piece (`COUNT_PIECE_TARGET`) both are the text's true
 * count. A block with a longer stretch (the counter's one inexact case) is counted whole, as before.
 */
import { BoundedMemo } from '../collections/bounded-memo.js';
import { countO200kTokens, hasShortStretches, isPreTokenBoundary } from '../tokens/o200k-count.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** Most segment counts remembered: the memo is cleared when full (counts are pure, so they are just counted again). */
export const SEGMENT_COUNT_ENTRIES = 8_192;

/** Segments longer than this are counted without being remembered (long ones rarely come back unchanged). */
const REMEMBERED_SEGMENT_LENGTH = 512;

/**
 * The o200k count of each block segment seen, or -1 for a segment with a stretch of `COUNT_PIECE_TARGET` units or
 * more. Whoever renders blocks one after another keeps one (a session does, in its `WindowMemo`); the counts are
 * pure, so a fresh one gives the same numbers.
 */
export class SegmentCounts {
  private readonly counts = new BoundedMemo<string, number>(SEGMENT_COUNT_ENTRIES);

  /** The segment's o200k count, or -1 when it has a long stretch (then the whole text is counted instead). */
  of(segment: string): number {
    const known = this.counts.get(segment);
    if (known !== undefined) return known;
    const count = hasShortStretches(segment) ? countO200kTokens(segment) : -1;
    if (segment.length <= REMEMBERED_SEGMENT_LENGTH) this.counts.set(ownCopy(segment), count);
    return count;
  }

  /** How many segment counts are held now (at most `SEGMENT_COUNT_ENTRIES`). */
  get size(): number {
    return this.counts.size;
  }
}

/**
 * Whether a segment may start at `index`: a pre-token boundary at the start of a line, at the space before a
 * list separator (` | `) or at the space after a sentence's full stop.
 */
function isCut(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  const previous = text.charCodeAt(index - 1);
  const start = previous === 10 || (code === 32 && (text.charCodeAt(index + 1) === 124 || previous === 46));
  return start && isPreTokenBoundary(text, index);
}

/**
 * `segment` as a string of its own: a slice of a block may share the whole block's storage, which a remembered key
 * would keep alive (a block per compaction). Joining it to a character and slicing that off builds it anew.
 */
function ownCopy(segment: string): string {
  return `${segment} `.slice(0, -1);
}

/**
 * `counter.count(text)` for a ledger block: with the default o200k counter, the sum of its segments' counts from
 * `segments` (the same number); with any other counter, `counter.count(text)`.
 */
export function countBlock(text: string, counter: TokenCounter, segments: SegmentCounts): number {
  if (counter.count !== countO200kTokens) return counter.count(text);
  let total = 0;
  let start = 0;
  for (let index = 1; index < text.length; index += 1) {
    if (!isCut(text, index)) continue;
    const count = segments.of(text.slice(start, index));
    if (count < 0) return countO200kTokens(text);
    total += count;
    start = index;
  }
  const count = segments.of(text.slice(start));
  return count < 0 ? countO200kTokens(text) : total + count;
}
