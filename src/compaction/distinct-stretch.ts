/**
 * The handle rows of a stretch of seqs that only moves forward (a compaction's lookback), each identity once:
 * what `mergeHandles` gives for the stretch's rows (the earliest occurrence of each identity, oldest first), kept
 * as seqs enter and leave instead of merged again at each compaction.
 */
import { identityOf } from './identities.js';
import type { Handle } from '../types.js';

/** An identity's earliest row at one seq, and where the identity first occurs among that seq's rows. */
interface SeqFirst {
  readonly row: Handle;
  readonly order: number;
}

/** See the module comment. */
export class DistinctStretch {
  private low = 0;
  private readonly held: (readonly Handle[])[] = [];
  /** Per identity, its earliest row at each seq of the stretch that holds it, oldest seq first. */
  private readonly firsts = new Map<string, SeqFirst[]>();
  private answer: readonly Handle[] | undefined;

  /** First seq after the stretch. */
  get end(): number {
    return this.low + this.held.length;
  }

  /**
   * Move the stretch to `[fromSeq, toSeq]` (`toSeq < fromSeq`: empty); the seqs it gains are read with `rowsOf`
   * (undefined: not known, then the stretch is emptied and false returned). A stretch moving back starts again.
   */
  moveTo(fromSeq: number, toSeq: number, rowsOf: (seq: number) => readonly Handle[] | undefined): boolean {
    if (fromSeq < this.low || toSeq < this.end - 1 || fromSeq > this.end) this.clear(fromSeq);
    while (this.low < fromSeq && this.held.length > 0) this.dropFirst();
    if (this.held.length === 0) this.low = fromSeq;
    for (let seq = this.end; seq <= toSeq; seq++) {
      const rows = rowsOf(seq);
      if (rows === undefined) {
        this.clear(fromSeq);
        return false;
      }
      this.push(rows);
    }
    return true;
  }

  /** `mergeHandles` of the stretch's rows. */
  handles(): readonly Handle[] {
    if (this.answer === undefined) {
      const heads: SeqFirst[] = [];
      for (const list of this.firsts.values()) heads.push(list[0] as SeqFirst);
      // `mergeHandles` sorts its identities (in order of first occurrence) by seq, start and kind; a tie keeps that order.
      heads.sort(
        (a, b) =>
          a.row.seq - b.row.seq ||
          a.row.start - b.row.start ||
          a.row.kind.localeCompare(b.row.kind) ||
          a.order - b.order,
      );
      this.answer = heads.map((head) => head.row);
    }
    return this.answer;
  }

  private clear(low: number): void {
    this.low = low;
    this.held.length = 0;
    this.firsts.clear();
    this.answer = undefined;
  }

  /** Each identity's earliest row of one seq (the first of the lowest start), in order of first occurrence. */
  private static firstsOf(rows: readonly Handle[]): Map<string, SeqFirst> {
    const firsts = new Map<string, SeqFirst>();
    rows.forEach((row, order) => {
      const identity = identityOf(row);
      const known = firsts.get(identity);
      if (known === undefined) firsts.set(identity, { row, order });
      else if (row.start < known.row.start) firsts.set(identity, { row, order: known.order });
    });
    return firsts;
  }

  private push(rows: readonly Handle[]): void {
    this.held.push(rows);
    this.answer = undefined;
    for (const [identity, first] of DistinctStretch.firstsOf(rows)) {
      const list = this.firsts.get(identity);
      if (list === undefined) this.firsts.set(identity, [first]);
      else list.push(first);
    }
  }

  private dropFirst(): void {
    const rows = this.held.shift() ?? [];
    this.low++;
    this.answer = undefined;
    for (const identity of DistinctStretch.firstsOf(rows).keys()) {
      const list = this.firsts.get(identity);
      if (list === undefined) continue;
      list.shift();
      if (list.length === 0) this.firsts.delete(identity);
    }
  }
}
