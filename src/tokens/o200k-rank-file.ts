/**
 * The o200k rank table as a file: `npm run build` writes the table built from gpt-tokenizer's rank list next to
 * the compiled code (`dist/tokens/o200k-rank-table.bin`), and a process that needs the table reads it back (4.6 MB,
 * about 5 ms with its digest checked) instead of parsing the 2.2 MB rank-list module and hashing 200,000 tokens
 * (about 160 ms together): most of what a short-lived process such as a Claude Code hook spends before its own work.
 * The file names the gpt-tokenizer version it was built from and carries the SHA-256 of its contents; a file of
 * another version, cut short, or whose bytes changed (a count from a damaged table would be wrong, and the window's
 * token limit rests on counts) is not used: the table is built from the list instead.
 *
 * Layout, little-endian: the magic `cl-o200k-ranks2\n` (16 bytes); u32 token count, u32 byte-buffer length,
 * u32 slot count, u32 version length; the SHA-256 of everything after it (32 bytes); the version (UTF-8,
 * zero-padded to 4 bytes); `start` (i32 per token), `slots` (i32 per slot), `length` (u8 per token, zero-padded to
 * 4 bytes), then the token bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const MAGIC = 'cl-o200k-ranks2\n';
const DIGEST_AT = MAGIC.length + 16;
const HEADER_BYTES = DIGEST_AT + 32;

const digestOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** Ranks by bytes: token `r` is `bytes[start[r] .. start[r] + length[r])`; `slots` hold rank + 1 (0 = empty). */
export interface RankTable {
  readonly bytes: Uint8Array;
  readonly start: Int32Array;
  readonly length: Uint8Array;
  readonly slots: Int32Array;
  readonly mask: number;
}

/** Where the build writes the table: beside this module's compiled file. */
export const RANK_FILE_URL = new URL('./o200k-rank-table.bin', import.meta.url);

const padded = (size: number) => (size + 3) & ~3;

/** The arrays are stored as this machine's typed arrays hold them: the file is only read back on little-endian ones. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The table as the file's bytes, naming the rank list's `version`. */
export function rankFileBytes(table: RankTable, version: string): Uint8Array {
  const count = table.start.length;
  const versionBytes = Buffer.from(version, 'utf8');
  const sizes = [HEADER_BYTES, padded(versionBytes.length), count * 4, table.slots.length * 4, padded(count)];
  const total = sizes.reduce((sum, size) => sum + size, 0) + table.bytes.length;
  const out = Buffer.alloc(total);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(count, MAGIC.length);
  out.writeUInt32LE(table.bytes.length, MAGIC.length + 4);
  out.writeUInt32LE(table.slots.length, MAGIC.length + 8);
  out.writeUInt32LE(versionBytes.length, MAGIC.length + 12);
  let at = HEADER_BYTES;
  versionBytes.copy(out, at);
  at += padded(versionBytes.length);
  for (const part of [table.start, table.slots, table.length, table.bytes]) {
    out.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), at);
    at += part === table.length ? padded(part.byteLength) : part.byteLength;
  }
  digestOf(out.subarray(HEADER_BYTES)).copy(out, DIGEST_AT);
  return out;
}

/**
 * The table held by `file`'s bytes when they are whole and name `version`; otherwise undefined. The arrays
 * are views of the file's bytes (of a copy when they do not start at a 4-byte offset).
 */
export function parseRankFile(file: Uint8Array, version: string): RankTable | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  if (
    file.length < HEADER_BYTES ||
    Buffer.from(file.buffer, file.byteOffset, MAGIC.length).toString('latin1') !== MAGIC
  )
    return undefined;
  // The 32-bit arrays need the file's bytes at an offset divisible by 4: a large read has its own buffer at 0.
  const data = file.byteOffset % 4 === 0 ? file : new Uint8Array(file);
  const base = data.byteOffset;
  const view = new DataView(data.buffer, base, data.byteLength);
  const count = view.getUint32(MAGIC.length, true);
  const byteLength = view.getUint32(MAGIC.length + 4, true);
  const slotCount = view.getUint32(MAGIC.length + 8, true);
  const versionLength = view.getUint32(MAGIC.length + 12, true);
  if (slotCount === 0 || (slotCount & (slotCount - 1)) !== 0) return undefined;
  const expected = HEADER_BYTES + padded(versionLength) + count * 4 + slotCount * 4 + padded(count) + byteLength;
  if (data.length !== expected) return undefined;
  const digest = Buffer.from(data.buffer, base + DIGEST_AT, 32);
  if (!digestOf(data.subarray(HEADER_BYTES)).equals(digest)) return undefined;
  let at = HEADER_BYTES;
  if (Buffer.from(data.buffer, base + at, versionLength).toString('utf8') !== version) return undefined;
  at += padded(versionLength);
  const start = new Int32Array(data.buffer, base + at, count);
  at += count * 4;
  const slots = new Int32Array(data.buffer, base + at, slotCount);
  at += slotCount * 4;
  const length = new Uint8Array(data.buffer, base + at, count);
  at += padded(count);
  const bytes = new Uint8Array(data.buffer, base + at, byteLength);
  return { bytes, start, length, slots, mask: slotCount - 1 };
}

/** The table of the build's file, or undefined when there is none (running from the sources) or it is not usable. */
export function readRankFile(version: string): RankTable | undefined {
  let file: Uint8Array;
  try {
    file = readFileSync(RANK_FILE_URL);
  } catch {
    return undefined;
  }
  return parseRankFile(file, version);
}
