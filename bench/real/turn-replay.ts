/**
 * Turn-by-turn replay, the way an agent loop calls a model: a prompt is taken before each assistant turn (an
 * assistant message whose previous message is not an assistant message), and what came before it is what the model
 * is given. The context-ledger arm appends what arrived since the last prompt and renders (public API only:
 * `createLedger`, `createMemoryStore`, `session.append`, `session.render`), so the session compacts where a real
 * agent's would, at a model call.
 */
import { createLedger, createMemoryStore } from '../../src/index.js';
import type { LedgerSession, RenderedContext, TokenCounter, TranscriptMessage } from '../../src/index.js';
import { windowAt } from '../window-options.js';
import type { BenchWindowOptions } from '../window-options.js';

/** Indexes of the messages that start an assistant turn (a model call is made just before each). */
export function assistantTurnStarts(messages: readonly TranscriptMessage[]): number[] {
  const starts: number[] = [];
  for (const [index, message] of messages.entries())
    if (message.role === 'assistant' && index > 0 && messages[index - 1]?.role !== 'assistant') starts.push(index);
  return starts;
}

/** What the context-ledger arm gives the model before one assistant turn. */
export interface LedgerPrompt {
  /** Messages `[0, at)` came before this prompt. */
  readonly at: number;
  /** The rendered context. */
  readonly rendered: RenderedContext;
  /** The session (records so far). */
  readonly session: LedgerSession;
}

/**
 * Replay `messages` into a memory-store session at `budget` tokens (window options: `window`, from `--window`, else
 * the defaults), calling `onPrompt` with the render before each assistant turn; `onProgress` is called with the share
 * of turns done, about every 5%.
 */
export async function replayLedgerTurns(
  sessionId: string,
  messages: readonly TranscriptMessage[],
  budget: number,
  counter: TokenCounter,
  onPrompt: (prompt: LedgerPrompt) => void | Promise<void>,
  onProgress?: (done: number) => void,
  window?: BenchWindowOptions,
): Promise<LedgerSession> {
  const ledger = createLedger({ store: createMemoryStore(), tokenCounter: counter });
  const session = await ledger.session(sessionId, { window: windowAt(window, budget) });
  const starts = assistantTurnStarts(messages);
  let appended = 0;
  let reported = 0;
  for (const [turn, at] of starts.entries()) {
    if (at > appended) await session.append(messages.slice(appended, at));
    appended = at;
    await onPrompt({ at, rendered: await session.render(), session });
    if (onProgress && (turn + 1) / starts.length >= reported + 0.05) {
      reported = (turn + 1) / starts.length;
      onProgress(reported);
    }
  }
  return session;
}
