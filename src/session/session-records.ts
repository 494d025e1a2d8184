/**
 * The compaction records a session keeps in memory, and what it remembers of the rest. Every
 * record is in the store; the session holds the latest `held` summary and external records and the
 * latest `held` spill checkpoints (never the one in the window, nor the head of its checkpoint
 * chain), so a long replay's memory follows the window, not the number of compactions. Of each
 * released record it keeps a few numbers (`RecordSummary`, in a `RecordSummaryTable`) and its gap, if
 * lossy; of the checkpoint chain, the window's counts (`CheckpointChains`). The full handle index then reads the released
 * checkpoints back from the store (`loadHandleIndex`).
 */
import { CheckpointChains, loadChainHandles } from '../model/checkpoints.js';
import { ChainKinds } from './chain-kinds.js';
import type { CheckpointSummary } from '../model/checkpoints.js';
import { InvalidInputError } from '../errors.js';
import { gapOf } from '../model/gaps.js';
import type { Gap } from '../model/gaps.js';
import { mergeHandles } from '../handles/handle-sets.js';
import { RecordSummaryTable, type RecordSummary } from '../model/record-summary-table.js';
import type { CompactionRecord, Handle } from '../types.js';

export type { RecordSummary } from '../model/record-summary-table.js';

/** See the module comment. */
export class SessionRecords {
  /** Held records, oldest first: the latest `held` checkpoints and the latest `held` others. */
  private list: CompactionRecord[] = [];
  private readonly byId = new Map<string, CompactionRecord>();
  private readonly summaryTable = new RecordSummaryTable();
  private readonly gapList: Gap[] = [];
  private heldOthers = 0;
  private heldCheckpoints = 0;
  private released = 0;
  /** The highest ordinal added (held or released), -1 before any. */
  private lastOrdinal = -1;
  private releasedCheckpoints = 0;
  private current: CompactionRecord | undefined;
  /** Merged handles and summaries of checkpoint chains, by head id (records are immutable). */
  private readonly chains = new CheckpointChains();
  /** The last `handleIndex()` result, for the record it was computed for. */
  private indexCache: { readonly recordId: string; readonly handles: readonly Handle[] } | undefined;
  /** The handle index's counts by kind, tallied as checkpoints are added (`chain-kinds.ts`). */
  private readonly kinds = new ChainKinds();

  constructor(
    private readonly sessionId: string,
    records: readonly CompactionRecord[],
    private readonly held = Number.POSITIVE_INFINITY,
  ) {
    for (const record of records) this.add(record);
  }

  /** How many records the session has, held or not. */
  get count(): number {
    return this.list.length + this.released;
  }

  /**
   * The ordinal the next record takes: one past the highest stored, so a session whose ordinals have a hole (one
   * written before a compaction that reused the checkpoint a killed compaction left) still writes a free one.
   */
  get nextOrdinal(): number {
    return this.lastOrdinal + 1;
  }

  /** The summary or external record in the window, if any. */
  get active(): CompactionRecord | undefined {
    return this.current;
  }

  /** Records held now, oldest first (the latest checkpoints, summary and external records). */
  get heldRecords(): readonly CompactionRecord[] {
    return this.list;
  }

  /** Whether every record of the session is held. */
  get complete(): boolean {
    return this.released === 0;
  }

  /** Add a record just written (or loaded), releasing the oldest records past the limit. */
  add(record: CompactionRecord): void {
    this.list.push(record);
    this.byId.set(record.id, record);
    this.lastOrdinal = Math.max(this.lastOrdinal, record.ordinal);
    this.summaryTable.add(record);
    this.kinds.add(record);
    const gap = gapOf(record);
    if (gap) this.gapList.push(gap);
    if (record.type === 'checkpoint') {
      // Remembered now, while the chain is held: the window's count of spilled handles never walks released records.
      this.chains.summary(this.list, record.id);
      this.heldCheckpoints++;
    } else {
      this.current = record;
      this.heldOthers++;
    }
    // Released in batches (the list is rebuilt once per `held` records of a type, not per record).
    if (this.heldOthers > 2 * this.held || this.heldCheckpoints > 2 * this.held) this.release();
  }

