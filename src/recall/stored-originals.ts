/**
 * Whether the originals behind an external summary are all in the store (ARCHITECTURE invariant 8): every seq of its
 * dropped range has a stored occurrence whose span hash checks. The Claude Code and Codex hooks ingest every turn
 * before the agent compacts, so the range of the summary they import is covered; a summary of history from before the
 * ledger began (an empty range), or a range with a missing or altered span, is not.
 */
import type { LedgerStore } from '../stores/store.js';
import type { CompactionRecord } from '../types.js';
import { verifySpan } from '../model/span.js';

/** Seqs read per page while checking a range. */
const CHECK_PAGE_SEQS = 2000;

/** One seq range, both ends included. */
interface SeqRange {
  readonly fromSeq: number;
  readonly toSeq: number;
}

/** The ranges merged where they overlap or touch, in seq order (the cumulative ranges of records overlap). */
function merged(ranges: readonly SeqRange[]): SeqRange[] {
  const sorted = [...ranges].sort((a, b) => a.fromSeq - b.fromSeq);
  const out: SeqRange[] = [];
  for (const range of sorted) {
    const last = out[out.length - 1];
    if (last && range.fromSeq <= last.toSeq + 1)
      out[out.length - 1] = { ...last, toSeq: Math.max(last.toSeq, range.toSeq) };
    else out.push(range);
  }
  return out;
}

/** Whether every seq of `range` has a stored original whose hash checks (read a page at a time). */
async function rangeStored(store: LedgerStore, sessionId: string, range: SeqRange): Promise<boolean> {
  for (let fromSeq = range.fromSeq; fromSeq <= range.toSeq; fromSeq += CHECK_PAGE_SEQS) {
    const toSeq = Math.min(range.toSeq, fromSeq + CHECK_PAGE_SEQS - 1);
    const page = await store.occurrences(sessionId, { fromSeq, toSeq });
    if (page.length !== toSeq - fromSeq + 1) return false;
    if (page.some((occurrence, index) => occurrence.seq !== fromSeq + index || !verifySpan(occurrence.span)))
      return false;
  }
  return true;
}

/**
 * The external records of `records` whose originals are all stored and check: a miss behind them is a miss, not a
 * gap. A record that says its originals are missing, or whose range is empty (history from before the ledger began),
 * is never among them. Each seq is read once, however many records cover it.
 */
export async function externalRecordsWithStoredOriginals(
  store: LedgerStore,
  sessionId: string,
  records: readonly CompactionRecord[],
): Promise<Set<string>> {
  const candidates = records.filter(
    (record) =>
      record.type === 'external' &&
      !record.reversible &&
      record.droppedRange.toSeq >= record.droppedRange.fromSeq &&
      record.droppedRange.fromSeq >= 0 &&
      !record.findings.some((finding) => finding.code === 'missing-originals'),
  );
  const missing: SeqRange[] = [];
  for (const range of merged(candidates.map((record) => record.droppedRange)))
    if (!(await rangeStored(store, sessionId, range))) missing.push(range);
  const inMissing = (record: CompactionRecord) =>
    missing.some((range) => record.droppedRange.fromSeq <= range.toSeq && record.droppedRange.toSeq >= range.fromSeq);
  return new Set(candidates.filter((record) => !inMissing(record)).map((record) => record.id));
}
