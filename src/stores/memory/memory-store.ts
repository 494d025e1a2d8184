import { ImmutableSpanError, NotFoundError, SequenceConflictError } from '../../errors.js';
import type { CompactionRecord, Handle, SessionInfo, Span, SpanOccurrence } from '../../types.js';
import { LEDGER_STORE_SPECIFICATION_VERSION, type AppendEntry, type LedgerStore, type TextHit } from '../store.js';
import { firstIndexWhere } from '../../collections/sorted-search.js';
import {
  buildHandle,
  buildOccurrence,
  buildSpan,
  checkAppend,
  checkCount,
  checkHandlePage,
  checkSameSpan,
  checkId,
  checkRecord,
  deepFreeze,
  orderEntryHandles,
  searchTerms,
  sliceBySeq,
  spanRowKey,
  tenantMismatch,
  type SeqRange,
} from '../store-input.js';

interface SessionState {
  readonly info: SessionInfo;
  /** Occurrences ordered by seq (the occurrence at index i has seq i). */
  readonly occurrences: SpanOccurrence[];
  readonly spanIds: Set<string>;
  /** Occurrences of each span, ordered by seq. */
  readonly occurrencesBySpan: Map<string, SpanOccurrence[]>;
  /** Every handle, ordered by seq (appends only add higher seqs), so a seq range is a binary search. */
  readonly handles: Handle[];
  readonly handlesByKey: Map<string, Handle[]>;
  readonly records: CompactionRecord[];
  readonly recordsById: Map<string, CompactionRecord>;
  readonly recordsByOrdinal: Map<number, CompactionRecord>;
}

/**
 * Creates an in-process `LedgerStore` (kind `memory`, location `memory:`), for tests, demos
 * and short-lived agents.
 *
 * Everything it stores and returns is deep-frozen, so changing a span, occurrence, handle or
 * record after the fact throws a `TypeError` in strict mode; no method overwrites or deletes.
 * Spans are content-addressed: the same span appended twice is stored once (the first token
 * count wins) and gets two occurrences.
 *
 * Errors: `SequenceConflictError` for a stale `expectedNextSeq` and for a record ordinal that
 * is already taken (another writer got there first: re-read and retry); `ImmutableSpanError`
 * for a record id that is already written; `TenantMismatchError`; `NotFoundError` when
 * appending or writing to a session that was never opened; `InvalidInputError` for malformed
 * input (a span whose id is not its hash, a handle that is not verbatim at its offsets).
 */