  /** Keep the latest `held` records of each type, the active record and its checkpoint head; release the rest. */
  private release(): void {
    const head = this.current?.checkpointId;
    let checkpoints = 0;
    let others = 0;
    const kept: CompactionRecord[] = [];
    for (let index = this.list.length - 1; index >= 0; index--) {
      const record = this.list[index] as CompactionRecord;
      const checkpoint = record.type === 'checkpoint';
      if (record === this.current || record.id === head || (checkpoint ? checkpoints : others) < this.held) {
        kept.push(record);
        if (checkpoint) checkpoints++;
        else others++;
        continue;
      }
      this.byId.delete(record.id);
      this.released++;
      if (checkpoint) this.releasedCheckpoints++;
    }
    this.list = kept.reverse();
    this.heldCheckpoints = checkpoints;
    this.heldOthers = others;
  }

  /** A held record by id (the active record's checkpoint head is always held). */
  find(id: string): CompactionRecord | undefined {
    return this.byId.get(id);
  }

  /** All records, oldest first; throws when some were released from memory (read them from the store). */
  all(): CompactionRecord[] {
    if (this.released > 0)
      throw new InvalidInputError(
        `Session ${this.sessionId}: ${this.released} of its ${this.count} records were released from memory ` +
          `(the session holds the latest ${this.held}); read them with await session.loadRecords().`,
        { sessionId: this.sessionId, released: this.released, records: this.count },
      );
    return [...this.list];
  }

  /** What is remembered of every record, oldest first. */
  summaries(): RecordSummary[] {
    return this.summaryTable.all();
  }

  /** Gaps of every lossy record, oldest first. */
  gaps(): readonly Gap[] {
    return this.gapList;
  }

  /** The spill-checkpoint summary of the chain `headId` heads, for the window. */
  checkpointSummary(headId: string | undefined): CheckpointSummary | undefined {
    return this.chains.summary(this.list, headId);
  }

  /**
   * The active record's handles plus every spilled handle of its checkpoint chain, deduplicated, oldest first.
   * Throws when the chain's records may have been released from memory (`loadHandleIndex` reads them).
   */
  handleIndex(): Handle[] {
    const active = this.current;
    if (!active) return [];
    if (this.releasedCheckpoints > 0 && active.checkpointId !== undefined)
      throw new InvalidInputError(
        `Session ${this.sessionId}: ${this.releasedCheckpoints} of its spill checkpoints were released from memory ` +
          `(the session holds the latest ${this.held}), so its full handle index is not held; ` +
          'read it with await session.loadHandleIndex().',
        { sessionId: this.sessionId, releasedCheckpoints: this.releasedCheckpoints, checkpointId: active.checkpointId },
      );
    if (this.indexCache?.recordId !== active.id) {
      this.indexCache = {
        recordId: active.id,
        handles: mergeHandles(active.handles, this.chains.merged(this.list, active.checkpointId)?.handles ?? []),
      };
    }
    return [...this.indexCache.handles];
  }

  /**
   * Counts by kind of `loadHandleIndex()`, kinds in its order, from the tally kept as checkpoints were added; undefined
   * when the tally does not cover the active record's chain (count `loadHandleIndex()` then).
   */
  handleIndexKinds(): Map<string, number> | undefined {
    return this.kinds.counts(this.current);
  }

  /**
   * What `handleIndex()` gives, the checkpoints the session released read back with `read` (from the store), one
   * at a time: memory holds the merged index, not the chain's records. The same as `handleIndex()` when every
   * checkpoint is held.
   */
  async loadHandleIndex(read: (id: string) => Promise<CompactionRecord | undefined>): Promise<Handle[]> {
    const active = this.current;
    if (!active || this.releasedCheckpoints === 0 || active.checkpointId === undefined) return this.handleIndex();
    const spilled = await loadChainHandles(active.checkpointId, (id) => this.byId.get(id) ?? read(id));
    return mergeHandles(active.handles, spilled);
  }
}
