/**
 * The baselines, run as the real library code at the same token budget and with the same
 * o200k counter (message text + tool-call arguments + 4 tokens of framing per message):
 *
 * - `trim (LangChain)`: `trimMessages(messages, { strategy: 'last', maxTokens: budget,
 *   tokenCounter, includeSystem: true })` from `@langchain/core/messages`: the most recent
 *   whole messages that fit, plus the first system message.
 * - `prune+trim (AI SDK)`: `pruneMessages({ reasoning: 'before-last-message', toolCalls:
 *   'before-last-2-messages', emptyMessages: 'remove' })` from `ai` (the options of its
 *   documentation example). It removes tool calls and results older than the last two
 *   messages but cannot cut to a token budget by itself, so the pruned list is then cut to
 *   the most recent whole messages that fit the budget (plain loop, newest first).
 *
 * Both return the kept context as text (role header + content + tool-call arguments
 * verbatim), which the metrics search for handles.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import { pruneMessages } from 'ai';
import type { ModelMessage } from 'ai';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';

/** Framing tokens counted per message (the same 4 the ledger's window counts; kept here so the bench does not depend on window internals). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** A baseline context strategy. */
export interface BaselineArm {
  /** Arm name used in tables. */
  readonly name: string;
  /** The context this strategy keeps of `messages` at `budget` tokens, as text. */
  render(messages: readonly TranscriptMessage[], budget: number): Promise<string>;
}

/** Text of one transcript message as the metrics see it. */
export function messageText(message: TranscriptMessage): string {
  const calls = (message.toolCalls ?? []).map((call) => `[tool call ${call.name}] ${call.arguments}`);
  return [`[${message.role}]`, message.content, ...calls].filter((part) => part.length > 0).join('\n');
}

/** Token cost of a transcript message under `counter`, cached per message object. */
export function createMessageCost(counter: TokenCounter): (message: TranscriptMessage) => number {
  const cache = new WeakMap<TranscriptMessage, number>();
  return (message) => {
    let cost = cache.get(message);
    if (cost === undefined) {
      cost =
        counter.count(message.content) +
        (message.toolCalls ?? []).reduce(
          (sum, call) => sum + counter.count(call.arguments) + counter.count(call.name),
          0,
        ) +
        MESSAGE_OVERHEAD_TOKENS;
      cache.set(message, cost);
    }
    return cost;
  };
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: keep the raw text below
  }
  return { input: text };
}

function toLangChain(message: TranscriptMessage, id: string): BaseMessage {
  if (message.role === 'system') return new SystemMessage({ content: message.content, id });
  if (message.role === 'user') return new HumanMessage({ content: message.content, id });
  if (message.role === 'tool')
    return new ToolMessage({ content: message.content, tool_call_id: message.toolCallId ?? 'unknown', id });
  const toolCalls = (message.toolCalls ?? []).map((call) => ({
    id: call.id,
    name: call.name,
    args: parseArguments(call.arguments),
    type: 'tool_call' as const,
  }));
  return new AIMessage({ content: message.content, tool_calls: toolCalls, id });
}

/**
 * What `trimMessages` (strategy `last`, `includeSystem`, whole messages) can keep of `messages` at `budget`: the
 * first message when it is a system message, and the most recent messages up to and including the first that no
 * longer fits on its own count. Its cost grows with the square of the messages it is given, so the arm hands it
 * only these; what it keeps is the same.
 */
export function trimCandidates(
  messages: readonly TranscriptMessage[],
  budget: number,
  cost: (message: TranscriptMessage) => number,
): readonly TranscriptMessage[] {
  const system = messages[0]?.role === 'system' ? 1 : 0;
  let used = system === 1 ? cost(messages[0] as TranscriptMessage) : 0;
  let from = messages.length;
  while (from > system && used <= budget) used += cost(messages[--from] as TranscriptMessage);
  if (from <= system) return messages;
  return system === 1 ? [messages[0] as TranscriptMessage, ...messages.slice(from)] : messages.slice(from);
}

/**
 * The LangChain `trimMessages` baseline. `trimMessages` copies the messages it is given, so
 * each converted message carries an id that maps back to its transcript message (for the
 * cached token count and for the verbatim text).
 */
