import { HandleMerger, mergeHandles } from '../handles/handle-sets.js';
import type { CompactionRecord, Handle } from '../types.js';

/**
 * Spill checkpoints form a chain: each holds only the handles spilled by its compaction and
 * names the previous checkpoint as its ancestor, so a compaction never rewrites the history
 * already spilled (its cost follows the window). The head's id is the one in the window.
 */
export function checkpointChain(records: readonly CompactionRecord[], headId: string | undefined): CompactionRecord[] {
  const byId = new Map(records.filter((record) => record.type === 'checkpoint').map((record) => [record.id, record]));
  const chain: CompactionRecord[] = [];
  const seen = new Set<string>();
  for (let id = headId; id !== undefined && !seen.has(id);) {
    const record = byId.get(id);
    if (!record) break;
    seen.add(id);
    chain.push(record);
    id = record.ancestors[0];
  }
  return chain;
}

/** The whole chain as one record (the head, with every spilled handle of the chain). */
export function mergedCheckpoint(
  records: readonly CompactionRecord[],
  headId: string | undefined,
): CompactionRecord | undefined {
  const chain = checkpointChain(records, headId);
  const head = chain[0];
  return head ? { ...head, handles: mergeHandles(...chain.map((record) => record.handles)) } : undefined;
}

/** What the window says about the spilled handles: the head id, how many, how many user constraints. */
export interface CheckpointSummary {
  /** Id of the chain's head (recall it to list every spilled handle). */
  readonly id: string;
  /** Spilled handles in the whole chain. */
  readonly count: number;
  /** Of them, constraints the user or system gave. */
  readonly userConstraints: number;
}

/** Summarize a checkpoint chain for the window. */
export function summarizeCheckpoint(
  records: readonly CompactionRecord[],
  headId: string | undefined,
): CheckpointSummary | undefined {
  const chain = checkpointChain(records, headId);
  const head = chain[0];
  if (!head) return undefined;
  let count = 0;
  let userConstraints = 0;
  for (const record of chain) {
    count += record.handles.length;
    for (const handle of record.handles)
      if (handle.kind === 'constraint' && (handle.role === 'user' || handle.role === 'system')) userConstraints++;
  }
  return { id: head.id, count, userConstraints };
}

/** Counts of one checkpoint record's own handles (not its ancestors'). */
function ownCounts(record: CompactionRecord): { count: number; userConstraints: number } {
  let userConstraints = 0;
  for (const handle of record.handles)
    if (handle.kind === 'constraint' && (handle.role === 'user' || handle.role === 'system')) userConstraints++;
  return { count: record.handles.length, userConstraints };
}

/** How many chain summaries {@link CheckpointChains} remembers (a few numbers each). */
export const SUMMARIES_KEPT = 64;

/**
 * The merged handles of the chain from `headId`, as `mergedCheckpoint` gives them, its records read one at a time
 * from the head down (`read`: from memory or from the store), so only the merged handles are held, never the
 * whole chain's records. Stops, like the other walks, at an id that is not a checkpoint or was seen already.
 */
export async function loadChainHandles(
  headId: string | undefined,
  read: (id: string) => CompactionRecord | undefined | Promise<CompactionRecord | undefined>,
): Promise<Handle[]> {
  const merger = new HandleMerger();
  const seen = new Set<string>();
  for (let id = headId; id !== undefined && !seen.has(id);) {
    const record = await read(id);
    if (record?.type !== 'checkpoint' || record.id !== id) break;
    seen.add(id);
    merger.add(record.handles);
    id = record.ancestors[0];
  }
  return merger.result();
}

