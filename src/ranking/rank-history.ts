/**
 * What a session keeps of its recent history for the handle ranking, so a compaction does not
 * re-read the `HISTORY_LOOKBACK_SEQS` seqs before its region (nor the window's handles) from the
 * store each time: the stored handle rows of a contiguous stretch of seqs, each seq read once, and
 * the part of each compacted span the ranking looks at. Memory is bounded by the window plus the
 * lookback, not by the session: `forget` drops what no later compaction can ask for.
 */
import { mergeHandles } from '../handles/handle-sets.js';
import { buildHandle, orderEntryHandles } from '../stores/store-input.js';
import type { AppendEntry, LedgerStore } from '../stores/store.js';
import type { Handle, SpanOccurrence } from '../types.js';
import type { EvidenceTallies, RankSpan } from './rank-evidence.js';
import { DistinctStretch } from './distinct-stretch.js';
import { HandleTraitMemo } from './handle-traits.js';
import type { HandleTraits } from './handle-traits.js';
import { RankSeed } from './rank-seed.js';
import { identityOf } from '../model/identities.js';
import { SlidingTally } from './sliding-tally.js';

/** How far back (in seqs before the region) the ranking reads the session's handle occurrences. */
export const HISTORY_LOOKBACK_SEQS = 1000;

/** One compacted occurrence as the ranking sees it (a span's text is kept only where the ranking reads it). */
export interface HistoryOccurrence {
  readonly seq: number;
  readonly spanId: string;
  readonly span: RankSpan;
}

/** The occurrences and handle rows of the seqs before a region, oldest first. */
export interface RankHistoryRange {
  readonly occurrences: readonly HistoryOccurrence[];
  readonly handles: readonly Handle[];
}

/** The lookback range of a region starting at `regionFrom`, or undefined when there is none. */
export function lookbackRange(
  regionFrom: number,
  lookback = HISTORY_LOOKBACK_SEQS,
): { fromSeq: number; toSeq: number } | undefined {
  const fromSeq = Math.max(0, regionFrom - lookback);
  return regionFrom <= fromSeq ? undefined : { fromSeq, toSeq: regionFrom - 1 };
}

/**
 * The ranking's view of a span: only a tool call's text is read by the ranking (its command and
 * the files it changes), so every other span is kept without its text.
 */
export function rankSpanOf(occurrence: Pick<SpanOccurrence, 'span'>): RankSpan {
  const { kind, toolName, text, tokens } = occurrence.span;
  return { kind, toolName, tokens, text: kind === 'tool-call' ? text : '' };
}

/** A compacted occurrence as the ranking keeps it. */
export function historyOccurrence(occurrence: SpanOccurrence): HistoryOccurrence {
  return { seq: occurrence.seq, spanId: occurrence.spanId, span: rankSpanOf(occurrence) };
}

/** Values of a contiguous stretch of seqs `[low, low + values.length)`. */
class SeqStretch<T> {
  private low = 0;
  private values: T[] = [];

  /** The values of `[fromSeq, toSeq]` when all are held, else undefined. */
  get(fromSeq: number, toSeq: number): T[] | undefined {
    if (fromSeq < this.low || toSeq >= this.low + this.values.length) return undefined;
    return this.values.slice(fromSeq - this.low, toSeq - this.low + 1);
  }

  /** First seq after the stretch (where an append continues it). */
  get end(): number {
    return this.low + this.values.length;
  }

  /** Whether nothing is held. */
  get empty(): boolean {
    return this.values.length === 0;
  }

  /** Whether `seq` is held. */
  has(seq: number): boolean {
    return seq >= this.low && seq < this.end;
  }

  /** First seq held (meaningful when something is held). */
  get start(): number {
    return this.low;
  }

  /**
   * Put the values of `[fromSeq, fromSeq + values.length)`, over what is held there. A stretch that
   * neither overlaps nor touches the held one replaces it (only a contiguous stretch is held).
   */
  put(fromSeq: number, values: readonly T[]): void {
    if (values.length === 0) return;
    const putEnd = fromSeq + values.length;
    if (this.values.length > 0 && fromSeq === this.end) {
      // Continued at its end (an append): pushed in place, not copied with what is held.
      for (const value of values) this.values.push(value);
      return;
    }
    if (this.values.length === 0 || fromSeq > this.end || putEnd < this.low) {
      this.low = fromSeq;
      this.values = [...values];
      return;
    }
    const before = fromSeq > this.low ? this.values.slice(0, fromSeq - this.low) : [];
    const after = putEnd < this.end ? this.values.slice(putEnd - this.low) : [];
    this.values = [...before, ...values, ...after];
    this.low = Math.min(this.low, fromSeq);
  }