export function createLangChainTrimArm(counter: TokenCounter): BaselineArm & {
  /** The transcript messages `trimMessages` keeps of `messages` at `budget` tokens, in order. */
  keep(messages: readonly TranscriptMessage[], budget: number): Promise<TranscriptMessage[]>;
} {
  const cost = createMessageCost(counter);
  const converted = new WeakMap<TranscriptMessage, BaseMessage>();
  const source = new Map<string, TranscriptMessage>();
  const convert = (message: TranscriptMessage): BaseMessage => {
    let result = converted.get(message);
    if (!result) {
      const id = `bench-${source.size}`;
      result = toLangChain(message, id);
      converted.set(message, result);
      source.set(id, message);
    }
    return result;
  };
  const original = (message: BaseMessage): TranscriptMessage => {
    const found = message.id === undefined ? undefined : source.get(message.id);
    if (!found) throw new Error(`trimMessages returned a message without a known id (${String(message.id)})`);
    return found;
  };
  const tokenCounter = (list: BaseMessage[]): number => list.reduce((sum, message) => sum + cost(original(message)), 0);
  const keep = async (messages: readonly TranscriptMessage[], budget: number): Promise<TranscriptMessage[]> => {
    const kept = await trimMessages(trimCandidates(messages, budget, cost).map(convert), {
      strategy: 'last',
      maxTokens: budget,
      tokenCounter,
      includeSystem: true,
    });
    return kept.map(original);
  };
  return {
    name: 'trim (LangChain trimMessages)',
    keep,
    async render(messages, budget) {
      return (await keep(messages, budget)).map(messageText).join('\n\n');
    },
  };
}

function toModelMessage(message: TranscriptMessage): ModelMessage {
  if (message.role === 'system') return { role: 'system', content: message.content };
  if (message.role === 'user') return { role: 'user', content: message.content };
  if (message.role === 'tool') {
    const toolCallId = message.toolCallId ?? 'unknown';
    return {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: message.toolName ?? 'tool',
          output: { type: 'text', value: message.content },
        },
      ],
    };
  }
  const parts: Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string> = [];
  if (message.content.length > 0) parts.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? [])
    parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments });
  return { role: 'assistant', content: parts };
}

/** Text of a (pruned) AI SDK model message, with tool-call inputs verbatim. */
function modelMessageText(message: ModelMessage): string {
  if (typeof message.content === 'string') return `[${message.role}]\n${message.content}`;
  const parts = message.content.map((part) => {
    if (part.type === 'text') return part.text;
    if (part.type === 'tool-call')
      return `[tool call ${part.toolName}] ${typeof part.input === 'string' ? part.input : JSON.stringify(part.input)}`;
    if (part.type === 'tool-result')
      return part.output.type === 'text' ? part.output.value : JSON.stringify(part.output);
    return '';
  });
  return [`[${message.role}]`, ...parts].join('\n');
}

/** The AI SDK `pruneMessages` baseline, cut to the budget by keeping the most recent messages that fit. */
export function createAiSdkPruneArm(counter: TokenCounter): BaselineArm {
  const converted = new WeakMap<TranscriptMessage, ModelMessage>();
  const costs = new Map<string, number>();
  const cost = (message: ModelMessage): number => {
    const text = modelMessageText(message);
    let value = costs.get(text);
    if (value === undefined) {
      value = counter.count(text.slice(text.indexOf('\n') + 1)) + MESSAGE_OVERHEAD_TOKENS;
      if (costs.size > 50_000) costs.clear();
      costs.set(text, value);
    }
    return value;
  };
  return {
    name: 'prune+trim (AI SDK pruneMessages)',
    async render(messages, budget) {
      const model = messages.map((message) => {
        let result = converted.get(message);
        if (!result) converted.set(message, (result = toModelMessage(message)));
        return result;
      });
      const pruned = pruneMessages({
        messages: model,
        reasoning: 'before-last-message',
        toolCalls: 'before-last-2-messages',
        emptyMessages: 'remove',
      });
      const kept: ModelMessage[] = [];
      let used = 0;
      for (let index = pruned.length - 1; index >= 0; index--) {
        const message = pruned[index];
        if (!message) continue;
        const next = cost(message);
        if (used + next > budget) break;
        used += next;
        kept.unshift(message);
      }
      return kept.map(modelMessageText).join('\n\n');
    },
  };
}
