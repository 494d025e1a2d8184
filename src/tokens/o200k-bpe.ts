/**
 * An exact o200k_base token count of one piece of text, without gpt-tokenizer's encoder.
 *
 * gpt-tokenizer looks up each candidate byte pair by checking that its bytes are valid UTF-8,
 * decoding them to a string and reading a string-keyed Map: on text its merge cache has not
 * seen, that lookup is most of the cost of counting (2–5 MB/s here). This module keeps the same
 * vocabulary (gpt-tokenizer's rank list) and the same pre-tokenizer (`o200k-pretokens.ts`, which
 * splits as its regex does), and looks ranks up by their bytes in an open-addressing hash table
 * over one byte buffer, with no allocation per lookup. The merge is the same lowest-rank-first,
 * leftmost-on-ties byte-pair merge, so the count equals `countTokens(text, { disallowedSpecial:
 * new Set() })` for every string (special-token strings count as the plain text they are), down
 * to gpt-tokenizer's handling of byte-order marks (`unreachable` in `o200k-rank-table.ts`, and
 * `pairRank`); `test/core/o200k-bpe.test.ts` checks that against gpt-tokenizer on random and real text.
 *
 * The rank table (`o200k-rank-table.ts`) is built on first use; with it the counter needs about
 * 20 MB less resident memory than gpt-tokenizer's encoder with its string Map.
 */
import {
  longMergedCount,
  rememberLongMergedCount,
  rememberShortMergedCount,
  shortMergedCount,
  SHORT_BYTES,
} from './o200k-merge-memo.js';
import { preTokenEnd } from './o200k-pretokens.js';
import { hashBytes, hashedRankOf, NO_RANK, rankOf, rankTable } from './o200k-rank-table.js';
import type { RankTable } from './o200k-rank-file.js';

/** Scratch space, grown as needed: UTF-8 bytes of one pre-token, part starts and pair ranks. */
let utf8 = new Uint8Array(1024);
let starts = new Int32Array(1024);
let pairRanks = new Int32Array(1024);

/**
 * Writes the UTF-8 bytes of `text.slice(from, to)` into `utf8` (a lone surrogate becomes U+FFFD, as
 * TextEncoder writes it) and returns their number, negated when a lone surrogate was replaced.
 */
function encodeUtf8(text: string, from: number, to: number): number {
  if (utf8.length < (to - from) * 3) utf8 = new Uint8Array((to - from) * 3);
  const out = utf8;
  let at = 0;
  let replaced = false;
  for (let index = from; index < to; index += 1) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      out[at++] = code;
      continue;
    }
    if (code < 0x800) {
      out[at++] = 0xc0 | (code >> 6);
      out[at++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const low = index + 1 < to ? text.charCodeAt(index + 1) : 0;
      if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        index += 1;
        out[at++] = 0xf0 | (code >> 18);
        out[at++] = 0x80 | ((code >> 12) & 0x3f);
        out[at++] = 0x80 | ((code >> 6) & 0x3f);
        out[at++] = 0x80 | (code & 0x3f);
        continue;
      }
      code = 0xfffd;
      replaced = true;
    }
    out[at++] = 0xe0 | (code >> 12);
    out[at++] = 0x80 | ((code >> 6) & 0x3f);
    out[at++] = 0x80 | (code & 0x3f);
  }
  return replaced ? -at : at;
}

/**
 * The rank of the pair of parts starting at part `part` of `parts` parts, or `NO_RANK` when there is no such pair.
 *
 * Kept from gpt-tokenizer so that counts stay what they were (see `unreachable`): a pair that starts with the
 * three bytes of U+FEFF and ends at a character boundary is valid UTF-8 and is looked up without them (and has
 * no rank when nothing follows them).
 */
function pairRank(ranks: RankTable, part: number, parts: number, size: number): number {
  if (part + 1 >= parts) return NO_RANK;
  const from = starts[part] ?? 0;
  const to = starts[part + 2] ?? 0;
  if (utf8[from] === 0xef && utf8[from + 1] === 0xbb && utf8[from + 2] === 0xbf) {
    if (to < size && ((utf8[to] ?? 0) & 0xc0) === 0x80) return rankOf(ranks, utf8, from, to);
    return from + 3 < to ? rankOf(ranks, utf8, from + 3, to) : NO_RANK;
  }
  return rankOf(ranks, utf8, from, to);
}

