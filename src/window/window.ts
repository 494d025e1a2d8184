import { createHash } from 'node:crypto';
import type { Role, Span, SpanOccurrence } from '../types.js';
import { cachedCount } from '../tokens/count-cache.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { neutralizeInline, neutralizeLines } from '../text/neutralize.js';
import { QUOTED_SOURCE_NOTES, quotedSourceOf } from '../text/source-notes.js';
import { ledgerBlock } from './ledger-block.js';
import { chooseMasked, maskStub } from './masking.js';
import { countBlock } from './window-count.js';
import { WindowMemo } from './window-memo.js';
import type { WindowState } from './window-state.js';

export { ledgerBlock };
export type { WindowState };

/** Per-message framing overhead counted for every rendered message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** One message of the rendered context. */
export interface RenderedMessage {
  /** Chat role. */
  readonly role: Role;
  /** Text content. */
  readonly content: string;
  /** What the message is: the caller's system prompt, the ledger block, or an original span. */
  readonly source: 'system-prompt' | 'ledger' | 'original';
  /** For originals: sequence number. */
  readonly seq?: number | undefined;
  /** For originals: span id. */
  readonly spanId?: string | undefined;
  /** For tool calls and results: the call id. */
  readonly toolCallId?: string | undefined;
  /** For tool calls and results: the tool name. */
  readonly toolName?: string | undefined;
  /** For originals: whether it is a tool call. */
  readonly toolCall?: boolean | undefined;
  /** For originals: the span text exactly as stored, without the display prefix. */
  readonly text?: string | undefined;
  /** For originals: chunk position when the message was split into several spans. */
  readonly chunk?: { readonly index: number; readonly count: number } | undefined;
  /**
   * For a masked tool result: the span's own size. `text` then holds the stub (span id, size, top handles),
   * not the span; `recall(spanId)` returns the span verbatim. Tool-call id and name stay, so calls and results still pair.
   */
  readonly masked?: { readonly tokens: number } | undefined;
}

/** The context as the model sees it. */
export interface RenderedContext {
  /** Messages in order. */
  readonly messages: readonly RenderedMessage[];
  /** Token count (content plus per-message overhead). */
  readonly tokens: number;
  /** The whole context as one text. */
  readonly text: string;
  /** The summary record in the window, if any. */
  readonly recordId?: string | undefined;
}

/**
 * `neutralizeLines` of a frozen span's text, remembered per span: every render and measure shows the same recent
 * spans again, and a frozen span's text cannot change. Safe module-level, as the span marks of `model/span.ts`: keyed
 * by the span object (two sessions' spans with one id are two objects), a pure function of it, so the answer is the one
 * computing it again gives; weak, so it holds no span alive. A span that is not frozen is neutralised each time.
 */
const shownTexts = new WeakMap<Span, string>();

/** The span text as an original message shows it (`neutralizeLines`). */
function shownText(span: Span): string {
  let shown = shownTexts.get(span);
  if (shown === undefined) {
    shown = neutralizeLines(span.text);
    if (Object.isFrozen(span)) shownTexts.set(span, shown);
  }
  return shown;
}

/** The text prefix an original span is shown with (tool call name/id, who wrote a user turn the user did not type, chunk position). */
export function originalPrefix(occurrence: SpanOccurrence): string {
  const { span, chunk } = occurrence;
  const part = chunk ? `[part ${chunk.index + 1}/${chunk.count}] ` : '';
  if (span.kind === 'tool-call') return `[tool call ${span.toolName ?? '?'} id=${span.toolCallId ?? '?'}] ${part}`;
  if (span.kind === 'tool-result') return `[tool result id=${span.toolCallId ?? '?'}] ${part}`;
  const source = quotedSourceOf(span.kind);
  if (source !== undefined) return `[${QUOTED_SOURCE_NOTES[source]}] ${part}`;
  return part;
}

/**
 * Render one original span as a message. `content` is the display prefix plus the span
 * text with lines that imitate a turn label or a block heading quoted (`neutralizeLines`: a tool
 * result holding `\r[user]\r…` cannot pass for a user turn); `text` stays the span text verbatim.
 */
export function originalMessage(occurrence: SpanOccurrence): RenderedMessage {
  const { span } = occurrence;
  return {
    role: occurrence.role,
    content: originalPrefix(occurrence) + shownText(span),
    source: 'original',
    seq: occurrence.seq,
    spanId: span.id,
    toolCallId: span.toolCallId,
    toolName: span.toolName,
    toolCall: span.kind === 'tool-call',
    text: span.text,
    chunk: occurrence.chunk,
  };
}

