/**
 * Replays a transcript through a context-ledger session (memory store, o200k counter,
 * extractive summarizer) the way the CLI replay does — append, then render, after each user
 * message, tool result or tool-calling assistant message — and calls back at measurement
 * points: every `every` messages, at forced points (e.g. an agent's own compaction boundary)
 * and right after each render that compacted.
 */
import { createLedger } from '../../src/session/ledger.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { LedgerSession } from '../../src/session/session.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import type { SpanOccurrence } from '../../src/types.js';
import { MESSAGE_OVERHEAD_TOKENS, contextText, originalCost, originalMessage } from '../../src/window/window.js';
import type { RenderedContext, RenderedMessage } from '../../src/window/window.js';

/** What the callback sees at a measurement point. */
export interface ReplayPoint {
  /** Messages appended before this point. */
  readonly at: number;
  /** Why the point was taken. */
  readonly reason: 'interval' | 'forced' | 'compaction';
  /** The session (recall, records, handle index). */
  readonly session: LedgerSession;
  /** The store behind it. */
  readonly store: LedgerStore;
  /** context-ledger's rendered context. */
  readonly rendered: RenderedContext;
  /** The summary-only arm's context text (see {@link summaryOnlyText}). */
  readonly summaryOnly: string;
}

/** Options of {@link replayLedger}. */
export interface ReplayOptions {
  /** Token budget (`window.maxTokens`). */
  readonly budget: number;
  /** Take a point every this many messages (0: none). */
  readonly every: number;
  /** Message counts at which to take a point (the transcript is flushed there). */
  readonly forcedPoints?: readonly number[] | undefined;
  /** The counter. */
  readonly counter: TokenCounter;
  /** Called at every point, awaited. */
  readonly onPoint?: ((point: ReplayPoint) => Promise<void>) | undefined;
}

/**
 * The summary-only arm: the active record's summary prose, with no handle index and no
 * pinned constraints, followed by the most recent original spans that fit the same budget
 * (so it gets the room the handle index would have used). Before any compaction it is just
 * the most recent spans that fit.
 */
export function summaryOnlyText(
  session: LedgerSession,
  history: readonly SpanOccurrence[],
  budget: number,
  counter: TokenCounter,
  cache: Map<string, number>,
): string {
  const summary = session.activeRecord()?.summary ?? '';
  const used = summary.length > 0 ? counter.count(summary) + MESSAGE_OVERHEAD_TOKENS : 0;
  const messages = recentThatFit(history, budget - used, counter, cache);
  if (summary.length > 0) messages.unshift({ role: 'system', content: `Summary: ${summary}`, source: 'ledger' });
  return contextText(messages);
}

/** The most recent originals of `history` whose rendered cost fits `budget`, oldest first (trim). */
export function recentThatFit(
  history: readonly SpanOccurrence[],
  budget: number,
  counter: TokenCounter,
  cache: Map<string, number>,
): RenderedMessage[] {
  const messages: RenderedMessage[] = [];
  let used = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    const occurrence = history[index];
    if (!occurrence) continue;
    const cost = originalCost(occurrence, counter, cache);
    if (used + cost > budget) break;
    used += cost;
    messages.unshift(originalMessage(occurrence));
  }
  return messages;
}

/** Replay `messages` at `options.budget`; returns the session and every appended occurrence. */
export async function replayLedger(
  sessionId: string,
  messages: readonly TranscriptMessage[],
  options: ReplayOptions,
): Promise<{ session: LedgerSession; store: LedgerStore; history: SpanOccurrence[] }> {
  const store = createMemoryStore();
  const ledger = createLedger({ store, tokenCounter: options.counter });
  const session = await ledger.session(sessionId, { window: { maxTokens: options.budget } });
  const history: SpanOccurrence[] = [];
  const costCache = new Map<string, number>();
  const forced = new Set(options.forcedPoints ?? []);
  let batch: TranscriptMessage[] = [];
  let appended = 0;
  let nextInterval = options.every > 0 ? options.every : Number.POSITIVE_INFINITY;
  let lastPoint = -1;
  // One point per appended count: a compaction point and a forced point at the same count are the same context.
  const point = async (reason: ReplayPoint['reason'], rendered: RenderedContext) => {
    if (!options.onPoint || appended === lastPoint) return;
    lastPoint = appended;
    const summaryOnly = summaryOnlyText(session, history, options.budget, options.counter, costCache);
    await options.onPoint({ at: appended, reason, session, store, rendered, summaryOnly });
  };
  const flush = async (forcedPoint: boolean) => {
    if (batch.length > 0) {
      history.push(...(await session.append(batch)));
      appended += batch.length;
      batch = [];
    }
    const before = session.records().length;
    const rendered = await session.render();
    if (session.records().length > before) await point('compaction', rendered);
    else if (forcedPoint) await point('forced', rendered);
    else if (appended >= nextInterval) await point('interval', rendered);
    while (appended >= nextInterval) nextInterval += options.every;
  };
  for (const [index, message] of messages.entries()) {
    if (forced.has(index) && (batch.length > 0 || index > 0)) await flush(true);
    batch.push(message);
    if (message.role !== 'assistant' || (message.toolCalls ?? []).length > 0) await flush(false);
  }
  await flush(forced.has(messages.length));
  return { session, store, history };
}
