/**
 * The ranking's tallies (`Tally`, see `rank-handles.ts`) of a stretch of seqs that only moves forward — a
 * compaction's lookback plus its region — kept as it moves: a seq entering adds its handle rows' marks, a seq
 * leaving takes them back (each mark is counted, so it can be), instead of tallying every occurrence of the
 * lookback again at each compaction. The tallies are the ones `tallyOccurrences` computes over the same rows,
 * except where a span counts as a spec: that sums the requirements of every occurrence of the span id in the
 * stretch, and here each seq judges its own span alone. The two agree unless a span id holding a requirement
 * occurs at two seqs of the stretch; then `tallies()` answers undefined and the caller tallies from scratch.
 */
import { identityOf } from '../model/identities.js';
import type { Handle } from '../types.js';
import { emptyTally, isRequirement, markOccurrence, SPEC_REQUIREMENTS } from './tally.js';
import type { EvidenceTallies, RankSpan, Tally } from './rank-evidence.js';

/** The boolean fields of a tally (the marks), counted per identity. */
type Mark = { [K in keyof Tally]: Tally[K] extends boolean ? K : never }[keyof Tally];

const TEMPLATE = emptyTally();
const MARKS = (Object.keys(TEMPLATE) as (keyof Tally)[]).filter(
  (key): key is Mark => typeof TEMPLATE[key] === 'boolean',
);
for (const key of Object.keys(TEMPLATE) as (keyof Tally)[])
  if (key !== 'spans' && key !== 'lastSeq' && typeof TEMPLATE[key] !== 'boolean')
    throw new Error(`sliding-tally: tally field ${key} is neither a mark nor counted here; teach SlidingTally it`);

/** One seq of the stretch: its span and handle rows. */
export interface TallySeq {
  readonly spanId: string;
  readonly span: RankSpan | undefined;
  readonly rows: readonly Handle[];
}

interface Totals {
  /** The identity's tally as `tallies()` answers it, kept up to date (its `spans`: seqs of the stretch that mention it). */
  readonly tally: Tally;
  /** Per mark (`MARKS` order), the seqs whose rows set it. */
  readonly marks: number[];
}

/** A seq of the stretch as it was counted in. */
interface HeldSeq {
  readonly spanId: string;
  readonly requirements: number;
  readonly marks: Map<string, Tally>;
}

interface SpanState {
  seqs: number;
  requirements: number;
}

/** See the module comment. */
export class SlidingTally {
  private low = 0;
  /** The seqs of the stretch, oldest first: each one's requirements and marks as counted in (taken back as they are). */
  private readonly held: HeldSeq[] = [];
  private readonly totals = new Map<string, Totals>();
  /** Each identity's `Totals.tally`: what `tallies()` answers, without building a map per compaction. */
  private readonly live = new Map<string, Tally>();
  private readonly spanStates = new Map<string, SpanState>();
  /** Span ids holding a requirement that occur at two or more seqs of the stretch. */
  private ambiguous = 0;

  constructor(readonly bulkyTokens: number) {}

  /** First seq after the stretch. */
  get end(): number {
    return this.low + this.held.length;
  }

  /**
   * Move the stretch to `[fromSeq, toSeq]`: the seqs it gains are read with `seqOf` (undefined: not known, then the
   * stretch is emptied and undefined returned). A stretch moving back starts again from empty.
   */
  moveTo(fromSeq: number, toSeq: number, seqOf: (seq: number) => TallySeq | undefined): boolean {
    if (fromSeq < this.low || toSeq < this.end - 1 || fromSeq >= this.end) this.clear(fromSeq);
    while (this.low < fromSeq) this.dropFirst();
    for (let seq = this.end; seq <= toSeq; seq++) {
      const entry = seqOf(seq);
      if (entry === undefined) {
        this.clear(fromSeq);
        return false;
      }
      this.push(seq, entry);
    }
    return true;
  }

