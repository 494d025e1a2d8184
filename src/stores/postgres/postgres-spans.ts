/**
 * The spans part of the PostgreSQL store: an append batch is one statement (`append_batch()`, `append-batch.ts`) in
 * one transaction, serialized per session by an advisory lock; spans and occurrences are read back joined.
 */
import { NotFoundError, SequenceConflictError } from '../../errors.js';
import type { Span, SpanOccurrence } from '../../types.js';
import { buildOccurrence, buildSpan, checkAppend, type SeqRange } from '../store-input.js';
import type { SpanPart } from '../store-parts.js';
import type { AppendEntry } from '../store.js';
import { checkNoNul, packBatch } from './append-batch.js';
import type { PostgresContext } from './postgres-context.js';
import { toOccurrence, toSpan, type OccurrenceRow, type SpanRow } from './queries.js';
import { missing } from './session-lookup.js';

const LAST_SEQ = Number.MAX_SAFE_INTEGER;
const NUL = '\u0000';

/** Appends and span reads of one PostgreSQL store. */
export class PostgresSpans implements SpanPart {
  constructor(private readonly context: PostgresContext) {}

  async append(sessionId: string, expectedNextSeq: number, entries: readonly AppendEntry[]): Promise<SpanOccurrence[]> {
    const { sql, sessions, location } = this.context;
    checkAppend(sessionId, expectedNextSeq, entries);
    checkNoNul('sessionId', sessionId);
    const operation = `append to session ${sessionId}`;
    const tenantId = await sessions.tenantOf(sessionId, operation);
    const [result] =
      tenantId === missing
        ? [undefined]
        : await this.context.write<{ actual_next: string; stored_tokens: string[] | null }>(
            operation,
            sql.appendBatch,
            [sessionId, expectedNextSeq, ...packBatch(sessionId, tenantId, entries, sessions.tenantDigests)],
          );
    const actual = Number(result?.actual_next ?? -1);
    if (actual === -1) {
      throw new NotFoundError(
        `${location}: append: session ${sessionId} does not exist; call openSession(${JSON.stringify(sessionId)}) first.`,
        { sessionId, location },
      );
    }
    if (actual !== expectedNextSeq || !result?.stored_tokens) {
      throw new SequenceConflictError(
        `${location}: append to session ${sessionId} expected next seq ${expectedNextSeq} but it is ${actual}; ` +
          'another writer appended first. Re-read the session (nextSeq) and retry.',
        { sessionId, expectedNextSeq, actualNextSeq: actual, location },
      );
    }
    this.context.cleaner?.appended();
    const storedTokens = result.stored_tokens;
    return entries.map((entry, index): SpanOccurrence => {
      const span = buildSpan({ ...entry.span, tokens: Number(storedTokens[index] ?? entry.span.tokens) });
      return buildOccurrence({ ...entry, sessionId, seq: expectedNextSeq + index, spanId: span.id }, span);
    });
  }

  async nextSeq(sessionId: string): Promise<number> {
    if (sessionId.includes(NUL)) return 0;
    const operation = `read next seq of session ${sessionId}`;
    const [row] = await this.context.read<{ next: string }>(operation, this.context.sql.nextSeq, [sessionId]);
    return Number(row?.next ?? 0);
  }

  async occurrences(sessionId: string, range?: SeqRange): Promise<SpanOccurrence[]> {
    if (sessionId.includes(NUL)) return [];
    const rows = await this.context.read<OccurrenceRow>(
      `read occurrences of session ${sessionId}`,
      this.context.sql.occurrences,
      [sessionId, range?.fromSeq ?? 0, range?.toSeq ?? LAST_SEQ],
    );
    return rows.map(toOccurrence);
  }

  async occurrencesOf(sessionId: string, spanId: string): Promise<SpanOccurrence[]> {
    if (sessionId.includes(NUL) || spanId.includes(NUL)) return [];
    const operation = `read occurrences of span ${spanId} in session ${sessionId}`;
    const { keys } = await this.context.sessions.rowKeys(sessionId, [spanId], operation);
    const rows = await this.context.read<OccurrenceRow>(operation, this.context.sql.occurrencesOfSpan, [
      sessionId,
      [...new Set([...keys, spanId])],
    ]);
    return rows.map(toOccurrence);
  }

  async spans(sessionId: string, ids: readonly string[]): Promise<Span[]> {
    const { sql, sessions } = this.context;
    const usable = ids.filter((id) => !id.includes(NUL));
    if (sessionId.includes(NUL) || usable.length === 0) return [];
    const operation = `read spans of session ${sessionId}`;
    const { keys, plain } = await sessions.rowKeys(sessionId, usable, operation);
    const rows =
      keys.length === 1
        ? await this.context.read<SpanRow>(operation, sql.spanOfSession, [sessionId, keys[0], plain[0]])
        : await this.context.read<SpanRow>(operation, sql.spansOfSession, [sessionId, keys, plain]);
    return rows.map(toSpan);
  }
}
