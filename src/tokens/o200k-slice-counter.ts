/**
 * Counting slices of one text with the o200k counter, sharing the work: chunking a large message
 * counts the whole text, then each chunk (and a chunk still too large, its parts), which would tokenize
 * characters two or three times. Here the whole text is counted once, piece by piece (see `countingPieces`),
 * into prefix sums at the piece boundaries and at marks about every {@link MARK_SPACING} characters inside the
 * pieces (pre-token boundaries, `isPreTokenBoundary`); a slice is counted as its two edges (up to the first and from
 * the last mark inside it, a few dozen characters) plus the difference of the prefix sums between them.
 *
 * That sum equals `countO200kTokens(slice)` when both count the slice cut only at pre-token
 * boundaries: this holds when no stretch of the text between two boundaries is as long as a piece
 * target (`COUNT_PIECE_TARGET`), since then every piece of the text, and of any slice of it, ends
 * at a boundary (the boundary test reads only the two characters around it, so a slice has the
 * text's boundaries, and no pre-token runs over one). A text with a longer stretch (a long run with no space,
 * tab or line break, the only inexact case of the counter) is counted slice by slice as before.
 */
import { countO200kPieceMarked } from './o200k-bpe.js';
import { firstIndexWhere } from '../collections/sorted-search.js';
import {
  COUNT_PIECE_TARGET,
  countingPieces,
  countO200kTokens,
  hasShortStretches,
  isPreTokenBoundary,
} from './o200k-count.js';

/** Characters between marks of the prefix-sum table, at least: a slice's edges are about this long. */
export const MARK_SPACING = 64;

/** Marks of the whole text (0 and its length included, increasing) and the tokens before each. */
export interface CountMarks {
  readonly bounds: readonly number[];
  readonly before: readonly number[];
}

/**
 * The table of `text`'s marks, counting the text once, or undefined when slices must be counted on their own (a
 * stretch without a pre-token boundary as long as a counting piece).
 */
export function countMarks(text: string): CountMarks | undefined {
  if (!hasShortStretches(text)) return undefined;
  const bounds = [0];
  const before = [0];
  let offset = 0;
  let tokensBefore = 0;
  for (const piece of countingPieces(text)) {
    const table = { offset, tokensBefore, spacing: MARK_SPACING, isCut: isPreTokenBoundary };
    tokensBefore += countO200kPieceMarked(piece, table, bounds, before);
    offset += piece.length;
    bounds.push(offset);
    before.push(tokensBefore);
  }
  return { bounds, before };
}

/** Index of the first bound at or after `offset` (`bounds.length` when none). */
function firstAtOrAfter(bounds: readonly number[], offset: number): number {
  return firstIndexWhere(bounds.length, (index) => (bounds[index] ?? 0) >= offset);
}

/** Counts the tokens of `text.slice(start, end)` of the text it was made for. */
export type SliceCounter = (start: number, end: number) => number;

/**
 * A {@link SliceCounter} for `text` that equals `countO200kTokens(text.slice(start, end))` on every range. The table
 * is made by the first count of a range over two pieces long (chunking counts the whole text first); once made, it
 * counts every range that holds two marks.
 */
export function o200kSliceCounter(text: string): SliceCounter {
  const direct: SliceCounter = (start, end) => countO200kTokens(text.slice(start, end));
  // Slices of a text no longer than two pieces share too little to be worth a table.
  if (text.length <= 2 * COUNT_PIECE_TARGET) return direct;
  let table: CountMarks | undefined | null = null;
  return (start, end) => {
    if (table === null) {
      if (end - start <= 2 * COUNT_PIECE_TARGET) return direct(start, end);
      table = countMarks(text);
    }
    if (table === undefined) return direct(start, end);
    const { bounds, before } = table;
    const first = firstAtOrAfter(bounds, start);
    const last = firstAtOrAfter(bounds, end + 1) - 1;
    if (first >= last) return direct(start, end);
    const inner = (before[last] ?? 0) - (before[first] ?? 0);
    return direct(start, bounds[first] ?? start) + inner + direct(bounds[last] ?? end, end);
  };
}
