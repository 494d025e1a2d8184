import { mergeHandles } from './handles/handle-sets.js';
import type { CompactionRecord, Handle } from './types.js';

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

/** What a cache entry holds for one head: the chain's merged handles and its summary. */
interface ChainTotals {
  readonly handles: Handle[];
  readonly summary: CheckpointSummary;
}

/**
 * The merged handles and summary of checkpoint chains, remembered by head id, so a session
 * does not re-read its whole spilled history after each compaction: a new head is merged with
 * the remembered totals of its ancestor (one merge over the chain's handles, no walk).
 *
 * Only chains whose every record was found are remembered (records are immutable, so such a
 * chain never changes); a chain with a missing ancestor is recomputed on each call. Only the
 * `keep` newest heads are remembered (each holds its chain's merged handles, so remembering
 * every head would grow memory with the number of compactions, not with the window); an older
 * head is recomputed from the nearest remembered one when asked for.
 */
export class CheckpointChains {
  private readonly totals = new Map<string, ChainTotals>();
  private readonly keep: number;

  constructor(keep = 4) {
    this.keep = Math.max(1, keep);
  }

  /** How many heads are remembered now (at most `keep`). */
  get remembered(): number {
    return this.totals.size;
  }

  /** The whole chain from `headId` as one record: the same as `mergedCheckpoint`. */
  merged(records: readonly CompactionRecord[], headId: string | undefined): CompactionRecord | undefined {
    const found = this.resolve(records, headId);
    return found ? { ...found.head, handles: [...found.totals.handles] } : undefined;
  }

  /** The chain's summary: the same as `summarizeCheckpoint`. */
  summary(records: readonly CompactionRecord[], headId: string | undefined): CheckpointSummary | undefined {
    return this.resolve(records, headId)?.totals.summary;
  }

  private resolve(
    records: readonly CompactionRecord[],
    headId: string | undefined,
  ): { head: CompactionRecord; totals: ChainTotals } | undefined {
    if (headId === undefined) return undefined;
    const unseen: CompactionRecord[] = [];
    const seen = new Set<string>();
    let known: ChainTotals | undefined;
    let complete = true;
    for (let id: string | undefined = headId; id !== undefined && !seen.has(id);) {
      known = this.totals.get(id);
      if (known) break;
      const record = findCheckpoint(records, id);
      if (!record) {
        complete = false;
        break;
      }
      seen.add(id);
      unseen.push(record);
      id = record.ancestors[0];
    }
    const head = unseen[0] ?? findCheckpoint(records, headId);
    if (!head) return undefined;
    if (unseen.length === 0 && known) return { head, totals: known };
    let count = known?.summary.count ?? 0;
    let userConstraints = known?.summary.userConstraints ?? 0;
    for (const record of unseen) {
      count += record.handles.length;
      for (const handle of record.handles)
        if (handle.kind === 'constraint' && (handle.role === 'user' || handle.role === 'system')) userConstraints++;
    }
    const totals: ChainTotals = {
      handles: mergeHandles(...unseen.map((record) => record.handles), known?.handles ?? []),
      summary: { id: head.id, count, userConstraints },
    };
    if (complete) {
      this.totals.set(head.id, totals);
      for (const oldest of this.totals.keys()) {
        if (this.totals.size <= this.keep) break;
        this.totals.delete(oldest);
      }
    }
    return { head, totals };
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
