/**
 * How the hook's ingest writes a batch of transcript messages: the entries `LedgerSession.append` writes (built by
 * the same `appendEntries`: each message validated, cut into spans with its handles, at the session's next seq and
 * byte), in one store call, but without opening the session — no records, no window of originals, no compaction,
 * recall or window code loaded — since an ingest only appends. The session itself is opened (once, then used for the
 * rest of the ingest) only where the append is more than that: a batch holding a rendered ledger block (the session
 * may import it as a summary), and an agent's own compaction (an external summary record).
 *
 * The spans are the session's own: same ids, seqs, byte ranges, handles and token counts (a test compares both).
 */
import type { TranscriptMessage } from '../../ingest/messages.js';
import type { ExternalSummaryInput, LedgerSession } from '../../session/session.js';
import { appendEntries } from '../../session/session-append.js';
import { resolveWindowConfig } from '../../session/config.js';
import type { LedgerStore } from '../../stores/store.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { TokenMemo } from '../../handles/token-memo.js';
import type { CompactionRecord, SpanOccurrence } from '../../types.js';

/** What the ingest needs of a ledger: its store and counter, and its sessions when a batch needs one (a `Ledger`). */
export interface IngestLedger {
  readonly store: LedgerStore;
  readonly counter: TokenCounter;
  session(sessionId: string): Promise<LedgerSession>;
}

/** Where the session's spans end: its next seq and the byte end of its last span (0 when it has none). */
export interface SessionTail {
  readonly nextSeq: number;
  readonly byteEnd: number;
}

/** Appends to one session (see the module comment). */
export interface SpanAppender {
  readonly id: string;
  /** As `LedgerSession.append`: one store call; an invalid message refuses the whole batch (nothing written). */
  append(messages: readonly TranscriptMessage[]): Promise<SpanOccurrence[]>;
  /** As `LedgerSession.importExternalSummary` (through the session). */
  importExternalSummary(input: ExternalSummaryInput): Promise<CompactionRecord>;
}

/**
 * An appender for `sessionId`, whose spans end at `tail` (read from the store under the session's writer lock).
 * Creates the session in the store as opening it would.
 */
export async function spanAppender(ledger: IngestLedger, sessionId: string, tail: SessionTail): Promise<SpanAppender> {
  await ledger.store.openSession(sessionId, {});
  // The window configuration the session is opened with (the defaults): its span size.
  const { maxSpanTokens } = resolveWindowConfig(sessionId);
  const handleTokens = new Map<string, number>();
  // The appender's own classifications of repeated tokens, as a session keeps its own (see token-memo.ts).
  const tokenMemo = new TokenMemo();
  let { nextSeq, byteEnd } = tail;
  let session: LedgerSession | undefined;
  const opened = async () => (session ??= await ledger.session(sessionId));
  return {
    id: sessionId,
    async append(messages) {
      if (session !== undefined) return session.append(messages);
      const { counter } = ledger;
      // No record is known here: any rendered block counts as foreign, and the session (which knows) appends it.
      const built = appendEntries(messages, {
        sessionId,
        maxSpanTokens,
        counter,
        byteStart: byteEnd,
        handleTokens,
        tokenMemo,
        hasRecord: () => false,
      });
      if (built.foreign !== undefined) return (await opened()).append(messages);
      if (built.entries.length === 0) return [];
      const written = await ledger.store.append(sessionId, nextSeq, built.entries);
      nextSeq += written.length;
      byteEnd = built.byteEnd;
      return written;
    },
    async importExternalSummary(input) {
      return (await opened()).importExternalSummary(input);
    },
  };
}
