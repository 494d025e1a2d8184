/**
 * The o200k_base count in linear time: the text is counted in pieces of about 1,000 characters cut
 * at pre-token boundaries (see `countO200kTokens`).
 */
import { isBlankCode } from '../text/blank-codes.js';
import { countO200kPiece } from './o200k-bpe.js';

/** Pieces are cut near this many UTF-16 units, at a pre-token boundary. */
export const COUNT_PIECE_TARGET = 1_000;
/** Longest piece: a run with no pre-token boundary this long is cut here (the only inexact case). */
export const COUNT_PIECE_CAP = 2_000;

/**
 * True when o200k's pre-tokenizer always has a token boundary before `index`, so counting the
 * two sides apart gives the same total: a space or tab right after a non-whitespace character
 * (no pre-token runs from non-whitespace into a space or tab), or a non-whitespace character
 * other than `/` right after a line feed (only a punctuation token runs on through `[\r\n/]*`).
 */
export function isPreTokenBoundary(text: string, index: number): boolean {
  const previous = text.charCodeAt(index - 1);
  const next = text.charCodeAt(index);
  if (next === 32 || next === 9) return !isBlankCode(previous);
  return previous === 10 && !isBlankCode(next) && next !== 47;
}

/**
 * Whether every stretch of `text` between pre-token boundaries (and its ends) is shorter than a counting piece
 * (`COUNT_PIECE_TARGET`): then every piece of the text, and of any slice of it cut at a boundary, ends at a boundary,
 * and counting piece by piece gives the text's true count.
 */
export function hasShortStretches(text: string): boolean {
  if (text.length < COUNT_PIECE_TARGET) return true;
  let last = 0;
  for (let index = 1; index < text.length; index += 1) {
    if (!isPreTokenBoundary(text, index)) continue;
    if (index - last >= COUNT_PIECE_TARGET) return false;
    last = index;
  }
  return text.length - last < COUNT_PIECE_TARGET;
}

/** Where the piece starting at `start` ends: the last boundary by the target, else the first by the cap, else the cap. */
function pieceEnd(text: string, start: number): number {
  const target = start + COUNT_PIECE_TARGET;
  for (let index = target; index > start; index -= 1) if (isPreTokenBoundary(text, index)) return index;
  const cap = Math.min(text.length, start + COUNT_PIECE_CAP);
  for (let index = target + 1; index < cap; index += 1) if (isPreTokenBoundary(text, index)) return index;
  const high = text.charCodeAt(cap - 1);
  return high >= 0xd800 && high <= 0xdbff ? cap - 1 : cap; // never between the halves of a surrogate pair
}

/**
 * Splits `text` into the pieces `countO200kTokens` counts one by one: each at most
 * `COUNT_PIECE_CAP` units, cut at pre-token boundaries where there is one. Deterministic.
 */
export function countingPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > COUNT_PIECE_TARGET) {
    const end = pieceEnd(text, start);
    pieces.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/**
 * o200k_base token count in linear time. The byte-pair merge (`countO200kPiece`, like
 * gpt-tokenizer's) is quadratic in the length of one pre-token (in gpt-tokenizer, 10 KB of `x` took
 * 0.17 s and 120 KB blocked for about 18 s), so the text
 * is counted in pieces of about 1,000 characters cut at pre-token boundaries. Pre-tokens never
 * span such a boundary, so the sum equals `countTokens(text)` exactly for ordinary text
 * (anything with a space, tab or line break at least every 2,000 characters). Only a run of
 * more than 2,000 characters without one — one character repeated, a long base64 blob — is cut
 * inside a pre-token; each such cut can shift the count by a token or two (a token per 2,000
 * characters: 0 % on runs of letters, +8 % on runs of spaces, which o200k packs ~128 to a token;
 * `bench/token-count.ts` measures it). Special-token strings count as plain text.
 */
export function countO200kTokens(text: string): number {
  if (text.length <= COUNT_PIECE_TARGET) return countO200kPiece(text);
  let total = 0;
  for (const piece of countingPieces(text)) total += countO200kPiece(piece);
  return total;
}