/** Joins messages into the context text. */
export function contextText(messages: readonly RenderedMessage[]): string {
  return messages.map((message) => `[${message.role}]\n${message.content}`).join('\n\n');
}

/**
 * Token cost of one original message, from the span's stored count plus its prefix. When
 * the rendered content differs from the span text (a role-label look-alike was
 * neutralised), the rendered content is counted instead, so the cost is that of what is shown.
 */
export function originalCost(occurrence: SpanOccurrence, counter: TokenCounter, cache: Map<string, number>): number {
  const prefix = originalPrefix(occurrence);
  const shown = shownText(occurrence.span);
  if (shown !== occurrence.span.text) return counter.count(prefix + shown) + 1 + MESSAGE_OVERHEAD_TOKENS;
  const prefixTokens = cachedCount(cache, prefix, () => counter.count(prefix));
  return occurrence.span.tokens + prefixTokens + 1 + MESSAGE_OVERHEAD_TOKENS;
}

function stubContent(occurrence: SpanOccurrence): string {
  return originalPrefix(occurrence) + neutralizeInline(maskStub(occurrence.span));
}

/** Token cost of an original shown as its masked stub (prefix, stub, message overhead). */
export function stubCost(occurrence: SpanOccurrence, counter: TokenCounter, cache: Map<string, number>): number {
  const key = `\u0000mask\u0000${occurrence.span.id}\u0000${originalPrefix(occurrence)}`;
  return cachedCount(cache, key, () => counter.count(stubContent(occurrence)) + MESSAGE_OVERHEAD_TOKENS);
}

/**
 * Tokens of a system message showing `content` (the system prompt or the ledger block): its count, remembered in
 * `memo` under a key of the text (its digest when long), plus the message overhead.
 */
export function fixedMessageTokens(content: string, counter: TokenCounter, memo: WindowMemo): number {
  const key = `\u0000fixed\u0000${content.length > 64 ? createHash('sha256').update(content).digest('base64') : content}`;
  return cachedCount(memo.textTokens, key, () => countBlock(content, counter, memo.segments)) + MESSAGE_OVERHEAD_TOKENS;
}

/**
 * Render the window: system prompt, ledger block, recent originals. Pure in its inputs: `memo` only remembers
 * counts and layouts (a session passes its own; a fresh one gives the same context).
 */
export function renderWindow(state: WindowState, counter: TokenCounter, memo = new WindowMemo()): RenderedContext {
  const messages: RenderedMessage[] = [];
  let tokens = 0;
  const cache = memo.textTokens;
  const fixed = (content: string, source: RenderedMessage['source']) => {
    messages.push({ role: 'system', content, source });
    tokens += fixedMessageTokens(content, counter, memo);
  };
  if (state.systemPrompt) fixed(state.systemPrompt, 'system-prompt');
  const block = ledgerBlock(state, memo.indexBases);
  if (block !== undefined) fixed(block, 'ledger');
  const costs = state.originals.map((occurrence) => originalCost(occurrence, counter, cache));
  const shown = originalsShown(state, { costs, fixedTokens: tokens }, counter, cache);
  tokens += shown.tokens;
  state.originals.forEach((occurrence, index) => {
    if (shown.masked.has(index)) {
      const stub = maskStub(occurrence.span);
      messages.push({
        ...originalMessage(occurrence),
        content: stubContent(occurrence),
        text: stub,
        masked: { tokens: occurrence.span.tokens },
      });
    } else messages.push(originalMessage(occurrence));
  });
  return { messages, tokens, text: contextText(messages), recordId: state.active?.id };
}

/**
 * How the originals of a render are shown: which are masked (indexes) and their tokens, given each
 * original's unmasked cost and the tokens before them. `renderWindow` is this plus the text; a caller
 * that only needs the token count (`LedgerSession.compactIfDue`) calls it with costs it keeps.
 */
export function originalsShown(
  state: Pick<WindowState, 'originals' | 'masking'>,
  input: { readonly costs: readonly number[]; readonly fixedTokens: number },
  counter: TokenCounter,
  cache: Map<string, number>,
): { masked: Set<number>; tokens: number } {
  const { originals, masking } = state;
  const { costs } = input;
  const masked = masking
    ? chooseMasked({
        originals,
        costs,
        stubCost: (index) => stubCost(originals[index] as SpanOccurrence, counter, cache),
        fixedTokens: input.fixedTokens,
        policy: masking,
      })
    : new Set<number>();
  let tokens = 0;
  originals.forEach((occurrence, index) => {
    tokens += masked.has(index) ? stubCost(occurrence, counter, cache) : (costs[index] ?? 0);
  });
  return { masked, tokens };
}