  /**
   * The tallies of every identity of the stretch, or undefined when the spec rule needs the whole stretch at once.
   * The answer is a live view (not a copy, so a compaction costs nothing per identity of its lookback): it holds
   * until the stretch moves next.
   */
  tallies(): EvidenceTallies | undefined {
    if (this.ambiguous > 0) return undefined;
    return { bulkyTokens: this.bulkyTokens, byIdentity: this.live };
  }

  private clear(low: number): void {
    this.low = low;
    this.held.length = 0;
    this.totals.clear();
    this.live.clear();
    this.spanStates.clear();
    this.ambiguous = 0;
  }

  /** The marks of one seq per identity (its rows OR-ed), with its span judged a spec on its own rows. */
  private marksOf(entry: TallySeq): Map<string, Tally> {
    const spec = this.requirementsOf(entry) >= SPEC_REQUIREMENTS;
    const marks = new Map<string, Tally>();
    for (const row of entry.rows) {
      const identity = identityOf(row);
      let tally = marks.get(identity);
      if (tally === undefined) {
        tally = emptyTally();
        marks.set(identity, tally);
      }
      markOccurrence(tally, row, entry.span, spec, this.bulkyTokens);
    }
    return marks;
  }

  private requirementsOf(entry: TallySeq): number {
    let requirements = 0;
    for (const row of entry.rows) if (isRequirement(row)) requirements++;
    return requirements;
  }

  private isAmbiguous(state: SpanState | undefined): boolean {
    return state !== undefined && state.seqs >= 2 && state.requirements > 0;
  }

  private countSpan(entry: HeldSeq, sign: 1 | -1): void {
    const before = this.spanStates.get(entry.spanId);
    const state = before ?? { seqs: 0, requirements: 0 };
    const wasAmbiguous = this.isAmbiguous(before);
    state.seqs += sign;
    state.requirements += sign * entry.requirements;
    if (state.seqs === 0) this.spanStates.delete(entry.spanId);
    else this.spanStates.set(entry.spanId, state);
    this.ambiguous += (this.isAmbiguous(state.seqs === 0 ? undefined : state) ? 1 : 0) - (wasAmbiguous ? 1 : 0);
  }

  private push(seq: number, entry: TallySeq): void {
    const held: HeldSeq = {
      spanId: entry.spanId,
      requirements: this.requirementsOf(entry),
      marks: this.marksOf(entry),
    };
    this.held.push(held);
    this.countSpan(held, 1);
    for (const [identity, marks] of held.marks) {
      let totals = this.totals.get(identity);
      if (totals === undefined) {
        totals = { tally: emptyTally(), marks: MARKS.map(() => 0) };
        this.totals.set(identity, totals);
        this.live.set(identity, totals.tally);
      }
      const { tally } = totals;
      tally.spans++;
      tally.lastSeq = Math.max(tally.lastSeq, seq);
      MARKS.forEach((mark, index) => {
        if (!marks[mark]) return;
        totals.marks[index] = (totals.marks[index] ?? 0) + 1;
        tally[mark] = true;
      });
    }
  }

  private dropFirst(): void {
    const entry = this.held.shift();
    this.low++;
    if (entry === undefined) return;
    this.countSpan(entry, -1);
    // The marks it was counted in with (`marksOf` is a pure function of the entry: the same as counting them again).
    for (const [identity, marks] of entry.marks) {
      const totals = this.totals.get(identity);
      if (totals === undefined) continue;
      // Seqs leave oldest first, so an identity still mentioned keeps its latest seq.
      if (--totals.tally.spans === 0) {
        this.totals.delete(identity);
        this.live.delete(identity);
        continue;
      }
      MARKS.forEach((mark, index) => {
        if (!marks[mark]) return;
        const count = (totals.marks[index] ?? 0) - 1;
        totals.marks[index] = count;
        totals.tally[mark] = count > 0;
      });
    }
  }
}
