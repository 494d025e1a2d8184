/**
 * A Claude Code-style baseline for the prompt-cache arm: the context grows untouched until, at a model call, it
 * is over `compactAt` of the window; then it is replaced by the first system message, a summary and the most
 * recent whole messages that fit, and that prefix is left alone until the next time the threshold is crossed.
 *
 * The summary is a stand-in of `summaryShare` of the window: the start of the dropped messages' text, cut to that
 * many tokens. For the cache only its size and its being new text matter (a real summary would also cost a model
 * call, not counted here); it is not a quality arm.
 */
import type { TokenCounter, TranscriptMessage } from '../../src/index.js';
import { messageText } from '../quality/baseline-arms.js';
import { promptTokens } from './prompt-cache.js';
import type { PromptMessage } from './prompt-cache.js';

/** The arm's settings, as shares of the window. */
export interface CompactAtThresholdOptions {
  /** Compact when a prompt would be over this share of the window (default 0.95, context-ledger's `compactAt`). */
  readonly compactAt: number;
  /** Size of the summary (default 0.1). */
  readonly summaryShare: number;
  /** The whole prompt right after a compaction: system message, summary and recent tail (default 0.5). */
  readonly keepShare: number;
}

/** The defaults, stated in the results. */
export const COMPACT_AT_THRESHOLD_DEFAULTS: CompactAtThresholdOptions = {
  compactAt: 0.95,
  summaryShare: 0.1,
  keepShare: 0.5,
};

/** A transcript message as a prompt message (role, and its text with tool calls, as the other baselines show it). */
export function promptMessage(message: TranscriptMessage): PromptMessage {
  return { role: message.role, content: messageText(message) };
}

/** The longest start of `text` that counts at most `tokens` (binary search on the length). */
function cutToTokens(text: string, tokens: number, count: (text: string) => number): string {
  if (count(text) <= tokens) return text;
  let low = 0;
  let high = Math.min(text.length, tokens * 16);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (count(text.slice(0, middle)) <= tokens) low = middle;
    else high = middle - 1;
  }
  return text.slice(0, low);
}

/**
 * The arm over one session at `budget` tokens. `prompt(messages, at)` gives the prompt before the model call that
 * follows messages `[0, at)`; calls must come in increasing `at`.
 */
export function createCompactAtThresholdArm(
  counter: TokenCounter,
  budget: number,
  options: CompactAtThresholdOptions = COMPACT_AT_THRESHOLD_DEFAULTS,
): { prompt(messages: readonly TranscriptMessage[], at: number): PromptMessage[]; compactions(): number } {
  const count = (text: string): number => counter.count(text);
  const costs = new WeakMap<PromptMessage, number>();
  const cost = (message: PromptMessage): number => {
    let value = costs.get(message);
    if (value === undefined) costs.set(message, (value = promptTokens([message], count)));
    return value;
  };
  let system: PromptMessage | undefined;
  let live: PromptMessage[] = [];
  let appended = 0;
  let compactions = 0;
  const compact = () => {
    const fixed = system ? cost(system) : 0;
    const summaryTokens = Math.floor(budget * options.summaryShare);
    const tail: PromptMessage[] = [];
    let used = fixed + summaryTokens;
    for (let index = live.length - 1; index >= 0; index--) {
      const message = live[index] as PromptMessage;
      const next = cost(message);
      if (used + next > budget * options.keepShare) break;
      used += next;
      tail.unshift(message);
    }
    const dropped = live.slice(0, live.length - tail.length);
    const summary = cutToTokens(dropped.map((message) => message.content).join('\n\n'), summaryTokens, count);
    compactions++;
    live = [{ role: 'user', content: `Summary of the conversation so far (compaction ${compactions}):\n${summary}` }];
    live.push(...tail);
  };
  return {
    prompt(messages, at) {
      if (at < appended) throw new Error(`prompts must come in order (asked for ${at} after ${appended})`);
      for (const message of messages.slice(appended, at)) {
        if (!system && live.length === 0 && message.role === 'system') system = promptMessage(message);
        else live.push(promptMessage(message));
      }
      appended = at;
      // A new array each time: a caller keeps the previous prompt to compare with (the prompt-cache meter), and
      // `live` grows in place, so handing it out would make every earlier prompt grow with it.
      const current = (): PromptMessage[] => (system ? [system, ...live] : [...live]);
      const tokens = current().reduce((sum, message) => sum + cost(message), 0);
      if (tokens > budget * options.compactAt) compact();
      return current();
    },
    compactions: () => compactions,
  };
}
