import { InvalidInputError } from './errors.js';
import { firstIndexWhere } from './sorted-search.js';
import { isWellFormedText } from './span.js';
import type { SliceCounter, TokenCounter } from './token-counter.js';
import type { QuotedSource, Role } from './types.js';

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
   * output, never pinned instructions. Absent: the role's own source.
   */
  readonly source?: QuotedSource | undefined;
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

/** One chunk of a text: its slice, token count and offset in the whole text. */
export interface TextChunk {
  /** The chunk's text, verbatim. */
  readonly text: string;
  /** Its token count. */
  readonly tokens: number;
  /** Offset of the chunk in the whole text (UTF-16 code units). */
  readonly start: number;
}

/** A range a chunk boundary must not cut (a handle): a cut at `c` is refused when `start < c < end`. */
export interface ProtectedRange {
  /** Start offset. */
  readonly start: number;
  /** End offset (exclusive). */
  readonly end: number;
}

function isBreak(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 11;
}

/** Answers whether a cut falls strictly inside one of the protected ranges. */
type CutCheck = (cut: number) => boolean;

/** Builds a {@link CutCheck} over `ranges`: binary search on the starts, then a running maximum of the ends. */
function cutCheck(ranges: readonly ProtectedRange[]): CutCheck {
  if (ranges.length === 0) return () => false;
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const starts = sorted.map((range) => range.start);
  const maxEnd: number[] = [];
  let running = -1;
  for (const range of sorted) maxEnd.push((running = Math.max(running, range.end)));
  return (cut) => {
    const low = firstIndexWhere(starts.length, (index) => (starts[index] ?? 0) >= cut);
    return low > 0 && (maxEnd[low - 1] ?? 0) > cut;
  };
}

/**
 * Where to end a chunk that starts at `start` and should end near `target`: after the last
 * newline in the second half, else after the last whitespace there that cuts no protected
 * range, else after the first such whitespace up to half a chunk further, else at `target`
 * (a hard split inside a token longer than a chunk).
 */
function cutPoint(text: string, start: number, target: number, to: number, cuts: CutCheck): number {
  const half = Math.ceil((target - start) / 2);
  const newline = text.lastIndexOf('\n', target - 1);
  if (newline >= start + half && !cuts(newline + 1)) return newline + 1;
  for (let index = target - 1; index >= start + half; index--) {
    if (isBreak(text.charCodeAt(index)) && !cuts(index + 1)) return index + 1;
  }
  const limit = Math.min(to - 1, target + half);
  for (let index = target; index < limit; index++) {
    if (isBreak(text.charCodeAt(index)) && !cuts(index + 1)) return index + 1;
  }
  const high = text.charCodeAt(target - 1);
  return high >= 0xd800 && high <= 0xdbff && target + 1 < to ? target + 1 : target;
}

function chunkRange(
  text: string,
  from: number,
  to: number,
  maxTokens: number,
  count: SliceCounter,
  cuts: CutCheck,
  out: TextChunk[],
): void {
  const piece = text.slice(from, to);
  const tokens = count(from, to);
  if (tokens <= maxTokens || to - from <= 1) {
    out.push({ text: piece, tokens, start: from });
    return;
  }
  const parts = Math.ceil(tokens / maxTokens) + 1;
  const target = Math.ceil((to - from) / parts);
  let start = from;
  while (start < to) {
    let end = Math.min(to, start + target);
    if (end < to) end = cutPoint(text, start, end, to, cuts);
    chunkRange(text, start, end, maxTokens, count, cuts, out);
    start = end;
  }
}

/**
 * Split text into chunks of at most `maxTokens` tokens. Chunks end at a line break where
 * possible, else at whitespace, never inside a `protect`ed range (the
 * handles of the text, in any order) unless a single token is longer than a chunk, which is then split hard.
 */
export function chunkText(
  text: string,
  maxTokens: number,
  counter: TokenCounter,
  protect: readonly ProtectedRange[] = [],
): TextChunk[] {
  const out: TextChunk[] = [];
  const count = counter.slices?.(text) ?? ((start: number, end: number) => counter.count(text.slice(start, end)));
  // The protected ranges are sorted only when the text turns out to need a cut.
  let cuts: CutCheck | undefined;
  chunkRange(text, 0, text.length, maxTokens, count, (cut) => (cuts ??= cutCheck(protect))(cut), out);
  return out;
}
