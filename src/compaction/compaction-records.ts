import type {
  Claim,
  CompactionRecord,
  DroppedRange,
  Finding,
  Handle,
  SpanOccurrence,
  SupersededValue,
} from '../types.js';
import { UNRESOLVED_SPAN } from '../types.js';
import { identityOf } from '../model/identities.js';
import { recordId } from '../model/record-id.js';
import { vouchRecord } from '../stores/vouched-records.js';
import type { CompactionInput, CompactionOutput } from './compaction-input.js';

/** What a compaction decided, ready to become its records. */
export interface CompactionOutcome {
  /** The summary and its claims as fitted to the summary budget, and its token count. */
  readonly summary: { readonly summary: string; readonly claims: Claim[]; readonly tokens: number };
  readonly kept: readonly Handle[];
  readonly spilled: readonly Handle[];
  readonly findings: Finding[];
  readonly reversible: boolean;
  readonly rederived: boolean;
  /** The spilled handles a later binding replaced, with what replaced them (empty: the record has no such field). */
  readonly superseded: readonly SupersededValue[];
}

/**
 * The handles of `spilled` that a later binding replaced, each with the handle that replaced it (`replacedBy`), both
 * verbatim, in order of seq, without repeats. A handle a budget spilled is not listed. Empty when none was replaced.
 */
export function supersededValues(
  spilled: readonly Handle[],
  replacedBy: ReadonlyMap<Handle, Handle>,
): SupersededValue[] {
  if (replacedBy.size === 0) return [];
  const values = new Map<string, SupersededValue & { readonly start: number }>();
  for (const handle of spilled) {
    const by = replacedBy.get(handle);
    // A handle only an external summary holds (no stored original, seq -1) has no seq to name, as the old value or
    // as the new one: recall finds it in that record's summary, never as a superseded original.
    if (by === undefined || handle.spanId === UNRESOLVED_SPAN || by.spanId === UNRESOLVED_SPAN) continue;
    const value = { handle: handle.text, seq: handle.seq, by: by.text, bySpan: by.spanId, bySeq: by.seq };
    const key = JSON.stringify(value);
    if (!values.has(key)) values.set(key, { ...value, start: handle.start });
  }
  return [...values.values()]
    .sort((a, b) => a.seq - b.seq || a.start - b.start || a.bySeq - b.bySeq)
    .map(({ handle, seq, by, bySpan, bySeq }) => ({ handle, seq, by, bySpan, bySeq }));
}

/** The range a record replaces: the absorbed record's range (when it had one) through the region's last original. */
export function droppedRangeOf(
  active: CompactionRecord | undefined,
  first: SpanOccurrence,
  last: SpanOccurrence,
): DroppedRange {
  const previous = active?.droppedRange;
  return {
    fromSeq: previous && previous.toSeq >= previous.fromSeq ? previous.fromSeq : first.seq,
    toSeq: last.seq,
    byteStart: previous && previous.byteEnd > previous.byteStart ? previous.byteStart : first.byteStart,
    byteEnd: last.byteEnd,
  };
}

/** The spill checkpoint for `spilled` (one left by an interrupted compaction is reused as it was). */
function checkpointRecord(
  input: CompactionInput,
  spilled: readonly Handle[],
  droppedRange: DroppedRange,
  ordinal: number,
  createdAt: string,
): { checkpoint: CompactionRecord; reused: boolean } {
  const { sessionId } = input;
  const content = { sessionId, type: 'checkpoint', handles: spilled.map(identityOf), droppedRange };
  const id = recordId('chk', content);
  const reused = input.findRecord?.(id);
  if (reused) return { checkpoint: reused, reused: true };
  const checkpoint = vouchRecord({
    id,
    sessionId,
    ordinal,
    type: 'checkpoint',
    summary: '',
    claims: [],
    handles: [...spilled],
    reversible: true,
    depth: 0,
    droppedRange,
    ancestors: input.activeCheckpoint ? [input.activeCheckpoint.id] : [],
    rederived: false,
    summarizer: { name: 'checkpoint', version: '1' },
    findings: [],
    summaryTokens: 0,
    atSeq: input.atSeq,
    createdAt,
  });
  return { checkpoint, reused: false };
}

/** Build the summary record (and its checkpoint when handles spilled) and write them, the checkpoint first. */
export async function writeCompaction(
  input: CompactionInput,
  outcome: CompactionOutcome,
  droppedRange: DroppedRange,
): Promise<CompactionOutput> {
  const { store, sessionId, active } = input;
  const createdAt = (input.now ?? (() => new Date()))().toISOString();
  let ordinal = input.nextOrdinal;
  const spill =
    outcome.spilled.length > 0 ? checkpointRecord(input, outcome.spilled, droppedRange, ordinal, createdAt) : undefined;
  // A checkpoint reused (stored by a compaction killed before its summary) keeps its ordinal and takes none: the summary
  // takes the next, the one the uninterrupted compaction gave it, so it gets the same id.
  if (spill?.reused === false) ordinal++;
  const checkpoint = spill?.checkpoint;
  const depth = outcome.rederived || active === undefined ? 1 : active.depth + 1;
  const checkpointId = checkpoint?.id ?? input.activeCheckpoint?.id;
  const body = {
    sessionId,
    type: 'summary' as const,
    summary: outcome.summary.summary,
    claims: outcome.summary.claims,
    handles: outcome.kept,
    reversible: outcome.reversible,
    depth,
    droppedRange,
    ancestors: active ? [active.id] : [],
    // Left out when there is none (as its JSON leaves it out): the record is its own JSON-safe copy (`vouchRecord`).
    ...(checkpointId === undefined ? {} : { checkpointId }),
    rederived: outcome.rederived,
    // A copy: the record is frozen whole, and the summarizer's own object stays as it was.
    summarizer: { ...input.summarizer.identity },
    findings: outcome.findings,
    // Left out when empty: the record (and its id) of a compaction that replaced nothing is unchanged.
    ...(outcome.superseded.length > 0 ? { superseded: outcome.superseded } : {}),
  };
  // Hashed here once: the store takes the frozen record as it is (`vouchRecord`), without hashing it again.
  const record = vouchRecord({
    id: recordId('rec', { ...body, ordinal }),
    ordinal,
    ...body,
    summaryTokens: outcome.summary.tokens,
    atSeq: input.atSeq,
    createdAt,
  });
  if (checkpoint && spill?.reused === false) await store.writeRecord(checkpoint);
  await store.writeRecord(record);
  return { record, checkpoint, checkpointWritten: spill?.reused === false };
}