/** The number of tokens the byte-pair merge leaves of `utf8[0, size)`. */
function mergedCount(ranks: RankTable, size: number): number {
  if (starts.length <= size) {
    starts = new Int32Array(size * 2 + 1);
    pairRanks = new Int32Array(size * 2 + 1);
  }
  for (let index = 0; index <= size; index += 1) starts[index] = index;
  let parts = size;
  for (let part = 0; part < parts; part += 1) pairRanks[part] = pairRank(ranks, part, parts, size);
  while (parts > 1) {
    let lowest = NO_RANK;
    let at = -1;
    for (let part = 0; part < parts - 1; part += 1) {
      const rank = pairRanks[part] ?? NO_RANK;
      if (rank < lowest) {
        lowest = rank;
        at = part;
      }
    }
    if (at < 0) break;
    starts.copyWithin(at + 1, at + 2, parts + 1);
    pairRanks.copyWithin(at, at + 1, parts);
    parts -= 1;
    pairRanks[at] = pairRank(ranks, at, parts, size);
    if (at > 0) pairRanks[at - 1] = pairRank(ranks, at - 1, parts, size);
  }
  return parts;
}

/** Tokens of the pre-token `text.slice(from, to)`: one when its bytes are a token, else what the merge leaves. */
function preTokenCount(ranks: RankTable, text: string, from: number, to: number): number {
  const encoded = encodeUtf8(text, from, to);
  const size = Math.abs(encoded);
  if (size <= 1) return size;
  const hash = hashBytes(utf8, 0, size);
  // gpt-tokenizer looks the pre-token up whole only as a string, which a replaced surrogate never matches.
  if (encoded > 0 && hashedRankOf(ranks, utf8, 0, size, hash) !== NO_RANK) return 1;
  if (size < SHORT_BYTES) {
    const known = shortMergedCount(utf8, size, hash);
    if (known >= 0) return known;
    const count = mergedCount(ranks, size);
    rememberShortMergedCount(utf8, size, hash, count);
    return count;
  }
  const preToken = text.slice(from, to);
  const known = longMergedCount(preToken);
  if (known !== undefined) return known;
  const count = mergedCount(ranks, size);
  rememberLongMergedCount(preToken, count);
  return count;
}

/**
 * The exact o200k_base token count of `text`, special-token strings counted as plain text. The
 * merge is quadratic in the length of one pre-token, like gpt-tokenizer's: `countO200kTokens`
 * cuts long texts into pieces first.
 */
export function countO200kPiece(text: string): number {
  if (text.length === 0) return 0;
  const ranks = rankTable();
  let total = 0;
  for (let at = 0; at < text.length;) {
    const end = preTokenEnd(text, at);
    total += preTokenCount(ranks, text, at, end);
    at = end;
  }
  return total;
}

/** Where a counted text may be cut with its count shared: true at a pre-token boundary that holds in every slice. */
export type CutTest = (text: string, index: number) => boolean;

/**
 * {@link countO200kPiece} that also marks places to cut: after each pre-token that ends at least `spacing` units
 * after the last mark, inside the text, where `isCut` holds, it pushes the offset (plus `offset`) to `bounds` and the
 * tokens before it (plus `tokensBefore`) to `before`. Counting a slice then only counts its ends.
 */
export function countO200kPieceMarked(
  text: string,
  table: { readonly offset: number; readonly tokensBefore: number; readonly spacing: number; readonly isCut: CutTest },
  bounds: number[],
  before: number[],
): number {
  const ranks = rankTable();
  let total = 0;
  let last = 0;
  for (let at = 0; at < text.length;) {
    const end = preTokenEnd(text, at);
    total += preTokenCount(ranks, text, at, end);
    at = end;
    if (end - last >= table.spacing && end < text.length && table.isCut(text, end)) {
      bounds.push(table.offset + end);
      before.push(table.tokensBefore + total);
      last = end;
    }
  }
  return total;
}
