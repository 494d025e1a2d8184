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
 * to gpt-tokenizer's handling of byte-order marks (see `unreachable`); `test/core/o200k-bpe.test.ts`
 * checks that against gpt-tokenizer on random and real text.
 *
 * The table is built on first use, in about 80 ms: 1.4 MB of token bytes and 2 MB of slots, about
 * 20 MB less resident memory than gpt-tokenizer's encoder with its string Map.
 */
import rankList from 'gpt-tokenizer/bpeRanks/o200k_base';
import {
  longMergedCount,
  rememberLongMergedCount,
  rememberShortMergedCount,
  shortMergedCount,
  SHORT_BYTES,
} from './o200k-merge-memo.js';
import { preTokenEnd } from './o200k-pretokens.js';

/** Ranks by bytes: token `r` is `bytes[start[r] .. start[r] + length[r])`; `slots` hold rank + 1 (0 = empty). */
interface RankTable {
  readonly bytes: Uint8Array;
  readonly start: Int32Array;
  readonly length: Uint8Array;
  readonly slots: Int32Array;
  readonly mask: number;
}

/** No rank: a pair that is not a token (larger than every rank). */
const NO_RANK = 0x7fffffff;

let table: RankTable | undefined;

/** FNV-1a over `buffer[from, to)`. */
function hashBytes(buffer: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let index = from; index < to; index += 1) hash = Math.imul(hash ^ (buffer[index] ?? 0), 0x01000193);
  return hash >>> 0;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * True for a token gpt-tokenizer never finds, so counts stay what they were: it keeps tokens whose bytes decode
 * to a string under that string and the rest as byte arrays, and looks any valid UTF-8 up as a string decoded
 * by a TextDecoder, which drops a leading byte-order mark. The nine tokens that start with the mark's bytes
 * (U+FEFF) are kept as byte arrays although they are valid UTF-8, and no lookup reaches them.
 */
function unreachable(token: string | readonly number[] | undefined): boolean {
  if (token === undefined || typeof token === 'string') return false;
  try {
    strictDecoder.decode(new Uint8Array(token));
    return true;
  } catch {
    return false;
  }
}

function buildTable(): RankTable {
  const encoder = new TextEncoder();
  const count = rankList.length;
  const start = new Int32Array(count);
  const length = new Uint8Array(count);
  let bytes = new Uint8Array(1 << 21);
  let at = 0;
  for (let rank = 0; rank < count; rank += 1) {
    const token = rankList[rank] ?? [];
    const size = typeof token === 'string' ? token.length * 3 : token.length;
    if (at + size > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + size));
      grown.set(bytes.subarray(0, at));
      bytes = grown;
    }
    start[rank] = at;
    if (typeof token === 'string') at += encoder.encodeInto(token, bytes.subarray(at)).written;
    else for (const byte of token) bytes[at++] = byte;
    length[rank] = at - (start[rank] ?? 0);
  }
  let size = 1;
  while (size < count * 2.5) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let rank = 0; rank < count; rank += 1) {
    if (unreachable(rankList[rank])) continue;
    const from = start[rank] ?? 0;
    let slot = hashBytes(bytes, from, from + (length[rank] ?? 0)) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = rank + 1;
  }
  return { bytes, start, length, slots, mask };
}

/** The rank table, built on first use. */
function rankTable(): RankTable {
  table ??= buildTable();
  return table;
}

/** The rank of the token whose bytes are `buffer[from, to)`, or `NO_RANK`. */
function rankOf(ranks: RankTable, buffer: Uint8Array, from: number, to: number): number {
  return hashedRankOf(ranks, buffer, from, to, hashBytes(buffer, from, to));
}

/** `rankOf` with the bytes' hash already computed. */
function hashedRankOf(ranks: RankTable, buffer: Uint8Array, from: number, to: number, hash: number): number {
  const { bytes, start, length, slots, mask } = ranks;
  const size = to - from;
  let slot = hash & mask;
  for (let entry = slots[slot] ?? 0; entry !== 0; entry = slots[slot] ?? 0) {
    const rank = entry - 1;
    if (length[rank] === size) {
      const at = start[rank] ?? 0;
      let index = 0;
      while (index < size && bytes[at + index] === buffer[from + index]) index += 1;
      if (index === size) return rank;
    }
    slot = (slot + 1) & mask;
  }
  return NO_RANK;
}

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
