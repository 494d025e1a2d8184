/**
 * What the parts of the in-memory store share (`memory-store.ts` composes them): the sessions with everything
 * appended and written to them, and the spans by row key (per tenant), shared by the sessions of a tenant.
 */
import { NotFoundError } from '../../errors.js';
import type { CompactionRecord, Handle, SessionInfo, Span, SpanOccurrence } from '../../types.js';
import { spanRowKey, tenantDigestMemo } from '../store-input.js';

/** One session's data, each list in store order. */
export interface SessionState {
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

/** The data of one in-memory store. */
export class MemoryContext {
  readonly location = 'memory:';
  /** Prefix of error messages (`memory:: …` would read badly). */
  readonly where = 'memory store';
  /** Every session by id. */
  readonly sessions = new Map<string, SessionState>();
  /** Spans by row key (`spanRowKey`: per tenant). */
  readonly spansByRowKey = new Map<string, Span>();
  /** Row-key digests of the tenants seen (`spanRowKey`). */
  private readonly tenantDigests = tenantDigestMemo();

  /** The session's state; throws `NotFoundError` naming `operation` when it was never opened. */
  session(sessionId: string, operation: string): SessionState {
    const state = this.sessions.get(sessionId);
    if (!state) {
      throw new NotFoundError(
        `${this.where}: ${operation}: session ${sessionId} does not exist; call openSession(${JSON.stringify(sessionId)}) first.`,
        { sessionId, location: this.location },
      );
    }
    return state;
  }

  /** The row key of a span of a session with this tenant. */
  rowKey(spanId: string, tenantId: string | undefined): string {
    return spanRowKey(spanId, tenantId, this.tenantDigests);
  }
}
