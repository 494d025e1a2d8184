/**
 * The context-ledger arm of the yardstick, through the public API only (`createLedger`,
 * `createMemoryStore`, `session.append`, `session.render`, the session's read methods), so it
 * keeps measuring the library while its internals change: the messages before a cut are
 * appended the way an agent loop would (render after each user message, tool result or
 * tool-calling assistant message), and the last render is the context at the cut.
 */
import { createLedger, createMemoryStore } from '../../src/index.js';
import type {
  LedgerOptions,
  LedgerSession,
  LedgerStore,
  RenderedContext,
  SessionOptions,
  TokenCounter,
  TranscriptMessage,
} from '../../src/index.js';

/** Extra options of the replayed ledger and session (e.g. ranking weights being cross-validated). */
export interface ReplayOptions {
  /** Passed to `createLedger` (the store and counter are the replay's own). */
  readonly ledger?: Omit<LedgerOptions, 'store' | 'tokenCounter'> | undefined;
  /** Passed to `ledger.session`; `window.maxTokens` is always the budget. */
  readonly session?: SessionOptions | undefined;
}

/** A session replayed up to a cut, and its context there. */
export interface ReplayedCut {
  /** The session (recall, records, gaps). */
  readonly session: LedgerSession;
  /** The rendered context at the cut. */
  readonly rendered: RenderedContext;
  /** The replay's own memory store (for diagnosis: what was stored but not shown). */
  readonly store: LedgerStore;
}

/** Replay `messages` into a memory-store session with `window.maxTokens = budget`; render at the end. */
export async function replayToCut(
  sessionId: string,
  messages: readonly TranscriptMessage[],
  budget: number,
  counter: TokenCounter,
  options: ReplayOptions = {},
): Promise<ReplayedCut> {
  const store = createMemoryStore();
  const ledger = createLedger({ ...options.ledger, store, tokenCounter: counter });
  const sessionOptions = options.session ?? {};
  const session = await ledger.session(sessionId, {
    ...sessionOptions,
    window: { ...sessionOptions.window, maxTokens: budget },
  });
  let batch: TranscriptMessage[] = [];
  for (const message of messages) {
    batch.push(message);
    if (message.role === 'assistant' && (message.toolCalls ?? []).length === 0) continue;
    await session.append(batch);
    batch = [];
    await session.render();
  }
  if (batch.length > 0) await session.append(batch);
  return { session, store, rendered: await session.render() };
}

/**
 * The ledger's context with the handle index and the pinned constraints taken out: every message
 * as rendered, except that the ledger's own block is reduced to the active record's summary prose
 * (`Summary: …`), which is what the same summarizer leaves without an index. Empty block → no message.
 */
export function withoutHandleIndex(replayed: ReplayedCut): string {
  const summary = replayed.session.activeRecord()?.summary ?? '';
  const messages = replayed.rendered.messages.flatMap((message) => {
    if (message.source !== 'ledger') return [message];
    return summary.length > 0 ? [{ ...message, content: `Summary: ${summary}` }] : [];
  });
  return messages.map((message) => `[${message.role}]\n${message.content}`).join('\n\n');
}

/** The ledger block's text in the rendered context ('' when there is none). */
export function ledgerBlockText(rendered: RenderedContext): string {
  return rendered.messages
    .filter((message) => message.source === 'ledger')
    .map((message) => message.content)
    .join('\n');
}

/**
 * Handles the ledger block shows in its index: the active record's non-constraint handles whose
 * text is in the block (the record may hold more than the block had room for).
 */
export function shownIndexHandles(replayed: ReplayedCut): string[] {
  const block = ledgerBlockText(replayed.rendered);
  const handles = replayed.session.activeRecord()?.handles ?? [];
  return [...new Set(handles.filter((handle) => handle.kind !== 'constraint').map((handle) => handle.text))].filter(
    (text) => block.includes(text),
  );
}