export function createMemoryStore(): LedgerStore {
  const location = 'memory:';
  /** Prefix of error messages (`memory:: …` would read badly). */
  const where = 'memory store';
  const sessions = new Map<string, SessionState>();
  /** Spans by row key (`spanRowKey`: per tenant). */
  const spans = new Map<string, Span>();

  function session(sessionId: string, operation: string): SessionState {
    const state = sessions.get(sessionId);
    if (!state) {
      throw new NotFoundError(
        `${where}: ${operation}: session ${sessionId} does not exist; call openSession(${JSON.stringify(sessionId)}) first.`,
        { sessionId, location },
      );
    }
    return state;
  }

  const store: LedgerStore = {
    specificationVersion: LEDGER_STORE_SPECIFICATION_VERSION,
    kind: 'memory',
    location,

    async openSession(sessionId, options) {
      checkId('sessionId', sessionId);
      const tenantId = options?.tenantId;
      const existing = sessions.get(sessionId);
      if (existing) {
        if (existing.info.tenantId !== tenantId) {
          throw tenantMismatch(where, sessionId, tenantId, { location });
        }
        return existing.info;
      }
      const info: SessionInfo = Object.freeze({ id: sessionId, tenantId, createdAt: new Date().toISOString() });
      sessions.set(sessionId, {
        info,
        occurrences: [],
        spanIds: new Set(),
        occurrencesBySpan: new Map(),
        handles: [],
        handlesByKey: new Map(),
        records: [],
        recordsById: new Map(),
        recordsByOrdinal: new Map(),
      });
      return info;
    },

    async getSession(sessionId) {
      return sessions.get(sessionId)?.info;
    },

    async listSessions(options) {
      const all = [...sessions.values()].map((state) => state.info);
      const filtered = options?.tenantId === undefined ? all : all.filter((info) => info.tenantId === options.tenantId);
      return filtered.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async append(sessionId, expectedNextSeq, entries) {
      checkAppend(sessionId, expectedNextSeq, entries);
      const state = session(sessionId, 'append');
      const actual = state.occurrences.length;
      if (expectedNextSeq !== actual) {
        throw new SequenceConflictError(
          `${where}: append to session ${sessionId} expected next seq ${expectedNextSeq} but it is ${actual}; ` +
            'another writer appended first. Re-read the session (nextSeq) and retry.',
          { sessionId, expectedNextSeq, actualNextSeq: actual },
        );
      }
      checkStoredSpans(state, entries);
      return entries.map((entry, index) => appendOne(state, actual + index, entry));
    },

    async nextSeq(sessionId) {
      return sessions.get(sessionId)?.occurrences.length ?? 0;
    },

    async occurrences(sessionId, range) {
      return sliceBySeq(sessions.get(sessionId)?.occurrences ?? [], range);
    },

    async occurrencesOf(sessionId, spanId) {
      return [...(sessions.get(sessionId)?.occurrencesBySpan.get(spanId) ?? [])];
    },

    async spans(sessionId, ids) {
      const state = sessions.get(sessionId);
      if (!state) return [];
      const tenantId = state.info.tenantId;
      return ids
        .filter((id) => state.spanIds.has(id))
        .map((id) => spans.get(spanRowKey(id, tenantId)))
        .filter((span): span is Span => span !== undefined);
    },

    async findHandles(sessionId, key, page) {
      const { fromSeq, limit } = checkHandlePage(page, { sessionId, key });
      const all = sessions.get(sessionId)?.handlesByKey.get(key) ?? [];
      const start = fromSeq === 0 ? 0 : firstIndexWhere(all.length, (index) => (all[index] as Handle).seq >= fromSeq);
      return all.slice(start, limit === Number.POSITIVE_INFINITY ? all.length : start + limit);
    },

    async countHandles(sessionId, key) {
      return sessions.get(sessionId)?.handlesByKey.get(key)?.length ?? 0;
    },

    async handles(sessionId, range?: SeqRange) {
      return sliceBySeq(sessions.get(sessionId)?.handles ?? [], range);
    },

    async searchText(sessionId, query, limit) {
      checkCount('limit', limit, { sessionId });
      const terms = searchTerms(query).map((term) => term.toLowerCase());
      if (terms.length === 0 || limit === 0) return [];
      const hits: TextHit[] = [];
      for (const occurrence of sessions.get(sessionId)?.occurrences ?? []) {
        const text = occurrence.span.text.toLowerCase();
        const score = terms.filter((term) => text.includes(term)).length;
        if (score > 0) hits.push({ seq: occurrence.seq, spanId: occurrence.spanId, score });
      }
      return hits.sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, limit);
    },

    async writeRecord(record) {
      const copy = checkRecord(record);
      const state = session(copy.sessionId, `write record ${copy.id}`);
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
      const at =
        copy.ordinal > lastOrdinal ? -1 : state.records.findIndex((existing) => existing.ordinal > copy.ordinal);
      state.records.splice(at === -1 ? state.records.length : at, 0, copy);
    },

    async records(sessionId) {
      return [...(sessions.get(sessionId)?.records ?? [])];
    },

    async recordCount(sessionId) {
      return sessions.get(sessionId)?.records.length ?? 0;
    },

    async record(sessionId, recordId) {
      return sessions.get(sessionId)?.recordsById.get(recordId);
    },

    async close() {
      // Nothing to release; the data lives as long as the store object.
    },
  };

  /** Before anything is written: every span id already stored (or earlier in the batch) must hold the same content. */
  function checkStoredSpans(state: SessionState, entries: readonly AppendEntry[]): void {
    const batch = new Map<string, Span>();
    for (const { span } of entries) {
      const key = spanRowKey(span.id, state.info.tenantId);
      const stored = spans.get(key) ?? batch.get(key);
      if (stored) checkSameSpan(where, state.info.id, stored, span);
      else batch.set(key, span);
    }
  }

  function appendOne(state: SessionState, seq: number, entry: AppendEntry): SpanOccurrence {
    const key = spanRowKey(entry.span.id, state.info.tenantId);
    let span = spans.get(key);
    if (!span) {
      span = buildSpan(entry.span);
      spans.set(key, span);
    }
    const occurrence = buildOccurrence({ ...entry, sessionId: state.info.id, seq, spanId: span.id }, span);
    state.occurrences.push(occurrence);
    state.spanIds.add(span.id);
    const sameSpan = state.occurrencesBySpan.get(span.id);
    if (sameSpan) sameSpan.push(occurrence);
    else state.occurrencesBySpan.set(span.id, [occurrence]);
    for (const extracted of orderEntryHandles(entry.handles)) {
      const handle = buildHandle(extracted, seq);
      state.handles.push(handle);
      const sameKey = state.handlesByKey.get(handle.key);
      if (sameKey) sameKey.push(handle);
      else state.handlesByKey.set(handle.key, [handle]);
    }
    return occurrence;
  }

  return store;
}
