/**
 * The prompt-cache yardstick: how much of each prompt a provider's prompt cache could serve, and what the input
 * would cost under a stated price model. Defined here, on the prompts as messages, with no code of the library:
 *
 * - A prompt is a list of messages; its size is the o200k count of every content plus
 *   {@link MESSAGE_OVERHEAD_TOKENS} framing tokens per message.
 * - Its cached prefix is its longest common token prefix with the previous prompt: every leading message equal to
 *   the previous prompt's message at the same place (role and content) counts whole; in the first message that
 *   differs (same role), the common text up to the start of its last common line counts (a line start followed by
 *   a character that is neither white space nor `/` is a pre-token boundary of o200k in both texts, and BPE never
 *   merges across one, so those tokens are exactly shared); nothing after that. The first prompt of a session has no cached prefix.
 * - Price model ({@link PRICE_MODEL}): after each prompt the provider caches it whole; the cached prefix is read at
 *   0.1x the base input price, every other token of the prompt is written to the cache at 1.25x; without caching
 *   every token costs 1x. The relative cost is the first over the second.
 */
import type { TokenCounter } from '../../src/index.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../quality/baseline-arms.js';

/** One message of a prompt as the cache sees it. */
export interface PromptMessage {
  readonly role: string;
  readonly content: string;
}

/** The price model, in multiples of the base input price per token. */
export const PRICE_MODEL = {
  /** A token read from the cache. */
  cacheRead: 0.1,
  /** A token written to the cache (every prompt token not read from it). */
  cacheWrite: 1.25,
  /** A token without caching. */
  uncached: 1,
  /** The model in words, for results. */
  description:
    'each prompt is cached whole after it is sent; its longest common token prefix with the previous prompt is read at 0.1x the base input price, the rest written at 1.25x; no caching = every token at 1x; cache entries never expire between turns',
} as const;

/** A prompt whose cached prefix is below this share counts as mostly uncached. */
export const MOSTLY_UNCACHED_BELOW = 0.5;

/**
 * Length of the common text of `a` and `b` that ends at a shared token boundary: `a === b` gives the whole length;
 * otherwise the common prefix is cut back to the start of its last line at which both texts end or go on with a
 * character other than white space or `/` (0 when there is none).
 */
export function sharedLineStart(a: string, b: string): number {
  if (a === b) return a.length;
  const limit = Math.min(a.length, b.length);
  let common = 0;
  while (common < limit && a.charCodeAt(common) === b.charCodeAt(common)) common++;
  // A line start `p` (text[p - 1] === '\n') is a pre-token boundary of a text when the text ends there or goes on
  // with a character that is neither white space nor '/' (o200k's punctuation pre-token may run on over newlines
  // into a '/'); it must be one in both texts.
  const boundary = (text: string, at: number) => at === text.length || /[^\s/]/.test(text.charAt(at));
  for (let start = common; start > 0; start--)
    if (a.charCodeAt(start - 1) === 10 && boundary(a, start) && boundary(b, start)) return start;
  return 0;
}

/** Tokens of a prompt: content plus framing per message. */
export function promptTokens(prompt: readonly PromptMessage[], count: (text: string) => number): number {
  return prompt.reduce((sum, message) => sum + count(message.content) + MESSAGE_OVERHEAD_TOKENS, 0);
}

/** Tokens of `current` that are a prefix of `previous` (see the module comment); 0 without a previous prompt. */
export function cachedPrefixTokens(
  previous: readonly PromptMessage[] | undefined,
  current: readonly PromptMessage[],
  count: (text: string) => number,
): number {
  if (!previous) return 0;
  let tokens = 0;
  for (let index = 0; index < Math.min(previous.length, current.length); index++) {
    const before = previous[index] as PromptMessage;
    const now = current[index] as PromptMessage;
    if (before.role !== now.role) break;
    if (before.content === now.content) {
      tokens += count(now.content) + MESSAGE_OVERHEAD_TOKENS;
      continue;
    }
    tokens += count(now.content.slice(0, sharedLineStart(before.content, now.content)));
    break;
  }
  return tokens;
}

/** Input cost of one prompt with caching, in base-price tokens. */
export function cachedCost(tokens: number, prefix: number): number {
  return prefix * PRICE_MODEL.cacheRead + (tokens - prefix) * PRICE_MODEL.cacheWrite;
}

/** The running totals of one arm over a sequence of prompts. */
export interface CacheTally {
  prompts: number;
  tokens: number;
  prefixTokens: number;
  mostlyUncached: number;
  /** With caching, in base-price tokens. */
  cost: number;
}

/** An empty tally. */
export function emptyTally(): CacheTally {
  return { prompts: 0, tokens: 0, prefixTokens: 0, mostlyUncached: 0, cost: 0 };
}

/** The tallies of several sessions as one: every count summed (a pooled share weighs each session by its tokens). */
export function poolTallies(tallies: readonly CacheTally[]): CacheTally {
  const pooled = emptyTally();
  for (const tally of tallies) {
    pooled.prompts += tally.prompts;
    pooled.tokens += tally.tokens;
    pooled.prefixTokens += tally.prefixTokens;
    pooled.mostlyUncached += tally.mostlyUncached;
    pooled.cost += tally.cost;
  }
  return pooled;
}

/** Add one prompt of `tokens` tokens with `prefix` of them cached. */
export function addPrompt(tally: CacheTally, tokens: number, prefix: number): void {
  if (prefix < 0 || prefix > tokens) throw new Error(`cached prefix ${prefix} outside the prompt's ${tokens} tokens`);
  tally.prompts++;
  tally.tokens += tokens;
  tally.prefixTokens += prefix;
  if (tokens > 0 && prefix / tokens < MOSTLY_UNCACHED_BELOW) tally.mostlyUncached++;
  tally.cost += cachedCost(tokens, prefix);
}

/** Share of all prompt tokens that were a cached prefix (null for no tokens). */
export function prefixShare(tally: CacheTally): number | null {
  return tally.tokens === 0 ? null : tally.prefixTokens / tally.tokens;
}

/** Input cost with caching relative to the same prompts without caching (null for no tokens). */
export function relativeCost(tally: CacheTally): number | null {
  return tally.tokens === 0 ? null : tally.cost / (tally.tokens * PRICE_MODEL.uncached);
}

/**
 * Follows one arm's prompts in order: each call measures a prompt against the one before and adds it to the tally.
 * Counts are memoised per content text (a prompt repeats most of the previous one's messages).
 */
export function createPromptCacheMeter(counter: TokenCounter): {
  readonly tally: CacheTally;
  measure(prompt: readonly PromptMessage[]): { tokens: number; prefix: number };
} {
  const memo = new Map<string, number>();
  const count = (text: string): number => {
    let value = memo.get(text);
    if (value === undefined) {
      value = counter.count(text);
      if (memo.size > 20_000) memo.clear();
      memo.set(text, value);
    }
    return value;
  };
  const tally = emptyTally();
  let previous: readonly PromptMessage[] | undefined;
  return {
    tally,
    measure(prompt) {
      const tokens = promptTokens(prompt, count);
      const prefix = cachedPrefixTokens(previous, prompt, count);
      addPrompt(tally, tokens, prefix);
      // A copy: an arm may go on appending to the array it handed out, which would change the prompt compared with.
      previous = [...prompt];
      return { tokens, prefix };
    },
  };
}
