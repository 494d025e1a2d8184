/**
 * What one SQLite store appended lately, held after the append committed (`recent-entries.ts`): the spans, by session
 * and id (what `spans` reads), and the occurrences of the session appended last, by seq, as the handle reads take
 * them (`HandleSource`: the row key, the role and the span text a compact handle row is rebuilt from). A compaction
 * reads both for the turns it absorbs; held here they are not joined and unpacked from the database again. Spans and
 * occurrences are append-only (triggers refuse any change), so what is held is what the database holds.
 */
import type { Role, Span } from '../../types.js';
import { RecentEntries } from '../recent-entries.js';
import type { HandleSource } from './handle-rows.js';
import type { StoredSpanKey } from './span-keys.js';

/** One occurrence an append committed. */
export interface CommittedOccurrence {
  readonly seq: number;
  /** The key of its span's row. */
  readonly key: StoredSpanKey;
  readonly role: Role;
  readonly span: Span;
}

/** The spans and occurrences one store appended lately (see the module comment). */
export class RecentWrites {
  private readonly spans = new RecentEntries<string, Span>((span) => span.text.length);
  private sources: { readonly sessionId: string; readonly bySeq: RecentEntries<number, HandleSource> } | undefined;

  /** The span `spanId` of session `sessionId`, if held. */
  span(sessionId: string, spanId: string): Span | undefined {
    return this.spans.get(spanKeyOf(sessionId, spanId));
  }

  /** Hold `span`, read from the database for session `sessionId`. */
  holdSpan(sessionId: string, span: Span): void {
    this.spans.set(spanKeyOf(sessionId, span.id), span);
  }

  /** The occurrence at `seq` of session `sessionId` as a handle read takes it, if held. */
  source(sessionId: string, seq: number): HandleSource | undefined {
    return this.sources?.sessionId === sessionId ? this.sources.bySeq.get(seq) : undefined;
  }

  /** After an append to `sessionId` committed: hold its spans and occurrences. */
  committed(sessionId: string, occurrences: readonly CommittedOccurrence[]): void {
    if (this.sources?.sessionId !== sessionId)
      this.sources = { sessionId, bySeq: new RecentEntries<number, HandleSource>((source) => source.text.length) };
    for (const { seq, key, role, span } of occurrences) {
      this.holdSpan(sessionId, span);
      this.sources.bySeq.set(seq, { span_id: key, role, text: span.text });
    }
  }
}

const spanKeyOf = (sessionId: string, spanId: string) => `${sessionId}\n${spanId}`;
