/**
 * The handle rows of a stretch of seqs that only moves forward (a compaction's lookback), each identity once:
 * what `mergeHandles` gives for the stretch's rows (the earliest occurrence of each identity, oldest first), kept
 * as seqs enter and leave instead of merged again at each compaction.
 */
import { identityOf } from '../model/identities.js';
import type { Handle } from '../types.js';
import { handleTraits } from './handle-traits.js';
import type { HandleTraits } from './handle-traits.js';

/** An identity's earliest row at one seq, and where the identity first occurs among that seq's rows. */
interface SeqFirst {
  /** The seq of the stretch the row is held at. */
  readonly seq: number;
  readonly identity: string;
  readonly row: Handle;
  readonly order: number;
  /** The row's `handleTraits`, once asked for (kept while the identity heads here). */
  traits?: HandleTraits;
}

/** The order `mergeHandles` gives the identities first seen at one seq: by start, kind, then first occurrence. */
function withinSeq(a: SeqFirst, b: SeqFirst): number {
  return a.row.start - b.row.start || a.row.kind.localeCompare(b.row.kind) || a.order - b.order;
}

/**
 * See the module comment. The answer is kept in order as the stretch moves: each held seq has the identities whose
 * earliest row in the stretch is at that seq (its heads), in `withinSeq` order, so the answer is the heads of each
 * seq in turn. A seq entering adds heads only for identities new to the stretch; a seq leaving hands each of its
 * identities to the next seq that holds it. Nothing is sorted but the heads of one seq.
 */
export class DistinctStretch {
  private low = 0;
  private readonly held: (readonly Handle[])[] = [];
  /** Per held seq (oldest first), the identities whose earliest row in the stretch is there, in `withinSeq` order. */
  private readonly heads: SeqFirst[][] = [];
  /** Per identity, its earliest row at each seq of the stretch that holds it, oldest seq first. */
  private readonly firsts = new Map<string, SeqFirst[]>();
  private answer: readonly Handle[] | undefined;
  private answerIdentities: readonly string[] | undefined;
  private answerTraits: readonly HandleTraits[] | undefined;

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

  /** `mergeHandles` of the stretch's rows (the same array until the stretch moves). */
  handles(): readonly Handle[] {
    if (this.answer === undefined) {
      const answer: Handle[] = [];
      const identities: string[] = [];
      for (const heads of this.heads)
        for (const head of heads) {
          answer.push(head.row);
          identities.push(head.identity);
        }
      this.answer = answer;
      this.answerIdentities = identities;
      this.answerTraits = undefined;
    }
    return this.answer;
  }

  /** The identities (`identityOf`) of `handles()`, in its order. */
  identities(): readonly string[] {
    this.handles();
    return this.answerIdentities ?? [];
  }

  /**
   * The traits (`handleTraits`) of `handles()`, in its order: each row's are computed once while it heads its
   * identity, not at every compaction whose lookback holds it.
   */
  traits(): readonly HandleTraits[] {
    this.handles();
    if (this.answerTraits === undefined) {
      const traits: HandleTraits[] = [];
      for (const heads of this.heads) for (const head of heads) traits.push((head.traits ??= handleTraits(head.row)));
      this.answerTraits = traits;
    }
    return this.answerTraits;
  }

  private clear(low: number): void {
    this.low = low;
    this.held.length = 0;
    this.heads.length = 0;
    this.firsts.clear();
    this.answer = undefined;
    this.answerIdentities = undefined;
    this.answerTraits = undefined;
  }

  /** Each identity's earliest row of one seq (the first of the lowest start), in order of first occurrence. */
  private static firstsOf(rows: readonly Handle[], seq: number): Map<string, SeqFirst> {
    const firsts = new Map<string, SeqFirst>();
    rows.forEach((row, order) => {
      const identity = identityOf(row);
      const known = firsts.get(identity);
      if (known === undefined) firsts.set(identity, { seq, identity, row, order });
      else if (row.start < known.row.start) firsts.set(identity, { seq, identity, row, order: known.order });
    });
    return firsts;
  }

  private push(rows: readonly Handle[]): void {
    const seq = this.end;
    this.held.push(rows);
    this.answer = undefined;
    const heads: SeqFirst[] = [];
    for (const [identity, first] of DistinctStretch.firstsOf(rows, seq)) {
      const list = this.firsts.get(identity);
      if (list === undefined) {
        this.firsts.set(identity, [first]);
        heads.push(first);
      } else list.push(first);
    }
    this.heads.push(heads.sort(withinSeq));
  }

  private dropFirst(): void {
    const rows = this.held.shift() ?? [];
    this.heads.shift();
    this.low++;
    this.answer = undefined;
    const touched = new Set<SeqFirst[]>();
    for (const identity of DistinctStretch.firstsOf(rows, this.low - 1).keys()) {
      const list = this.firsts.get(identity);
      if (list === undefined) continue;
      list.shift();
      const next = list[0];
      if (next === undefined) {
        this.firsts.delete(identity);
        continue;
      }
      // The identity's earliest row is now at the next seq that holds it: it heads there.
      const heads = this.heads[next.seq - this.low];
      if (heads === undefined) continue;
      heads.push(next);
      touched.add(heads);
    }
    for (const heads of touched) heads.sort(withinSeq);
  }
}
