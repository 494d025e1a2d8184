import { InvalidInputError } from '../errors.js';
import { isWellFormedText } from '../model/span.js';
import { renderedBlockOf } from './rendered-block.js';
import type { QuotedSource, Role } from '../types.js';

/** A tool call made by the assistant. */
export interface TranscriptToolCall {
  /** Call id linking the call to its result. */
  readonly id: string;
  /** Tool name. */
  readonly name: string;
  /** Arguments, as the model wrote them (usually JSON text). */
  readonly arguments: string;
}

/** One message of a transcript, in the shape every importer produces. */
export interface TranscriptMessage {
  /** Chat role. */
  readonly role: Role;
  /** Text content (may be empty for an assistant message that only calls tools). */
  readonly content: string;
  /** Tool calls of an assistant message. */
  readonly toolCalls?: readonly TranscriptToolCall[] | undefined;
  /** For a `tool` message: the call it answers. */
  readonly toolCallId?: string | undefined;
  /** For a `tool` message: the tool's name, when known. */
  readonly toolName?: string | undefined;
  /** Optional source label (line number, uuid, dia_id). */
  readonly label?: string | undefined;
  /**
   * For a `user` or `system` message whose words are not the user's or the system prompt's: who wrote them
   * (`harness`: the agent harness, e.g. a Claude Code attachment or command output; `client`: a tool client through
   * the MCP `append` tool). The message is stored as a user turn of that source kind and its constraints are quoted
   * output, never pinned instructions. Absent: the role's own source. Importers set `harness` on every user or system
   * message their format does not affirm a person wrote (see `importers/provenance.ts`); a caller of `append` that
   * leaves it out affirms the words are the user's (or the system prompt), except for a message carrying a rendered
   * ledger block, which is always ours coming back (`harness`, see {@link appendedSource}).
   */
  readonly source?: QuotedSource | undefined;
}

/**
 * Who wrote a message's text when it is not the role's own source: its `source` when it names one; `harness` for a
 * user or system message carrying a rendered ledger block (our own output coming back as transcript text, see
 * `rendered-block.ts`: quoted, never pinned again); else undefined. The one place an appended message's source is
 * decided, so every entry point (library `append`, importers, hooks, MCP `append`) gets the same answer.
 */
export function appendedSource(message: TranscriptMessage): QuotedSource | undefined {
  if (message.source !== undefined) return message.source;
  if (message.role !== 'user' && message.role !== 'system') return undefined;
  return renderedBlockOf(message.content) === undefined ? undefined : 'harness';
}

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];
const QUOTED_SOURCES: readonly QuotedSource[] = ['harness', 'client'];

/** Check a message's shape; throws InvalidInputError naming the field. */
export function validateMessage(message: TranscriptMessage, where: string): void {
  if (typeof message !== 'object' || message === null)
    throw new InvalidInputError(`${where}: message must be an object`, { where });
  if (!ROLES.includes(message.role)) {
    throw new InvalidInputError(
      `${where}: field "role" must be one of ${ROLES.join(', ')} (got ${JSON.stringify(message.role)})`,
      { where, field: 'role' },
    );
  }
  if (message.source !== undefined && !QUOTED_SOURCES.includes(message.source)) {
    throw new InvalidInputError(
      `${where}: field "source" must be one of ${QUOTED_SOURCES.join(', ')} or absent (got ${JSON.stringify(message.source)})`,
      { where, field: 'source' },
    );
  }
  if (message.source !== undefined && message.role !== 'user' && message.role !== 'system') {
    throw new InvalidInputError(
      `${where}: field "source" applies to user and system messages only (this one has role ${message.role}); remove it`,
      { where, field: 'source' },
    );
  }
  if (typeof message.content !== 'string')
    throw new InvalidInputError(`${where}: field "content" must be a string`, { where, field: 'content' });
  if (!isWellFormedText(message.content)) {
    throw new InvalidInputError(
      `${where}: field "content" contains a lone UTF-16 surrogate, which cannot be stored verbatim; repair the text before appending`,
      { where, field: 'content' },
    );
  }
  if (message.role === 'tool' && typeof message.toolCallId !== 'string') {
    throw new InvalidInputError(`${where}: a tool message needs field "toolCallId" naming the call it answers`, {
      where,
      field: 'toolCallId',
    });
  }
  for (const [index, call] of (message.toolCalls ?? []).entries()) {
    if (typeof call?.id !== 'string' || typeof call.name !== 'string' || typeof call.arguments !== 'string') {
      throw new InvalidInputError(`${where}: toolCalls[${index}] needs string fields "id", "name" and "arguments"`, {
        where,
        field: `toolCalls[${index}]`,
      });
    }
  }
}
