import type { LanguageModelV3Middleware, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { LedgerSession } from '../../session/session.js';
import type { SpanOccurrence } from '../../types.js';
import type { RenderedContext } from '../../window/window.js';
import { promptToTranscript, splitPrompt } from './prompt-to-transcript.js';
import { renderedToPrompt } from './rendered-to-prompt.js';

/** What the middleware did for one model call. */
export interface LedgerRenderEvent {
  /** Spans appended for this call (empty when the prompt brought nothing new). */
  readonly appended: readonly SpanOccurrence[];
  /** The context the session rendered (after any compaction). */
  readonly rendered: RenderedContext;
  /** The prompt sent to the model instead of the caller's. */
  readonly prompt: LanguageModelV3Prompt;
  /** Prompt messages after the leading system messages that the caller sent. */
  readonly promptMessages: number;
  /** How many of those are now in the ledger. */
  readonly ingestedMessages: number;
}

/** Options of {@link ledgerMiddleware}. */
export interface LedgerMiddlewareOptions {
  /** The session the conversation is kept in. Open it with the same `systemPrompt` you pass as `system`, so the window budget counts it. */
  readonly session: LedgerSession;
  /**
   * Prompt messages (after the leading system messages) already in the ledger, when
   * resuming a conversation in a new process. Default 0.
   */
  readonly alreadyIngested?: number | undefined;
  /**
   * Names of recall tools in the agent (default `['recall']`). Their results are appended
   * without the text of unverified hits, so nothing unverified is indexed as a handle.
   */
  readonly recallToolNames?: readonly string[] | undefined;
  /** Called after every render, e.g. for logging or tests. */
  readonly onRender?: ((event: LedgerRenderEvent) => void) | undefined;
}

/**
 * AI SDK middleware that keeps the conversation in a context-ledger session. On every call
 * (`generate` or `stream`) it:
 *
 * 1. splits off the prompt's leading system messages: the caller's system prompt, sent
 *    verbatim first and never appended or compacted;
 * 2. appends the prompt messages the ledger has not seen yet. The AI SDK resends the whole
 *    history on every step, so the middleware counts how many prompt messages it has
 *    ingested and appends only the ones after that. A prompt no longer than what was already
 *    ingested appends nothing (the ledger already has the history; the model still sees
 *    the ledger's window). So: pass the full history on every call, as the AI SDK does,
 *    and use a new session (and middleware) for a new conversation. Results of the recall
 *    tool are appended without the text of unverified hits (invariant 7);
 * 3. renders the session (compacting when over budget) and replaces the prompt with the
 *    system prompt, the ledger block (summary, pinned constraints, handle index, gaps) and
 *    the recent originals, mapped back to V3 messages.
 *
 * Model-call options other than the prompt (tools, settings) pass through unchanged.
 */
export function ledgerMiddleware(options: LedgerMiddlewareOptions): LanguageModelV3Middleware {
  const { session, onRender } = options;
  let ingested = options.alreadyIngested ?? 0;
  return {
    specificationVersion: 'v3',
    async transformParams({ params }) {
      const { system, conversation } = splitPrompt(params.prompt);
      const fresh = conversation.length > ingested ? conversation.slice(ingested) : [];
      ingested = Math.max(ingested, conversation.length);
      const appended =
        fresh.length > 0
          ? await session.append(promptToTranscript(fresh, { recallToolNames: options.recallToolNames }))
          : [];
      const rendered = await session.render();
      const prompt = renderedToPrompt(rendered, system);
      onRender?.({ appended, rendered, prompt, promptMessages: conversation.length, ingestedMessages: ingested });
      return { ...params, prompt };
    },
  };
}
