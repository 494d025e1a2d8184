/**
 * The o200k rank table as a file: `npm run build` writes the table built from gpt-tokenizer's rank list next to
 * the compiled code (`dist/tokens/o200k-rank-table.bin`), and a process that needs the table reads it back (4.6 MB,
 * about 5 ms with its digest checked) instead of parsing the 2.2 MB rank-list module and hashing 200,000 tokens
 * (about 160 ms together): most of what a short-lived process such as a Claude Code hook spends before its own work.
 * The file names the gpt-tokenizer version it was built from and carries the SHA-256 of its contents; a file of
 * another version, cut short, or whose bytes changed (a count from a damaged table would be wrong, and the window's
 * token limit rests on counts) is not used: the table is built from the list instead, and `rankFileRead()` says why.
 * A process that keeps stamps of checked files (`o200k-rank-stamp.ts`: the hook) skips hashing a file it has checked
 * before and that was not written since.
 *
 * Layout, little-endian: the magic `cl-o200k-ranks2\n` (16 bytes); u32 token count, u32 byte-buffer length,
 * u32 slot count, u32 version length; the SHA-256 of everything after it (32 bytes); the version (UTF-8,
 * zero-padded to 4 bytes); `start` (i32 per token), `slots` (i32 per slot), `length` (u8 per token, zero-padded to
 * 4 bytes), then the token bytes.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PagedRanks } from './o200k-rank-pages.js';
import type { RankFileLayout } from './o200k-rank-pages.js';
import { fileIdentity, hasRankFileStamp, writeRankFileStamp } from './o200k-rank-stamp.js';

const MAGIC = 'cl-o200k-ranks2\n';
const DIGEST_AT = MAGIC.length + 16;
const HEADER_BYTES = DIGEST_AT + 32;

const digestOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/**
 * Ranks by bytes: token `r` is `bytes[start[r] .. start[r] + length[r])`; `slots` hold rank + 1 (0 = empty). A table
 * read a few bytes at a time (`paged`, see `o200k-rank-pages.ts`) has empty arrays: its lookups go to `paged`.
 */
export interface RankTable {
  readonly bytes: Uint8Array;
  readonly start: Int32Array;
  readonly length: Uint8Array;
  readonly slots: Int32Array;
  readonly mask: number;
  readonly paged?: PagedRanks | undefined;
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
  const table = checkRankFile(file, version);
  return typeof table === 'string' ? undefined : table;
}

/**
 * The layout a rank file's header (its first bytes, at least through the version) gives, for a file of `fileLength`
 * bytes naming `version`; or what is wrong with it. The contents are not hashed here.
 */
export function rankFileLayout(header: Uint8Array, fileLength: number, version: string): RankFileLayout | string {
  if (!LITTLE_ENDIAN) return 'this machine is big-endian (the file holds little-endian arrays)';
  if (
    header.length < HEADER_BYTES ||
    Buffer.from(header.buffer, header.byteOffset, MAGIC.length).toString('latin1') !== MAGIC
  )
    return 'not a rank file of this format (its magic differs)';
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const count = view.getUint32(MAGIC.length, true);
  const byteLength = view.getUint32(MAGIC.length + 4, true);
  const slotCount = view.getUint32(MAGIC.length + 8, true);
  const versionLength = view.getUint32(MAGIC.length + 12, true);
  if (slotCount === 0 || (slotCount & (slotCount - 1)) !== 0) return 'its slot count is not a power of two';
  const startAt = HEADER_BYTES + padded(versionLength);
  const slotsAt = startAt + count * 4;
  const lengthAt = slotsAt + slotCount * 4;
  const bytesAt = lengthAt + padded(count);
  if (fileLength !== bytesAt + byteLength)
    return `it holds ${fileLength} bytes where its header says ${bytesAt + byteLength}`;
  if (header.length < HEADER_BYTES + versionLength) return 'its header is cut short';
  const named = Buffer.from(header.buffer, header.byteOffset + HEADER_BYTES, versionLength).toString('utf8');
  if (named !== version) return `it was built from gpt-tokenizer ${named}, not the installed ${version}`;
  return { count, slotCount, byteLength, startAt, slotsAt, lengthAt, bytesAt };
}

/**
 * The table held by `file`'s bytes, or what is wrong with them. `checkDigest: false` (a file whose stamp says it was
 * checked) skips hashing the contents; everything else is checked still.
 */
