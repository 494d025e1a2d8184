/**
 * What one compaction record kept of the handles before it, and of the handles the agent
 * needed after it: in the window, in its checkpoint, or one recall away.
 */
import type { LedgerSession } from '../session/session.js';
import type { CompactionRecord } from '../types.js';
import { droppedRangeWords, rangeJson } from '../text/range-wording.js';
import { containsEntry, countByKind, entriesOf, handleIdentityKey } from './handle-sets.js';
import type { HandleEntry } from './handle-sets.js';
import type { Timeline } from './timeline.js';
import type { GenerationAudit, HandleSource, LedgerRecallStatus } from './types.js';

/** A record and where it keeps handles. */
export interface Keeper {
  /** The record in the window. */
  readonly record: CompactionRecord;
  /** Its checkpoint (outside the window). */
  readonly checkpoint?: CompactionRecord | undefined;
  /** A session to recall from; without one, nothing outside the window is reachable. */
  readonly recallFrom?: LedgerSession | undefined;
  /** Recall answers already known for this session, by query text (filled in as it goes). */
  readonly recallCache?: Map<string, LedgerRecallStatus> | undefined;
  /** Judge by the summary prose alone (an agent's summary: verbatim containment is the only test). */
  readonly summaryOnly?: boolean | undefined;
}

/** What a keeper did with one handle. */
export interface Verdict {
  /** The handle. */
  readonly entry: HandleEntry;
  /** In the record's handle set or its summary prose. */
  readonly inWindow: boolean;
  /** In its checkpoint. */
  readonly inCheckpoint: boolean;
  /** Recall status, when the keeper can recall. */
  readonly recall: LedgerRecallStatus | undefined;
}

/** Distinct handles at seq < `boundarySeq`. */
export function entriesBefore(timeline: Timeline, boundarySeq: number): Map<string, HandleEntry> {
  return entriesOf(timeline.handles.filter((handle) => handle.seq < boundarySeq));
}

/** Entries of `before` the agent used at seq in [fromSeq, toSeq), by first appearance. */
export function futureNeeded(
  timeline: Timeline,
  before: ReadonlyMap<string, HandleEntry>,
  fromSeq: number,
  toSeq: number,
): HandleEntry[] {
  const needed = new Map<string, HandleEntry>();
  for (const use of timeline.uses) {
    if (use.seq < fromSeq || use.seq >= toSeq) continue;
    for (const identity of use.identities) {
      const entry = before.get(identity);
      if (entry && !needed.has(identity)) needed.set(identity, entry);
    }
  }
  return [...needed.values()].sort((a, b) => a.first.seq - b.first.seq || a.first.start - b.first.start);
}

/** A function telling whether a keeper holds an entry in its window / checkpoint. */
export function holder(keeper: Keeper): {
  inWindow(entry: HandleEntry): boolean;
  inCheckpoint(entry: HandleEntry): boolean;
} {
  const windowSet = new Set(keeper.summaryOnly ? [] : keeper.record.handles.map(handleIdentityKey));
  const checkpointSet = new Set((keeper.checkpoint?.handles ?? []).map(handleIdentityKey));
  return {
    inWindow: (entry) => windowSet.has(entry.identity) || containsEntry(keeper.record.summary, entry),
    inCheckpoint: (entry) => checkpointSet.has(entry.identity),
  };
}

/** Judge each entry against a keeper; with a `recallFrom` session, every entry is also recalled by its text. */
export async function judge(keeper: Keeper, entries: readonly HandleEntry[]): Promise<Verdict[]> {
  const holds = holder(keeper);
  const verdicts: Verdict[] = [];
  for (const entry of entries) {
    let recalled = keeper.recallCache?.get(entry.first.text);
    if (recalled === undefined && keeper.recallFrom) {
      recalled = (await keeper.recallFrom.recall(entry.first.text)).status;
      keeper.recallCache?.set(entry.first.text, recalled);
    }
    verdicts.push({
      entry,
      inWindow: holds.inWindow(entry),
      inCheckpoint: holds.inCheckpoint(entry),
      recall: recalled,
    });
  }
  return verdicts;
}

/** True when a verdict is reachable: in the window, in the checkpoint, or recall-verified. */
export function reachable(verdict: Verdict): boolean {
  return verdict.inWindow || verdict.inCheckpoint || verdict.recall === 'verified';
}

/** A handle's source, for the report. */
export function sourceOf(timeline: Timeline, entry: HandleEntry): HandleSource {
  const { first } = entry;
  return {
    kind: first.kind,
    text: first.text,
    firstSeq: first.seq,
    firstLabel: timeline.occurrences[first.seq]?.label ?? null,
    role: first.role,
  };
}

/** Inputs of {@link generationAudit}. */
export interface GenerationInput {
  readonly generation: number;
  readonly writer: GenerationAudit['writer'];
  readonly keeper: Keeper;
  /** Tokens it occupies in the window. */
  readonly tokens: number;
  /** Distinct handles before it. */
  readonly before: ReadonlyMap<string, HandleEntry>;
  /** Verdicts on the future-needed handles. */
  readonly verdicts: readonly Verdict[];
}

/** One generation of the lineage. */
export function generationAudit(timeline: Timeline, input: GenerationInput): GenerationAudit {
  const { record, checkpoint } = input.keeper;
  const holds = holder(input.keeper);
  const before = [...input.before.values()];
  const { range, ...preLedger } = rangeJson(record.droppedRange);
  return {
    generation: input.generation,
    writer: input.writer,
    recordId: record.id,
    depth: record.depth,
    reversible: record.reversible,
    ancestors: [...record.ancestors],
    fromSeq: range?.fromSeq ?? null,
    toSeq: range?.toSeq ?? null,
    range: droppedRangeWords(record.droppedRange, { bytes: false }),
    ...preLedger,
    tokens: input.tokens,
    handlesBefore: countByKind(before),
    keptInWindow: countByKind(before.filter(holds.inWindow)),
    keptInCheckpoint: checkpoint
      ? countByKind(before.filter((entry) => !holds.inWindow(entry) && holds.inCheckpoint(entry)))
      : {},
    futureNeeded: input.verdicts.length,
    futureNeededInWindow: input.verdicts.filter((verdict) => verdict.inWindow).length,
    futureNeededReachable: input.verdicts.filter(reachable).length,
    lost: input.verdicts.filter((verdict) => !verdict.inWindow).map((verdict) => sourceOf(timeline, verdict.entry)),
    ...(record.superseded === undefined ? {} : { superseded: record.superseded.map((value) => ({ ...value })) }),
  };
}
