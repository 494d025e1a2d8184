/**
 * The spans part of the SQLite store: an append writes, in one immediate transaction, each entry's span (once per
 * row key: per tenant), its occurrence and its row for the deferred text index, then the handle rows of all its entries
 * (`handle-rows.ts`) in as few multi-row statements as it can; spans and occurrences are read back joined.
 */
import { SequenceConflictError } from '../../errors.js';
import type { Span, SpanOccurrence } from '../../types.js';
import {
  buildOccurrence,
  buildSpan,
  checkAppend,
  checkSameSpan,
  orderEntryHandles,
  type SeqRange,
} from '../store-input.js';
import type { SpanPart } from '../store-parts.js';
import type { AppendEntry } from '../store.js';
import { compactHandleValues } from './handle-rows.js';
import type { PendingText } from './deferred-text-index.js';
import type { CommittedOccurrence } from './recent-writes.js';
import type { StoredSpanKey } from './span-keys.js';
import { packSpanText } from './span-text.js';
import type { SqliteContext } from './sqlite-context.js';
import { HANDLE_BATCH_ROWS, HANDLE_COLUMN_COUNT, toOccurrence, toSpan, type HandleRowValues } from './statements.js';
import type { WriteUpkeep } from './write-upkeep.js';

const LAST_SEQ = Number.MAX_SAFE_INTEGER;

type ExtractedHandle = AppendEntry['handles'][number];

/** Appends and span reads of one SQLite store. */
export class SqliteSpans implements SpanPart {
  private readonly appendTransaction;
  /** The occurrences the running append transaction wrote (held once it commits: `recent-writes.ts`). */
  private written: CommittedOccurrence[] = [];
  /** The text-index rows the running append transaction wrote, with their texts (`deferred-text-index.ts`). */
  private textRows: PendingText[] = [];
  /** The handle rows of the running append transaction, written once its occurrences are (`insertHandleRows`). */
  private handleValues: HandleRowValues[number][] = [];

  constructor(
    private readonly context: SqliteContext,
    private readonly upkeep: WriteUpkeep,
  ) {
    this.appendTransaction = context.db.transaction(
      (sessionId: string, expectedNextSeq: number, entries: readonly AppendEntry[]) =>
        this.appendRows(sessionId, expectedNextSeq, entries),
    );
  }

  append(sessionId: string, expectedNextSeq: number, entries: readonly AppendEntry[]): Promise<SpanOccurrence[]> {
    return this.context.guard(`append to session ${sessionId}`, () => {
      checkAppend(sessionId, expectedNextSeq, entries);
      this.context.checkWritable(`append to session ${sessionId}`);
      this.written = [];
      this.textRows = [];
      const written = this.context.writes.run(
        `append to session ${sessionId}`,
        () => this.appendTransaction.immediate(sessionId, expectedNextSeq, entries),
        true,
      );
      this.context.recent.committed(sessionId, this.written);
      this.upkeep.textIndex.hold(this.textRows);
      this.upkeep.appended();
      return written;
    });
  }

  nextSeq(sessionId: string): Promise<number> {
    const { statements } = this.context;
    return this.context.guard(`read next seq of session ${sessionId}`, () => statements.nextSeq.get(sessionId) ?? 0);
  }

  occurrences(sessionId: string, range?: SeqRange): Promise<SpanOccurrence[]> {
    const { statements } = this.context;
    return this.context.guard(`read occurrences of session ${sessionId}`, () =>
      statements.occurrences.all(sessionId, range?.fromSeq ?? 0, range?.toSeq ?? LAST_SEQ).map(toOccurrence),
    );
  }

  occurrencesOf(sessionId: string, spanId: string): Promise<SpanOccurrence[]> {
    const { statements, sessions } = this.context;
    return this.context.guard(`read occurrences of span ${spanId} in session ${sessionId}`, () =>
      statements.occurrencesOfSpan.all(sessionId, ...sessions.rowKeys(sessionId, spanId)).map(toOccurrence),
    );
  }