  /** Drop the values of seqs before `seq`. */
  forget(seq: number): void {
    if (seq <= this.low) return;
    this.values = seq >= this.end ? [] : this.values.slice(seq - this.low);
    this.low = seq;
  }
}

/** Group handle rows of `[fromSeq, toSeq]` (ordered by seq, as every store returns them) by seq. */
function bySeq(handles: readonly Handle[], fromSeq: number, toSeq: number): Handle[][] {
  const groups: Handle[][] = Array.from({ length: toSeq - fromSeq + 1 }, () => []);
  for (const handle of handles) groups[handle.seq - fromSeq]?.push(handle);
  return groups;
}

/** See the module comment. One per session (single writer); handle rows and spans are immutable once stored. */
export class RankHistory {
  private readonly handleRows = new SeqStretch<readonly Handle[]>();
  private readonly spans = new SeqStretch<HistoryOccurrence>();
  /** The last `before` answer (a refill plan and the compaction after it ask for the same lookback; rows are immutable). */
  private lastBefore: { readonly regionFrom: number; readonly range: RankHistoryRange } | undefined;
  /** The lookback's handles, each identity once, moved forward with each compaction. */
  private readonly distinct = new DistinctStretch();
  /** The ranking's tallies of the last compaction's lookback and region, moved forward with the next one. */
  private sliding: SlidingTally | undefined;
  /** What each handle's own kind, text and role say of it for the ranking (`handleTraits`), kept while it lives. */
  readonly traits = new HandleTraitMemo();
  /** Where each handle stood in the last compaction's ranking (the next one's sort starts from that order). */
  readonly rankSeed = new RankSeed();

  constructor(
    private readonly store: LedgerStore,
    private readonly sessionId: string,
    private readonly lookback = HISTORY_LOOKBACK_SEQS,
  ) {}

  /** The stored handle rows of `[fromSeq, toSeq]`, in store order; only the seqs not held yet are read. */
  async handles(fromSeq: number, toSeq: number): Promise<Handle[]> {
    return (await this.rowsBySeq(fromSeq, toSeq)).flat();
  }

  /** `handles(fromSeq, toSeq)` grouped by seq (one list per seq, in order), not yet joined into one list. */
  private async rowsBySeq(fromSeq: number, toSeq: number): Promise<(readonly Handle[])[]> {
    if (toSeq < fromSeq) return [];
    let held = this.handleRows.get(fromSeq, toSeq);
    if (!held) {
      // Read only the part not held: the tail after the held stretch, or the head before it.
      let readFrom = fromSeq;
      let readTo = toSeq;
      if (this.handleRows.has(fromSeq)) readFrom = this.handleRows.end;
      else if (this.handleRows.has(toSeq)) readTo = this.handleRows.start - 1;
      const rows = await this.store.handles(this.sessionId, { fromSeq: readFrom, toSeq: readTo });
      this.handleRows.put(readFrom, bySeq(rows, readFrom, readTo));
      held = this.handleRows.get(fromSeq, toSeq) ?? bySeq(rows, fromSeq, toSeq);
    }
    return held;
  }

  /**
   * The session appended `entries` at seqs `fromSeq`, `fromSeq + 1`, …: their handle rows, as the store gives them
   * back (each entry's handles in store order, `buildHandle` at its seq), are held when they continue the held
   * stretch (or nothing is held), so the compaction of those seqs does not read them back. Else they are read when
   * asked, as before.
   */
  appended(fromSeq: number, entries: readonly AppendEntry[]): void {
    if (entries.length === 0 || (!this.handleRows.empty && this.handleRows.end !== fromSeq)) return;
    this.handleRows.put(
      fromSeq,
      entries.map((entry, index) =>
        orderEntryHandles(entry.handles).map((handle) => buildHandle(handle, fromSeq + index)),
      ),
    );
  }

