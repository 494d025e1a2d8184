/**
 * The spans part of the in-memory store: spans are content-addressed (the same span appended twice is stored once,
 * the first token count wins, and gets two occurrences); everything stored is deep-frozen.
 */
import { SequenceConflictError } from '../../errors.js';
import type { Span, SpanOccurrence } from '../../types.js';
import {
  buildHandle,
  buildOccurrence,
  buildSpan,
  checkAppend,
  checkSameSpan,
  orderEntryHandles,
  sliceBySeq,
  type SeqRange,
} from '../store-input.js';
import type { SpanPart } from '../store-parts.js';
import type { AppendEntry } from '../store.js';
import type { MemoryContext, SessionState } from './memory-context.js';

/** Appends and span reads of one in-memory store. */
export class MemorySpans implements SpanPart {
  constructor(private readonly context: MemoryContext) {}

  async append(sessionId: string, expectedNextSeq: number, entries: readonly AppendEntry[]): Promise<SpanOccurrence[]> {
    checkAppend(sessionId, expectedNextSeq, entries);
    const state = this.context.session(sessionId, 'append');
    const actual = state.occurrences.length;
    if (expectedNextSeq !== actual) {
      throw new SequenceConflictError(
        `${this.context.where}: append to session ${sessionId} expected next seq ${expectedNextSeq} but it is ${actual}; ` +
          'another writer appended first. Re-read the session (nextSeq) and retry.',
        { sessionId, expectedNextSeq, actualNextSeq: actual },
      );
    }
    this.checkStoredSpans(state, entries);
    return entries.map((entry, index) => this.appendOne(state, actual + index, entry));
  }

  async nextSeq(sessionId: string): Promise<number> {
    return this.context.sessions.get(sessionId)?.occurrences.length ?? 0;
  }

  async occurrences(sessionId: string, range?: SeqRange): Promise<SpanOccurrence[]> {
    return sliceBySeq(this.context.sessions.get(sessionId)?.occurrences ?? [], range);
  }

  async occurrencesOf(sessionId: string, spanId: string): Promise<SpanOccurrence[]> {
    return [...(this.context.sessions.get(sessionId)?.occurrencesBySpan.get(spanId) ?? [])];
  }

  async spans(sessionId: string, ids: readonly string[]): Promise<Span[]> {
    const state = this.context.sessions.get(sessionId);
    if (!state) return [];
    const tenantId = state.info.tenantId;
    return ids
      .filter((id) => state.spanIds.has(id))
      .map((id) => this.context.spansByRowKey.get(this.context.rowKey(id, tenantId)))
      .filter((span): span is Span => span !== undefined);
  }

  /** Before anything is written: every span id already stored (or earlier in the batch) must hold the same content. */
  private checkStoredSpans(state: SessionState, entries: readonly AppendEntry[]): void {
    const batch = new Map<string, Span>();
    for (const { span } of entries) {
      const key = this.context.rowKey(span.id, state.info.tenantId);
      const stored = this.context.spansByRowKey.get(key) ?? batch.get(key);
      if (stored) checkSameSpan(this.context.where, state.info.id, stored, span);
      else batch.set(key, span);
    }
  }

  private appendOne(state: SessionState, seq: number, entry: AppendEntry): SpanOccurrence {
    const { spansByRowKey } = this.context;
    const key = this.context.rowKey(entry.span.id, state.info.tenantId);
    let span = spansByRowKey.get(key);
    if (!span) {
      span = buildSpan(entry.span);
      spansByRowKey.set(key, span);
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
}
