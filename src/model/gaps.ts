import type { CompactionRecord, DroppedRange } from '../types.js';

/** A known loss: a lossy record (or a transcript line never ingested), what it dropped, and how to get it back if possible. */
export interface Gap {
  /** The lossy record; for an `ingest` gap, the span id of the ledger's note about the line. */
  readonly recordId: string;
  /** The record's type, or `ingest` for a transcript line the ledger could not ingest (see `ingest-gaps.ts`). */
  readonly type: CompactionRecord['type'] | 'ingest';
  /** Its depth. */
  readonly depth: number;
  /** What it dropped from the window. */
  readonly droppedRange: DroppedRange;
  /** Whether the originals of the range are in the store (a re-read is possible). */
  readonly originalsStored: boolean;
  /** Why the record is lossy (its findings). */
  readonly reasons: readonly string[];
  /** What to do about it. */
  readonly reread: string;
}

/** The gap a lossy record stands for, or undefined for a reversible one. */
export function gapOf(record: CompactionRecord): Gap | undefined {
  if (record.reversible || record.type === 'checkpoint') return undefined;
  const originalsStored = !record.findings.some((finding) => finding.code === 'missing-originals');
  const { fromSeq, toSeq, byteStart, byteEnd } = record.droppedRange;
  return {
    recordId: record.id,
    type: record.type,
    depth: record.depth,
    droppedRange: record.droppedRange,
    originalsStored,
    reasons: record.findings.map((finding) => finding.message),
    // An empty range (history from before the ledger began) has no originals to recall, whatever the findings say.
    reread:
      toSeq < fromSeq
        ? 'it summarizes history from before this ledger began, and those originals were never stored: ' +
          'ask the user or re-read the original source; do not reconstruct the detail from memory'
        : originalsStored
          ? // Recall already searched them: sending the model back to recall would be a circle (issue 38).
            `the originals of seq ${fromSeq}-${toSeq} (bytes ${byteStart}-${byteEnd}) are stored, but no handle of them ` +
            `matches: read them verbatim with expand on record ${record.id} or grep them for another spelling, ` +
            'or ask the user; do not reconstruct the detail from memory'
          : `the originals of this range are not in the ledger: re-read bytes ${byteStart}-${byteEnd} of the source transcript, ` +
            'or ask the user; do not reconstruct the detail from memory',
  };
}

/** Gaps of all lossy records, oldest first. */
export function gapsOf(records: readonly CompactionRecord[]): Gap[] {
  return records.map(gapOf).filter((gap): gap is Gap => gap !== undefined);
}

/**
 * The gaps worth listing in the window: those whose facts cannot be recovered from the store.
 * A lossy record whose originals are all stored (an agent's own summary of turns the ledger
 * holds, a summary that altered a handle) loses nothing recall cannot give back verbatim, so it
 * is not listed; recall still reports it as a `gap` when a query resolves to nothing verified.
 */
export function unrecoverableGaps(gaps: readonly Gap[]): Gap[] {
  return gaps.filter((gap) => !gap.originalsStored);
}