  /** The occurrences and handle rows of the lookback range before a region starting at `regionFrom`. */
  async before(regionFrom: number): Promise<RankHistoryRange> {
    if (this.lastBefore?.regionFrom === regionFrom) return this.lastBefore.range;
    const range = lookbackRange(regionFrom, this.lookback);
    if (!range) return { occurrences: [], handles: [] };
    const { fromSeq, toSeq } = range;
    let occurrences = this.spans.get(fromSeq, toSeq);
    if (!occurrences) {
      const read = await this.store.occurrences(this.sessionId, range);
      occurrences = read.map(historyOccurrence);
      // A session's occurrences are gapless; a short read (not expected) is used as it is, not held.
      if (occurrences.length === toSeq - fromSeq + 1) this.spans.put(fromSeq, occurrences);
    }
    const groups = await this.rowsBySeq(fromSeq, toSeq);
    // Joined into one list only when read: a compaction whose tallies are kept never reads it.
    let handles: Handle[] | undefined;
    const answer: RankHistoryRange = {
      occurrences,
      get handles() {
        handles ??= groups.flat();
        return handles;
      },
    };
    this.lastBefore = { regionFrom, range: answer };
    return answer;
  }

  /**
   * The ranking's tallies of the handle rows of a region (the originals about to be compacted, gapless) and its
   * lookback — what `tallyOccurrences` would count over them — kept from one compaction to the next. Call after
   * `before(regionFrom)` and `handles(region)`; undefined when those rows are not all held, or when the tallies must
   * be counted over all rows at once (see `SlidingTally`).
   */
  tallies(region: readonly SpanOccurrence[], bulkyTokens: number): EvidenceTallies | undefined {
    const first = region[0];
    const last = region[region.length - 1];
    if (first === undefined || last === undefined || last.seq - first.seq !== region.length - 1) return undefined;
    const fromSeq = lookbackRange(first.seq, this.lookback)?.fromSeq ?? first.seq;
    if (this.sliding?.bulkyTokens !== bulkyTokens) this.sliding = new SlidingTally(bulkyTokens);
    const moved = this.sliding.moveTo(fromSeq, last.seq, (seq) => {
      const rows = this.handleRows.get(seq, seq)?.[0];
      const occurrence = seq >= first.seq ? region[seq - first.seq] : this.spans.get(seq, seq)?.[0];
      if (rows === undefined || occurrence === undefined) return undefined;
      const span = seq >= first.seq ? rankSpanOf(occurrence as SpanOccurrence) : (occurrence as HistoryOccurrence).span;
      return { spanId: occurrence.spanId, span, rows };
    });
    return moved ? this.sliding.tallies() : undefined;
  }

  /**
   * The handles of the lookback before `regionFrom`, each identity once (`mergeHandles`: its earliest occurrence),
   * oldest first: the spilled handles a compaction there lets compete for the index again.
   */
  async distinctBefore(regionFrom: number): Promise<readonly Handle[]> {
    const before = await this.before(regionFrom);
    const range = lookbackRange(regionFrom, this.lookback);
    if (!range) return [];
    const moved = this.distinct.moveTo(range.fromSeq, range.toSeq, (seq) => this.handleRows.get(seq, seq)?.[0]);
    return moved ? this.distinct.handles() : mergeHandles(before.handles);
  }

  /** The identities (`identityOf`) of a `distinctBefore` answer, in its order (kept with it, not looked up again). */
  distinctIdentities(handles: readonly Handle[]): readonly string[] {
    return handles === this.distinct.handles() ? this.distinct.identities() : handles.map(identityOf);
  }

  /** The traits (`handleTraits`) of a `distinctBefore` answer, in its order (kept with it, not computed again). */
  distinctTraits(handles: readonly Handle[]): readonly HandleTraits[] {
    return handles === this.distinct.handles()
      ? this.distinct.traits()
      : handles.map((handle) => this.traits.of(handle));
  }

  /** A region was compacted: hold its spans for the ranking of later compactions, and forget what falls out of reach. */
  compacted(region: readonly SpanOccurrence[]): void {
    const first = region[0];
    const last = region[region.length - 1];
    if (first === undefined || last === undefined) return;
    this.spans.put(first.seq, region.map(historyOccurrence));
    this.forgetBefore(last.seq + 1);
  }

  /** The window now starts at `windowStart`: forget what no later compaction's lookback reaches. */
  forgetBefore(windowStart: number): void {
    const keepFrom = lookbackRange(windowStart, this.lookback)?.fromSeq ?? windowStart;
    this.handleRows.forget(keepFrom);
    this.spans.forget(keepFrom);
  }
}
