import { mergeHandles } from './handles/handle-sets.js';
import type { CompactionRecord } from './types.js';

/**
 * Spill checkpoints form a chain: each holds only the handles spilled by its compaction and
 * names the previous checkpoint as its ancestor, so a compaction never rewrites the history
 * already spilled (its cost follows the window). The head's id is the one in the window.
 */
export function checkpointChain(records: readonly CompactionRecord[], headId: string | undefined): CompactionRecord[] {
  const byId = new Map(records.filter((record) => record.type === 'checkpoint').map((record) => [record.id, record]));
  const chain: CompactionRecord[] = [];
  const seen = new Set<string>();
  for (let id = headId; id !== undefined && !seen.has(id); ) {
    const record = byId.get(id);
    if (!record) break;
    seen.add(id);
    chain.push(record);
    id = record.ancestors[0];
  }
  return chain;
}

/** The whole chain as one record (the head, with every spilled handle of the chain). */
export function mergedCheckpoint(records: readonly CompactionRecord[], headId: string | undefined): CompactionRecord | undefined {
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
export function summarizeCheckpoint(records: readonly CompactionRecord[], headId: string | undefined): CheckpointSummary | undefined {
  const chain = checkpointChain(records, headId);
  const head = chain[0];
  if (!head) return undefined;
  let count = 0;
  let userConstraints = 0;
  for (const record of chain) {
    count += record.handles.length;
    for (const handle of record.handles) if (handle.kind === 'constraint' && (handle.role === 'user' || handle.role === 'system')) userConstraints++;
  }
  return { id: head.id, count, userConstraints };
}
