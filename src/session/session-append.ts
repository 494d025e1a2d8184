/**
 * The entries one `append` call writes: each message checked and ingested (chunked into spans, handles found), in
 * order, with the byte offsets running on from the session's; and where, among them, the spans of a ledger block
 * rendered by another session came back (`foreignBlock`), which the session then imports as an external summary.
 */
import { appendAll } from '../collections/append-all.js';
import type { TokenMemo } from '../handles/token-memo.js';
import { messageToEntries } from '../ingest/ingest.js';
import { validateMessage } from '../ingest/messages.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import { foreignBlock } from '../ingest/rendered-block.js';
import type { AppendEntry } from '../stores/store.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** What ingesting an append's messages needs of the session. */
export interface AppendContext {
  readonly sessionId: string;
  readonly maxSpanTokens: number;
  readonly counter: TokenCounter;
  /** The byte offset the first message starts at (where the session's last span ended). */
  readonly byteStart: number;
  /** Token counts of handle texts the session appended (a handle repeated in a later turn is not recounted). */
  readonly handleTokens: Map<string, number>;
  /**
   * Token classifications of the texts the session appended (a token repeated in a later turn is not classified
   * again). Without it, no memo is used.
   */
  readonly tokenMemo?: TokenMemo | undefined;
  /** Whether the session has a record of this id (a block naming only such records is the session's own). */
  readonly hasRecord: (id: string) => boolean;
}

/** The entries of an append, and the foreign ledger block among its messages, if any. */
export interface AppendEntries {
  readonly entries: AppendEntry[];
  /** Where the last message ended. */
  readonly byteEnd: number;
  /** The message holding another session's ledger block, the records it names, and its entries `[start, end)`. */
  readonly foreign?:
    | { readonly index: number; readonly recordIds: readonly string[]; readonly start: number; readonly end: number }
    | undefined;
}

/** Check and ingest `messages` (see the module comment). Throws InvalidInputError naming the message at fault. */
export function appendEntries(messages: readonly TranscriptMessage[], context: AppendContext): AppendEntries {
  const entries: AppendEntry[] = [];
  let byte = context.byteStart;
  // Our own rendered block coming back naming no record held here: imported as an external summary.
  const foreign = foreignBlock(messages, context.hasRecord);
  let start = 0;
  let end = 0;
  messages.forEach((message, index) => {
    if (index === foreign?.index) start = entries.length;
    validateMessage(message, `session ${context.sessionId}, message ${index} of this append`);
    const ingested = messageToEntries(message, {
      maxSpanTokens: context.maxSpanTokens,
      counter: context.counter,
      byteStart: byte,
      handleTokens: context.handleTokens,
      tokenMemo: context.tokenMemo,
    });
    appendAll(entries, ingested.entries);
    if (index === foreign?.index) end = entries.length;
    byte = ingested.byteEnd;
  });
  return { entries, byteEnd: byte, foreign: foreign && { ...foreign, start, end } };
}
