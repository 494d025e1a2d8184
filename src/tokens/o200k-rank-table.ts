/**
 * o200k_base's ranks by their bytes, for `o200k-bpe.ts`: every token of gpt-tokenizer's rank list in one byte
 * buffer, found through an open-addressing hash table (FNV-1a, linear probing) with no allocation per lookup:
 * 1.4 MB of token bytes and 2 MB of slots. Read on first use from the file the build writes
 * (`o200k-rank-file.ts`), or built from the rank list (about 80 ms, plus loading the list) when there is none.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { RANK_FILE_URL, readRankFile, type RankTable } from './o200k-rank-file.js';
import { rankFileStampFolder } from './o200k-rank-stamp.js';

/** gpt-tokenizer's o200k_base rank list: each token as a string, or as bytes when they are not valid UTF-8. */
export type RankList = readonly (string | readonly number[])[];

const require = createRequire(import.meta.url);

let installedVersion: string | undefined;

/**
 * The installed gpt-tokenizer's version (the rank file must have been built from it): its `package.json`, found in the
 * `node_modules` folders Node would look in, read as a file. Requiring it resolves the package's `exports` map, about
 * a twentieth of a bare Node start in a hook process that needs nothing else of the package; that is the fallback.
 */
export function rankListVersion(): string {
  installedVersion ??= packageJsonVersion() ?? (require('gpt-tokenizer/package.json') as { version: string }).version;
  return installedVersion;
}

/** The version in the first `node_modules/gpt-tokenizer/package.json` on the module's lookup path, if any. */
function packageJsonVersion(): string | undefined {
  for (const folder of require.resolve.paths('gpt-tokenizer') ?? []) {
    let text: string;
    try {
      text = readFileSync(join(folder, 'gpt-tokenizer', 'package.json'), 'utf8');
    } catch {
      continue;
    }
    try {
      const { version } = JSON.parse(text) as { version?: unknown };
      return typeof version === 'string' ? version : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** gpt-tokenizer's rank list, loaded when first asked for (a 2.2 MB module). */
export function loadRankList(): RankList {
  return (require('gpt-tokenizer/bpeRanks/o200k_base') as { default: RankList }).default;
}

/** No rank: a pair that is not a token (larger than every rank). */
export const NO_RANK = 0x7fffffff;

let table: RankTable | undefined;

/** FNV-1a over `buffer[from, to)`. */
export function hashBytes(buffer: Uint8Array, from: number, to: number): number {
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

/** The rank table of `rankList`. A change to what it builds must change the rank file's magic (`o200k-rank-file.ts`). */
export function buildRankTable(rankList: RankList): RankTable {
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
  return { bytes: bytes.subarray(0, at), start, length, slots, mask };
}

/**
 * The rank table: read from the build's file, or built from the rank list, on first use. Where stamps of checked rank
 * files are kept (the hook), a stamped file is first read a few bytes at a time, and whole once the process has
 * counted more than a little text (see `o200k-rank-pages.ts`).
 */
export function rankTable(): RankTable {
  if (table?.paged?.exhausted === true) {
    table.paged.close();
    table = readRankFile(rankListVersion()) ?? buildRankTable(loadRankList());
  }
  table ??=
    readRankFile(rankListVersion(), RANK_FILE_URL, { paged: rankFileStampFolder() !== undefined }) ??
    buildRankTable(loadRankList());
  return table;
}

/** The rank of the token whose bytes are `buffer[from, to)`, or `NO_RANK`. */
export function rankOf(ranks: RankTable, buffer: Uint8Array, from: number, to: number): number {
  return hashedRankOf(ranks, buffer, from, to, hashBytes(buffer, from, to));
}

/** `rankOf` with the bytes' hash already computed. */
export function hashedRankOf(ranks: RankTable, buffer: Uint8Array, from: number, to: number, hash: number): number {
  if (ranks.paged !== undefined) return ranks.paged.rankOf(buffer, from, to, hash);
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
