/**
 * A dropped range in words. A record that summarizes history the ledger never held (an agent's compaction at the start
 * of a transcript) covers no message: its range is empty (`toSeq < fromSeq`), and `seq 0--1 (bytes 0-0)` said nothing.
 */
import type { DroppedRange } from '../types.js';

/** Whether a range covers no stored message. */
export function isEmptyRange(range: Pick<DroppedRange, 'fromSeq' | 'toSeq'>): boolean {
  return range.toSeq < range.fromSeq;
}

/**
 * `seq 3-41 (bytes 120-18233)`; without `bytes`, `seq 3-41`. An empty range: `no stored message (history from before
 * this ledger began)`, or `… (history before seq N that this ledger never held)` when it starts later.
 */
export function droppedRangeWords(range: DroppedRange, options: { readonly bytes?: boolean } = {}): string {
  const { fromSeq, toSeq, byteStart, byteEnd } = range;
  if (isEmptyRange(range))
    return fromSeq === 0
      ? 'no stored message (history from before this ledger began)'
      : `no stored message (history before seq ${fromSeq} that this ledger never held)`;
  return options.bytes === false
    ? `seq ${fromSeq}-${toSeq}`
    : `seq ${fromSeq}-${toSeq} (bytes ${byteStart}-${byteEnd})`;
}

/**
 * What a view says beside a range that covers no stored message (its range shown as null): the range in words and
 * that nothing of it can be read back. One sentence for every view (MCP, CLI, audit).
 */
export function preLedgerSentence(range: Pick<DroppedRange, 'fromSeq' | 'toSeq'>): string {
  return (
    `It covers ${droppedRangeWords({ ...range, byteStart: 0, byteEnd: 0 })}: ` +
    'its originals were never stored, so none can be expanded or recalled verbatim.'
  );
}

/** A range as JSON shows it: the range itself, or null with `preLedger` saying why when it covers no stored message. */
export function rangeJson<R extends Pick<DroppedRange, 'fromSeq' | 'toSeq'>>(
  range: R,
): { readonly range: R | null; readonly preLedger?: string } {
  return isEmptyRange(range) ? { range: null, preLedger: preLedgerSentence(range) } : { range };
}
