import { InvalidInputError } from './errors.js';
import { createSpan, isWellFormedText } from './span.js';
import type { TokenCounter } from './tokens.js';
import type { Role, SourceKind, Span } from './types.js';

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
}

/** A span cut from a message, with its chunk position. */
export interface MessagePiece {
  /** The span. */
  readonly span: Span;
  /** Role it renders under. */
  readonly role: Role;
  /** Chunk position when the message text was split. */
  readonly chunk?: { readonly index: number; readonly count: number } | undefined;
}

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/** Check a message's shape; throws InvalidInputError naming the field. */
export function validateMessage(message: TranscriptMessage, where: string): void {
  if (typeof message !== 'object' || message === null) throw new InvalidInputError(`${where}: message must be an object`, { where });
  if (!ROLES.includes(message.role)) {
    throw new InvalidInputError(`${where}: field "role" must be one of ${ROLES.join(', ')} (got ${JSON.stringify(message.role)})`, { where, field: 'role' });
  }
  if (typeof message.content !== 'string') throw new InvalidInputError(`${where}: field "content" must be a string`, { where, field: 'content' });
  if (!isWellFormedText(message.content)) {
    throw new InvalidInputError(`${where}: field "content" contains a lone UTF-16 surrogate, which cannot be stored verbatim; repair the text before appending`, { where, field: 'content' });
  }
  if (message.role === 'tool' && typeof message.toolCallId !== 'string') {
    throw new InvalidInputError(`${where}: a tool message needs field "toolCallId" naming the call it answers`, { where, field: 'toolCallId' });
  }
  for (const [index, call] of (message.toolCalls ?? []).entries()) {
    if (typeof call?.id !== 'string' || typeof call.name !== 'string' || typeof call.arguments !== 'string') {
      throw new InvalidInputError(`${where}: toolCalls[${index}] needs string fields "id", "name" and "arguments"`, { where, field: `toolCalls[${index}]` });
    }
  }
}

/** Split text into pieces of at most `maxTokens` tokens, at line boundaries where possible. */
export function chunkText(text: string, maxTokens: number, counter: TokenCounter): { text: string; tokens: number }[] {
  const tokens = counter.count(text);
  if (tokens <= maxTokens || text.length <= 1) return [{ text, tokens }];
  const parts = Math.ceil(tokens / maxTokens) + 1;
  const target = Math.ceil(text.length / parts);
  const pieces: { text: string; tokens: number }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + target);
    if (end < text.length) {
      const newline = text.lastIndexOf('\n', end);
      if (newline > start + target / 2) end = newline + 1;
    }
    pieces.push(...chunkText(text.slice(start, end), maxTokens, counter));
    start = end;
  }
  return pieces;
}

/** Turn one message into spans: its text (chunked when large) and one span per tool call. */
export function messageToPieces(message: TranscriptMessage, maxSpanTokens: number, counter: TokenCounter): MessagePiece[] {
  const kind: SourceKind =
    message.role === 'tool' ? 'tool-result' : message.role === 'system' ? 'system' : message.role === 'user' ? 'user' : 'assistant';
  const pieces: MessagePiece[] = [];
  if (message.content.length > 0 || (message.toolCalls ?? []).length === 0) {
    const chunks = chunkText(message.content, maxSpanTokens, counter);
    chunks.forEach((chunk, index) => {
      pieces.push({
        span: createSpan({ kind, text: chunk.text, toolCallId: message.toolCallId, toolName: message.toolName, tokens: chunk.tokens }),
        role: message.role,
        chunk: chunks.length > 1 ? { index, count: chunks.length } : undefined,
      });
    });
  }
  for (const call of message.toolCalls ?? []) {
    const chunks = chunkText(call.arguments, maxSpanTokens, counter);
    chunks.forEach((chunk, index) => {
      pieces.push({
        span: createSpan({ kind: 'tool-call', text: chunk.text, toolCallId: call.id, toolName: call.name, tokens: chunk.tokens }),
        role: 'assistant',
        chunk: chunks.length > 1 ? { index, count: chunks.length } : undefined,
      });
    });
  }
  return pieces;
}
