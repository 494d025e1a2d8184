/**
 * The rank table read a few bytes at a time: what a short-lived process counting little text (a hook's `Stop` after
 * one turn: a few hundred rank lookups) reads of the 4.6 MB rank file instead of all of it. Reading the whole file
 * costs more than the count itself: mostly the first touch of 4.6 MB of fresh memory. Here each lookup reads the
 * 64-byte blocks it needs (its slot, the rank's length and start, the token's bytes), once each, from the open file.
 *
 * Used only for a file whose stamp says its digest was checked whole before and that has not been written since
 * (`o200k-rank-stamp.ts`; the build writes a new file rather than rewriting the old one in place, so an open file
 * keeps its bytes). A process that goes on counting (past {@link MAX_PAGED_BLOCKS} blocks) reads the whole table
 * instead (`rankTable()`): the lookups then cost what they always did.
 *
 * The ranks are the table's: the same slots probed in the same order as `hashedRankOf` (`o200k-rank-table.ts`).
 */
import { closeSync, readSync } from 'node:fs';

/** Where the parts of a rank file start (bytes from its start), and their sizes. */
export interface RankFileLayout {
  readonly count: number;
  readonly slotCount: number;
  readonly byteLength: number;
  readonly startAt: number;
  readonly slotsAt: number;
  readonly lengthAt: number;
  readonly bytesAt: number;
}

/** Bytes read at a time. */
const BLOCK_BYTES = 64;
const BLOCK_SHIFT = 6;

/** Blocks read before the whole table is read instead (64 KB). */
export const MAX_PAGED_BLOCKS = 1_024;

/** No rank (as `NO_RANK` in `o200k-rank-table.ts`). */
const NO_RANK = 0x7fffffff;

/** Rank lookups on an open rank file, read a block at a time. */
export class PagedRanks {
  private readonly blocks = new Map<number, Buffer>();
  private readonly mask: number;
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly layout: RankFileLayout,
  ) {
    this.mask = layout.slotCount - 1;
  }

  /** Blocks read so far. */
  get blocksRead(): number {
    return this.blocks.size;
  }

  /** Whether the process has counted enough to read the whole table instead. */
  get exhausted(): boolean {
    return this.closed || this.blocks.size >= MAX_PAGED_BLOCKS;
  }

  /** Close the file (no lookup after). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.blocks.clear();
    closeSync(this.fd);
  }

  private block(offset: number): Buffer {
    const index = offset >>> BLOCK_SHIFT;
    let block = this.blocks.get(index);
    if (block === undefined) {
      block = Buffer.allocUnsafe(BLOCK_BYTES);
      readSync(this.fd, block, 0, BLOCK_BYTES, index * BLOCK_BYTES);
      this.blocks.set(index, block);
    }
    return block;
  }

  /** The little-endian i32 at `offset` (4-aligned: never across two blocks). */
  private int32At(offset: number): number {
    return this.block(offset).readInt32LE(offset & (BLOCK_BYTES - 1));
  }

  private byteAt(offset: number): number {
    return this.block(offset)[offset & (BLOCK_BYTES - 1)] ?? 0;
  }

  /** The rank of the token whose bytes are `buffer[from, to)` (FNV-1a hash `hash`), or `NO_RANK`. */
  rankOf(buffer: Uint8Array, from: number, to: number, hash: number): number {
    const { slotsAt, lengthAt, startAt, bytesAt } = this.layout;
    const size = to - from;
    let slot = hash & this.mask;
    for (let entry = this.int32At(slotsAt + slot * 4); entry !== 0; entry = this.int32At(slotsAt + slot * 4)) {
      const rank = entry - 1;
      if (this.byteAt(lengthAt + rank) === size) {
        const at = bytesAt + this.int32At(startAt + rank * 4);
        let index = 0;
        while (index < size && this.byteAt(at + index) === buffer[from + index]) index += 1;
        if (index === size) return rank;
      }
      slot = (slot + 1) & this.mask;
    }
    return NO_RANK;
  }
}
