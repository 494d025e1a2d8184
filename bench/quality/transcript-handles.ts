/**
 * Handles of a transcript, message by message, as the quality metrics need them: which
 * handles had appeared before a point, which the agent used after it, and which negative
 * constraints the user had stated.
 *
 * Tracked handles: every extractor kind except `constraint` (measured separately) and
 * `number` (a bare number is trivially "present" as a substring of unrelated text), with at
 * least 4 characters. Presence is tested by verbatim substring match on the rendered text.
 */
import { extractHandles } from '../../src/handles/extract.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';

/** Handles of one message. */
export interface MessageHandles {
  /** Tracked handle texts anywhere in the message (content, tool-call arguments, tool results). */
  readonly all: ReadonlySet<string>;
  /** Tracked handle texts the agent itself wrote (assistant content and tool-call arguments). */
  readonly used: ReadonlySet<string>;
  /** Negative constraints stated by the user in this message, verbatim. */
  readonly userConstraints: readonly string[];
}

/** True for the handles the recall metrics track. */
export function isTracked(kind: string, text: string): boolean {
  return kind !== 'constraint' && kind !== 'number' && text.length >= 4;
}

/** Tracked handle texts of a text. */
export function trackedHandles(text: string): string[] {
  return extractHandles(text)
    .filter((handle) => isTracked(handle.kind, handle.text))
    .map((handle) => handle.text);
}

/** Extract the handles of every message once. */
export function messageHandles(messages: readonly TranscriptMessage[]): MessageHandles[] {
  return messages.map((message) => {
    const fromContent = trackedHandles(message.content);
    const fromCalls = (message.toolCalls ?? []).flatMap((call) => trackedHandles(call.arguments));
    const userConstraints =
      message.role === 'user'
        ? extractHandles(message.content)
            .filter((handle) => handle.kind === 'constraint')
            .map((handle) => handle.text)
        : [];
    return {
      all: new Set([...fromContent, ...fromCalls]),
      used: new Set(message.role === 'assistant' ? [...fromContent, ...fromCalls] : []),
      userConstraints,
    };
  });
}

/** Per-point views over a transcript's handles (suffix sets are precomputed once). */
export interface HandleTimeline {
  /** Handles that appeared in messages `[0, at)` and that the agent used in messages `[at, end)`. */
  futureNeeded(at: number): string[];
  /** Distinct user-stated constraints of messages `[0, at)`. */
  constraintsBefore(at: number): string[];
  /** Tracked handles of messages `[from, to)`. */
  handlesBetween(from: number, to: number): Set<string>;
}

/** Build the timeline of a transcript. */
export function handleTimeline(perMessage: readonly MessageHandles[]): HandleTimeline {
  const firstSeen = new Map<string, number>();
  const lastUsed = new Map<string, number>();
  perMessage.forEach((handles, index) => {
    for (const text of handles.all) if (!firstSeen.has(text)) firstSeen.set(text, index);
    for (const text of handles.used) lastUsed.set(text, index);
  });
  return {
    futureNeeded(at) {
      const needed: string[] = [];
      for (const [text, last] of lastUsed) {
        const first = firstSeen.get(text);
        if (first !== undefined && first < at && last >= at) needed.push(text);
      }
      return needed;
    },
    constraintsBefore(at) {
      return [...new Set(perMessage.slice(0, at).flatMap((handles) => handles.userConstraints))];
    },
    handlesBetween(from, to) {
      const set = new Set<string>();
      for (const handles of perMessage.slice(from, to)) for (const text of handles.all) set.add(text);
      return set;
    },
  };
}
