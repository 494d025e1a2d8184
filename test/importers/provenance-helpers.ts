/**
 * Helpers of the per-format provenance tests (architecture invariant 13): who each imported message says wrote it.
 */
import type { TranscriptEvent } from '../../src/importers/events.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';

/** Who a message is stored as written by: `user` and `system` are affirmed (pinnable), the rest are not. */
export type Author = 'user' | 'system' | 'harness' | 'client' | 'assistant' | 'tool';

/** The author of one message: its quoted source when it has one, else its role's own. */
export function authorOf(message: TranscriptMessage): Author {
  return message.source ?? message.role;
}

/** `[author, content]` of every message event, in order. */
export function authored(events: readonly TranscriptEvent[]): [Author, string][] {
  return events.flatMap((event): [Author, string][] =>
    event.type === 'message' ? [[authorOf(event.message), event.message.content]] : [],
  );
}

/** The contents of the messages a person is affirmed to have written (user and system: what may be pinned). */
export function affirmedTexts(events: readonly TranscriptEvent[]): string[] {
  return authored(events)
    .filter(([author]) => author === 'user' || author === 'system')
    .map(([, content]) => content);
}

/** The `[user instruction]` lines of an injected context or a rendered window. */
export function userInstructions(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('- [user instruction] '))
    .map((line) => line.slice('- [user instruction] '.length));
}
