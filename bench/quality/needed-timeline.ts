/**
 * The yardstick of `future-needed.ts` at every cut of a transcript at once. A token by `identifierTokens` never
 * holds white space, so it is in the text before a cut exactly when some earlier message's `transcriptText` holds
 * it, and it is future-needed at cut `c` exactly when it first appears in a message before `c` and the agent
 * writes it in a message at or after `c`. So each candidate (every token the agent writes anywhere) needs only the
 * index of the first message holding it and of the last message where the agent writes it.
 */
import type { TranscriptMessage } from '../../src/index.js';
import { agentWritten, identifierTokens, transcriptText } from './future-needed.js';

/** Per candidate token: where it first appears and where the agent last writes it. */
export interface NeededTimeline {
  /** Every token the agent writes, in order of its last use. */
  readonly tokens: readonly string[];
  /** Index of the first message whose text holds the token (messages.length when none does). */
  readonly firstSeen: readonly number[];
  /** Index of the last message in which the agent writes the token. */
  readonly lastUsed: readonly number[];
}

/** The index of the last start in `starts` (ascending, starting at 0) that is at most `position`. */
function messageAt(starts: readonly number[], position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((starts[middle] as number) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Build the timeline of `messages`. */
export function neededTimeline(messages: readonly TranscriptMessage[]): NeededTimeline {
  const last = new Map<string, number>();
  for (const [index, message] of messages.entries())
    for (const token of agentWritten(message).flatMap(identifierTokens)) {
      last.delete(token);
      last.set(token, index);
    }
  const tokens = [...last.keys()];
  const starts: number[] = [];
  let length = 0;
  const texts = messages.map((message) => {
    const text = transcriptText(message);
    starts.push(length);
    length += text.length + 1;
    return text;
  });
  const all = texts.join('\n');
  const firstSeen = tokens.map((token) => {
    const position = all.indexOf(token);
    return position < 0 ? messages.length : messageAt(starts, position);
  });
  return { tokens, firstSeen, lastUsed: tokens.map((token) => last.get(token) as number) };
}

/** The future-needed handles at `cut` (the same set as `futureNeeded(messages, cut)`). */
export function neededAt(timeline: NeededTimeline, cut: number): string[] {
  return timeline.tokens.filter(
    (_token, index) => (timeline.firstSeen[index] as number) < cut && (timeline.lastUsed[index] as number) >= cut,
  );
}