export function checkRankFile(file: Uint8Array, version: string, checkDigest = true): RankTable | string {
  // The 32-bit arrays need the file's bytes at an offset divisible by 4: a large read has its own buffer at 0.
  const data = file.byteOffset % 4 === 0 ? file : new Uint8Array(file);
  const layout = rankFileLayout(data, data.length, version);
  if (typeof layout === 'string') return layout;
  const base = data.byteOffset;
  const digest = Buffer.from(data.buffer, base + DIGEST_AT, 32);
  if (checkDigest && !digestOf(data.subarray(HEADER_BYTES)).equals(digest))
    return 'its SHA-256 does not match its contents (the file is damaged)';
  const { count, slotCount, byteLength } = layout;
  return {
    start: new Int32Array(data.buffer, base + layout.startAt, count),
    slots: new Int32Array(data.buffer, base + layout.slotsAt, slotCount),
    length: new Uint8Array(data.buffer, base + layout.lengthAt, count),
    bytes: new Uint8Array(data.buffer, base + layout.bytesAt, byteLength),
    mask: slotCount - 1,
  };
}

/** How the last `readRankFile` went: the table's file, and what was wrong with it when it was not used. */
export interface RankFileRead {
  readonly path: string;
  /**
   * `checked`: digest checked; `stamped`: a stamp said the file was checked before; `paged`: stamped, and read a few
   * bytes at a time (`o200k-rank-pages.ts`); else not used.
   */
  readonly outcome: 'checked' | 'stamped' | 'paged' | 'missing' | 'refused';
  /** Why the file was refused. */
  readonly problem?: string | undefined;
}

let lastRead: RankFileRead | undefined;

/** How the last read of a rank file went (undefined before one). */
export function rankFileRead(): RankFileRead | undefined {
  return lastRead;
}

/** All of the open file `fd`, `size` bytes, in a buffer of its own. */
function readWhole(fd: number, size: number): Buffer {
  const file = Buffer.allocUnsafeSlow(size);
  for (let at = 0; at < size;) {
    const read = readSync(fd, file, at, size - at, at);
    if (read === 0) return file.subarray(0, at);
    at += read;
  }
  return file;
}

/** Bytes of a rank file read for its header when the rest is read a block at a time. */
const HEADER_READ_BYTES = 4096;

/** The table of the open, stamped file `fd` (of `size` bytes) read a block at a time, or what is wrong with its header. */
function pagedTable(fd: number, size: number, version: string): RankTable | string {
  const header = Buffer.alloc(Math.min(HEADER_READ_BYTES, size));
  readSync(fd, header, 0, header.length, 0);
  const layout = rankFileLayout(header, size, version);
  if (typeof layout === 'string') return layout;
  const empty = { bytes: new Uint8Array(0), start: new Int32Array(0), length: new Uint8Array(0) };
  return { ...empty, slots: new Int32Array(0), mask: layout.slotCount - 1, paged: new PagedRanks(fd, layout) };
}

/** Options of {@link readRankFile}. */
export interface ReadRankFileOptions {
  /** Read a stamped file a few bytes at a time (see `o200k-rank-pages.ts`) rather than whole. */
  readonly paged?: boolean | undefined;
}

/**
 * The table of the build's file (or of `url`), or undefined when there is none (running from the sources) or it is not
 * usable (`rankFileRead()` says why). The file is read through one descriptor and its identity taken before and after:
 * a stamp (see `o200k-rank-stamp.ts`) spares the digest only when the file was not written while it was read.
 */
export function readRankFile(
  version: string,
  url: URL = RANK_FILE_URL,
  options: ReadRankFileOptions = {},
): RankTable | undefined {
  const path = fileURLToPath(url);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    lastRead = { path, outcome: 'missing' };
    return undefined;
  }
  let keepOpen = false;
  try {
    const stats = fstatSync(fd, { bigint: true });
    const before = fileIdentity(stats);
    if (options.paged === true && hasRankFileStamp(path, before, version)) {
      const paged = pagedTable(fd, Number(stats.size), version);
      keepOpen = typeof paged !== 'string';
      if (keepOpen) {
        lastRead = { path, outcome: 'paged' };
        return paged as RankTable;
      }
    }
    const file = readWhole(fd, Number(stats.size));
    const unchanged = fileIdentity(fstatSync(fd, { bigint: true })) === before;
    const stamped = unchanged && hasRankFileStamp(path, before, version);
    const table = checkRankFile(file, version, !stamped);
    if (typeof table === 'string') {
      lastRead = { path, outcome: 'refused', problem: table };
      return undefined;
    }
    if (unchanged && !stamped) writeRankFileStamp(path, stats, version);
    lastRead = { path, outcome: stamped ? 'stamped' : 'checked' };
    return table;
  } finally {
    if (!keepOpen) closeSync(fd);
  }
}
