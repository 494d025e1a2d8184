/**
 * Building the record of a summary another tool wrote (`LedgerSession.importExternalSummary`, or a ledger block of
 * another session appended here): the range it covers is checked against what the session appended, the covered
 * spans and their handles are read from the store, and `externalRecord` builds the record.
 */
import { externalRecord } from '../compaction/external-record.js';
import type { ExternalRecordInput } from '../compaction/external-record.js';
import type { TokenMemo } from '../handles/token-memo.js';
import { InvalidInputError } from '../errors.js';
import type { LedgerStore } from '../stores/store.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord } from '../types.js';
import type { ExternalSummaryInput } from './session-options.js';

/** What building an external record reads of the session. */
export interface ExternalImportContext {
  readonly sessionId: string;
  readonly store: LedgerStore;
  readonly counter: TokenCounter;
  /** The summary or external record in the window, if any. */
  readonly active: CompactionRecord | undefined;
  /** The new record's ordinal: one past the highest the session stored. */
  readonly ordinal: number;
  /** The seq the next appended span gets. */
  readonly nextSeq: number;
  /** The clock (read when the record is built). */
  readonly now: () => Date;
  /** The session's memo of token classifications (`token-memo.ts`). */
  readonly tokenMemo?: TokenMemo | undefined;
}

/** The first seq a record's summary stands for, its ancestors' ranges included. */
function cumulativeStart(record: CompactionRecord): number {
  const { fromSeq, toSeq } = record.droppedRange;
  return toSeq >= fromSeq ? fromSeq : toSeq + 1;
}

/**
 * The external record for `input` (`reingested`: see `ExternalRecordInput`), not yet written. Throws
 * InvalidInputError when its range does not cover appended spans.
 */
export async function buildExternalRecord(
  context: ExternalImportContext,
  input: ExternalSummaryInput,
  reingested?: ExternalRecordInput['reingested'],
): Promise<CompactionRecord> {
  const { sessionId, store, active, nextSeq } = context;
  // Like a ledger record, an external one covers the history its ancestor covered as well: an agent's summary
  // written right after a ledger compaction covers no new span, and its re-derivation must still reach the
  // stored originals of everything before it.
  const fromSeq = input.fromSeq ?? (active ? cumulativeStart(active) : 0);
  const toSeq = input.toSeq ?? nextSeq - 1;
  if (toSeq >= nextSeq || (toSeq >= 0 && fromSeq > toSeq + 1)) {
    throw new InvalidInputError(
      `Session ${sessionId}: an external summary must cover appended spans (got seq ${fromSeq}-${toSeq}, next seq is ${nextSeq})`,
      { sessionId, fromSeq, toSeq },
    );
  }
  const covered = toSeq >= fromSeq ? await store.occurrences(sessionId, { fromSeq, toSeq }) : [];
  const regionHandles = toSeq >= fromSeq ? await store.handles(sessionId, { fromSeq, toSeq }) : [];
  return externalRecord({
    sessionId,
    summary: input.summary,
    summarizer: input.summarizer,
    fromSeq,
    toSeq,
    covered,
    regionHandles,
    active,
    ordinal: context.ordinal,
    atSeq: nextSeq,
    counter: context.counter,
    createdAt: context.now().toISOString(),
    reingested,
    tokenMemo: context.tokenMemo,
  });
}
