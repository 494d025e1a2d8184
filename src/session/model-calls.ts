/**
 * Where an agent loop calls its model, read off a transcript: before each assistant turn (an assistant message after a
 * message that is not one), once every tool result of the last turn is in; never between a tool call and its result.
 * Replaying a transcript (`replay`, `audit`) compacts there, as a render before each model call would.
 */
import type { TranscriptMessage } from '../ingest/messages.js';

/**
 * Messages a replay takes without a model call before it compacts anyway, so a transcript with no assistant turns (or
 * a very long run of tool results) keeps its window in bounds as it goes, not only at the end.
 */
export const MAX_MESSAGES_BETWEEN_CALLS = 256;

/** Follows a transcript message by message and says where the model calls are. */
export class ModelCalls {
  private lastRole: TranscriptMessage['role'] | undefined;
  private since: number;

  /**
   * `after`: the role of the last message already taken (a resumed replay), so the next call falls where it would
   * have in one uninterrupted pass; none for a transcript taken from its start.
   */
  constructor(after?: TranscriptMessage['role']) {
    this.lastRole = after;
    this.since = after === undefined ? 0 : 1;
  }

  /** Whether the model is called before `message` (messages taken since the last call, else none), then takes it. */
  before(message: Pick<TranscriptMessage, 'role'>): boolean {
    const call =
      this.since > 0 &&
      ((message.role === 'assistant' && this.lastRole !== undefined && this.lastRole !== 'assistant') ||
        this.since >= MAX_MESSAGES_BETWEEN_CALLS);
    if (call) this.since = 0;
    this.lastRole = message.role;
    this.since += 1;
    return call;
  }

  /** Whether messages were taken since the last call (the end of a transcript is a call then). */
  pending(): boolean {
    return this.since > 0;
  }

  /** A call made for another reason (an agent's own compaction): messages before it are covered, the turn restarts. */
  reset(): void {
    this.since = 0;
    this.lastRole = undefined;
  }
}