  spans(sessionId: string, ids: readonly string[]): Promise<Span[]> {
    const { statements, sessions, recent } = this.context;
    return this.context.guard(`read spans of session ${sessionId}`, () =>
      ids.flatMap((id) => {
        const held = recent.span(sessionId, id);
        if (held !== undefined) return [held];
        const row = statements.spanOfSession.get(...sessions.rowKeys(sessionId, id), sessionId);
        if (row === undefined) return [];
        const span = toSpan(row);
        recent.holdSpan(sessionId, span);
        return [span];
      }),
    );
  }

  /** Inside the append transaction: the seq checked, then every entry written. */
  private appendRows(sessionId: string, expectedNextSeq: number, entries: readonly AppendEntry[]): SpanOccurrence[] {
    const { statements, sessions, location } = this.context;
    const tenantId = sessions.require(sessionId, 'append');
    const actual = statements.nextSeq.get(sessionId) ?? 0;
    if (actual !== expectedNextSeq) {
      throw new SequenceConflictError(
        `${location}: append to session ${sessionId} expected next seq ${expectedNextSeq} but it is ${actual}; ` +
          'another writer appended first. Re-read the session (nextSeq) and retry.',
        { sessionId, expectedNextSeq, actualNextSeq: actual, location },
      );
    }
    const session = sessions.numberOf(sessionId) as number;
    this.handleValues = [];
    const written = entries.map((entry, index) =>
      this.insertEntry(sessionId, session, tenantId, actual + index, entry),
    );
    this.insertHandleRows();
    return written;
  }

  private insertEntry(
    sessionId: string,
    session: number,
    tenantId: string | undefined,
    seq: number,
    entry: AppendEntry,
  ): SpanOccurrence {
    const { statements, sessions } = this.context;
    const key = sessions.spanKey(entry.span.id, tenantId);
    const span = this.storedSpan(sessionId, key, entry.span);
    statements.insertOccurrence.run(
      sessionId,
      seq,
      key,
      entry.role,
      entry.byteStart,
      entry.byteEnd,
      entry.label ?? null,
      entry.chunk?.index ?? null,
      entry.chunk?.count ?? null,
    );
    this.collectHandles(session, seq, entry, orderEntryHandles(entry.handles));
    const textRow = statements.insertTextRow.run(sessionId, seq).lastInsertRowid;
    this.written.push({ seq, key, role: entry.role, span });
    this.textRows.push({ row: Number(textRow), text: span.text });
    return buildOccurrence({ ...entry, sessionId, seq, spanId: span.id }, span);
  }

  /** The stored span for the entry (after a full comparison when the id exists), inserting it when new. */
  private storedSpan(sessionId: string, key: StoredSpanKey, span: Span): Span {
    const { statements, location } = this.context;
    const row = statements.span.get(key);
    if (row) {
      const stored = toSpan(row);
      checkSameSpan(location, sessionId, stored, span);
      return stored;
    }
    statements.insertSpan.run(
      key,
      span.kind,
      packSpanText(span.text),
      span.toolName ?? null,
      span.toolCallId ?? null,
      span.tokens,
    );
    // The row holds the entry's span as it is (checked against its id by `checkAppend`).
    return buildSpan(span);
  }

  /** The handle rows of one seq, in order (compact form, see `handle-rows.ts`), added to `handleValues`. */
  private collectHandles(session: number, seq: number, entry: AppendEntry, handles: readonly ExtractedHandle[]): void {
    const values = this.handleValues;
    const { id, text } = entry.span;
    handles.forEach((handle, position) => {
      values.push(session, seq, position, ...compactHandleValues(handle, id, entry.role, text));
    });
  }

  /**
   * Insert the handle rows of the append (after its occurrences, which their trigger checks): `HANDLE_BATCH_ROWS` rows
   * a statement, the rest in one statement more. Fewer, larger statements: each statement journals again the pages it
   * changes (a multi-row insert under triggers needs a statement journal), and each call costs a bind and a step.
   */
  private insertHandleRows(): void {
    const values = this.handleValues;
    this.handleValues = [];
    const columns = HANDLE_COLUMN_COUNT;
    const rows = values.length / columns;
    for (let first = 0; first < rows; first += HANDLE_BATCH_ROWS) {
      const count = Math.min(HANDLE_BATCH_ROWS, rows - first);
      this.context.statements.insertHandles(count).run(...values.slice(first * columns, (first + count) * columns));
    }
  }
}
