/** The records part of the in-memory store: records are deep-frozen and kept in ordinal order. */
import { ImmutableSpanError, SequenceConflictError } from '../../errors.js';
import type { CompactionRecord } from '../../types.js';
import { ChainHandles } from '../chain-identities.js';
import type { HandleIdentity } from '../store.js';
import { deepFreeze } from '../../collections/deep-freeze.js';
import { checkRecord } from '../store-input.js';
import type { RecordPart } from '../store-parts.js';
import type { MemoryContext } from './memory-context.js';

/** Record writes and reads of one in-memory store. */
export class MemoryRecords implements RecordPart {
  constructor(private readonly context: MemoryContext) {}

  async writeRecord(record: CompactionRecord): Promise<void> {
    const { where } = this.context;
    const copy = checkRecord(record);
    const state = this.context.session(copy.sessionId, `write record ${copy.id}`);
    if (state.recordsById.has(copy.id)) {
      throw new ImmutableSpanError(
        `${where}: record ${copy.id} of session ${copy.sessionId} is already written and records are immutable; ` +
          'write a new record with a new id instead.',
        { sessionId: copy.sessionId, recordId: copy.id },
      );
    }
    const holder = state.recordsByOrdinal.get(copy.ordinal);
    if (holder) {
      throw new SequenceConflictError(
        `${where}: cannot write record ${copy.id}: ordinal ${copy.ordinal} of session ${copy.sessionId} ` +
          `is already taken by record ${holder.id}; another writer got there first. ` +
          'Re-read the records and retry with the next ordinal.',
        { sessionId: copy.sessionId, recordId: copy.id, ordinal: copy.ordinal, takenBy: holder.id },
      );
    }
    deepFreeze(copy);
    state.recordsById.set(copy.id, copy);
    state.recordsByOrdinal.set(copy.ordinal, copy);
    // Records usually arrive in ordinal order: appending is then one comparison, not a scan.
    const lastOrdinal = state.records[state.records.length - 1]?.ordinal ?? Number.NEGATIVE_INFINITY;
    const at = copy.ordinal > lastOrdinal ? -1 : state.records.findIndex((existing) => existing.ordinal > copy.ordinal);
    state.records.splice(at === -1 ? state.records.length : at, 0, copy);
  }

  async records(sessionId: string): Promise<CompactionRecord[]> {
    return [...(this.context.sessions.get(sessionId)?.records ?? [])];
  }

  async recordCount(sessionId: string): Promise<number> {
    return this.context.sessions.get(sessionId)?.records.length ?? 0;
  }

  async record(sessionId: string, recordId: string): Promise<CompactionRecord | undefined> {
    return this.context.sessions.get(sessionId)?.recordsById.get(recordId);
  }

  async chainHandleIdentities(sessionId: string, headId: string): Promise<HandleIdentity[]> {
    const byId = this.context.sessions.get(sessionId)?.recordsById;
    const chain = new ChainHandles();
    for (let id: string | undefined = headId; id !== undefined && !chain.walked(id);) {
      const record: CompactionRecord | undefined = byId?.get(id);
      if (record?.type !== 'checkpoint') break;
      chain.visit(id);
      for (const handle of record.handles) chain.add(handle);
      id = record.ancestors[0];
    }
    return chain.result();
  }
}
