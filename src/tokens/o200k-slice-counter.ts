/**
 * Counting slices of one text with the o200k counter, sharing the work: chunking a large message
 * counts the whole text, then each chunk, which would tokenize every character twice. Here the
 * whole text's counting pieces (see `countingPieces`) are counted once into prefix sums, and a
 * slice is counted as its two edges (up to the first and from the last piece boundary inside
 * it) plus the sum of the whole pieces between them.
 *
 * That sum equals `countO200kTokens(slice)` when both count the slice cut only at pre-token
 * boundaries: this holds when no stretch of the text between two boundaries is as long as a piece
 * target (`COUNT_PIECE_TARGET`), since then every piece of the text, and of any slice of it, ends
 * at a boundary (the boundary test reads only the two characters around it, so a slice has the
 * text's boundaries). A text with a longer stretch (a long run with no space, tab or line break,
 * the only inexact case of the counter) is counted slice by slice as before.
 */
import { countO200kPiece } from './o200k-bpe.js';
import { firstIndexWhere } from '../collections/sorted-search.js';
import { COUNT_PIECE_TARGET, countingPieces, countO200kTokens, hasShortStretches } from './o200k-count.js';

/** Piece boundaries of the whole text (0 and its length included) and the tokens before each. */
interface PieceTable {
  readonly bounds: readonly number[];
  readonly before: readonly number[];
}

/** The table of `text`'s counting pieces, or undefined when slices must be counted on their own. */
function pieceTable(text: string): PieceTable | undefined {
  if (!hasShortStretches(text)) return undefined;
  const bounds = [0];
  const before = [0];
  let at = 0;
  let tokens = 0;
  for (const piece of countingPieces(text)) {
    at += piece.length;
    tokens += countO200kPiece(piece);
    bounds.push(at);
    before.push(tokens);
  }
  return { bounds, before };
}

/** Index of the first bound at or after `offset` (`bounds.length` when none). */
function firstAtOrAfter(bounds: readonly number[], offset: number): number {
  return firstIndexWhere(bounds.length, (index) => (bounds[index] ?? 0) >= offset);
}

/** Counts the tokens of `text.slice(start, end)` of the text it was made for. */
export type SliceCounter = (start: number, end: number) => number;

/** A {@link SliceCounter} for `text` that equals `countO200kTokens(text.slice(start, end))` on every range. */
export function o200kSliceCounter(text: string): SliceCounter {
  const direct: SliceCounter = (start, end) => countO200kTokens(text.slice(start, end));
  // Slices of a text no longer than two pieces share too little to be worth a table.
  if (text.length <= 2 * COUNT_PIECE_TARGET) return direct;
  let table: PieceTable | undefined | null = null;
  return (start, end) => {
    if (end - start <= 2 * COUNT_PIECE_TARGET) return direct(start, end);
    if (table === null) table = pieceTable(text);
    if (table === undefined) return direct(start, end);
    const { bounds, before } = table;
    const first = firstAtOrAfter(bounds, start);
    const last = firstAtOrAfter(bounds, end + 1) - 1;
    if (first >= last) return direct(start, end);
    const inner = (before[last] ?? 0) - (before[first] ?? 0);
    return direct(start, bounds[first] ?? start) + inner + direct(bounds[last] ?? end, end);
  };
}