/**
 * The summaries and merged handles of checkpoint chains, remembered by head id, so a session
 * does not re-read its whole spilled history after each compaction.
 *
 * A summary (head id and counts) is built from the new head's own handles plus the remembered
 * summary of its ancestor: a compaction's cost follows the handles it spilled, not the chain.
 * Summaries are a few numbers each and every complete chain's is remembered. The merged handle
 * list of a chain is only built when asked for (`merged`: recall of the checkpoint, the full
 * handle index), from the nearest remembered merged ancestor, and only the `keep` newest heads'
 * lists are remembered (each holds its chain's handles, so remembering every head would grow
 * memory with the number of compactions, not with the window).
 *
 * Only chains whose every record was found are remembered (records are immutable, so such a
 * chain never changes); a chain with a missing ancestor is recomputed on each call. Only the
 * {@link SUMMARIES_KEPT} newest summaries are remembered: a new head's summary needs its
 * ancestor's, the previous head's, so a session whose old checkpoints are released from memory
 * still counts its whole chain.
 */
export class CheckpointChains {
  private readonly handles = new Map<string, readonly Handle[]>();
  private readonly summaries = new Map<string, CheckpointSummary>();
  private readonly keep: number;

  constructor(keep = 4) {
    this.keep = Math.max(1, keep);
  }

  /** How many heads' summaries are remembered now (at most {@link SUMMARIES_KEPT}). */
  get rememberedSummaries(): number {
    return this.summaries.size;
  }

  /** How many heads' merged handle lists are remembered now (at most `keep`). */
  get remembered(): number {
    return this.handles.size;
  }

  /** The whole chain from `headId` as one record: the same as `mergedCheckpoint`. */
  merged(records: readonly CompactionRecord[], headId: string | undefined): CompactionRecord | undefined {
    if (headId === undefined) return undefined;
    const { unseen, known, complete } = this.walk(records, headId, this.handles);
    const head = unseen[0] ?? findCheckpoint(records, headId);
    if (!head) return undefined;
    const handles =
      known !== undefined && unseen.length === 0
        ? known
        : mergeHandles(...unseen.map((record) => record.handles), known ?? []);
    if (complete && unseen.length > 0) {
      this.handles.set(head.id, handles);
      for (const oldest of this.handles.keys()) {
        if (this.handles.size <= this.keep) break;
        this.handles.delete(oldest);
      }
    }
    return { ...head, handles: [...handles] };
  }

  /** The chain's summary: the same as `summarizeCheckpoint`. */
  summary(records: readonly CompactionRecord[], headId: string | undefined): CheckpointSummary | undefined {
    if (headId === undefined) return undefined;
    const { unseen, known, complete } = this.walk(records, headId, this.summaries);
    const head = unseen[0] ?? findCheckpoint(records, headId);
    if (!head) return undefined;
    if (known !== undefined && unseen.length === 0) return known;
    let count = known?.count ?? 0;
    let userConstraints = known?.userConstraints ?? 0;
    for (const record of unseen) {
      const own = ownCounts(record);
      count += own.count;
      userConstraints += own.userConstraints;
    }
    const summary: CheckpointSummary = { id: head.id, count, userConstraints };
    if (complete) {
      this.summaries.set(head.id, summary);
      for (const oldest of this.summaries.keys()) {
        if (this.summaries.size <= SUMMARIES_KEPT) break;
        this.summaries.delete(oldest);
      }
    }
    return summary;
  }

  /** The chain's records from `headId` down to the first one remembered in `cache` (exclusive), and that entry. */
  private walk<T>(
    records: readonly CompactionRecord[],
    headId: string,
    cache: ReadonlyMap<string, T>,
  ): { unseen: CompactionRecord[]; known: T | undefined; complete: boolean } {
    const unseen: CompactionRecord[] = [];
    const seen = new Set<string>();
    for (let id: string | undefined = headId; id !== undefined && !seen.has(id);) {
      const known = cache.get(id);
      if (known !== undefined) return { unseen, known, complete: true };
      const record = findCheckpoint(records, id);
      if (!record) return { unseen, known: undefined, complete: false };
      seen.add(id);
      unseen.push(record);
      id = record.ancestors[0];
    }
    return { unseen, known: undefined, complete: true };
  }
}

/** The checkpoint record of that id, searched from the newest (a chain's head is usually among the last records). */
function findCheckpoint(records: readonly CompactionRecord[], id: string): CompactionRecord | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index];
    if (record?.id === id && record.type === 'checkpoint') return record;
  }
  return undefined;
}
