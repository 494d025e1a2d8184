/**
 * Ingest: turns one validated transcript message into the entries `LedgerStore.append`
 * writes — spans (the text, chunked when large, and one span per tool call), their byte
 * ranges, and the handles of each span. Handles are extracted from the WHOLE text before
 * chunking, chunk boundaries never cut a handle (they fall at line breaks or whitespace),
 * and each handle is assigned to the chunk span holding it with offsets relative to that
 * span, so `handle.text === span.text.slice(handle.start, handle.end)` always holds. A
 * handle straddling a hard split (a single token longer than a chunk) is dropped.
 */
import { extractHandles } from '../handles/extract.js';
import type { TokenMemo } from '../handles/token-memo.js';
import { chunkText, type TextChunk } from './chunks.js';
import { appendedSource } from './messages.js';
import { boilerplateRanges } from './rendered-block.js';
import type { TranscriptMessage } from './messages.js';
import { createSpan, handleRoleOf } from '../model/span.js';
import type { AppendEntry } from '../stores/store.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { ExtractedHandle, Handle, Role, SourceKind } from '../types.js';
import { cachedTextCount } from '../tokens/count-cache.js';

/** Options of {@link messageToEntries}. */
export interface IngestOptions {
  /** Largest span, in tokens; larger texts are chunked. */
  readonly maxSpanTokens: number;
  /** Token counter for spans and handles. */
  readonly counter: TokenCounter;
  /** Byte offset in the session transcript where this message starts. */
  readonly byteStart: number;
  /**
   * Token counts of handle texts already counted with `counter`, shared by the messages of one
   * append or of a whole session so a handle text repeated across them is counted once (the counter
   * is a pure function of the text, so the counts stay exact; the map is cleared when it reaches
   * `COUNT_CACHE_ENTRIES`). Without it, each message keeps its own.
   */
  readonly handleTokens?: Map<string, number> | undefined;
  /**
   * Token classifications shared by the messages of a whole session (`token-memo.ts`), so a token its transcript
   * repeats is classified once. Without it, no memo is used (the same handles).
   */
  readonly tokenMemo?: TokenMemo | undefined;
}

/** The entries of one message and where the next message starts. */
export interface IngestResult {
  /** One entry per span, in order. */
  readonly entries: AppendEntry[];
  /** Byte offset after the last entry. */
  readonly byteEnd: number;
}

/** One text of a message to store: the content or a tool call's arguments. */
interface SpanSource {
  readonly kind: SourceKind;
  readonly role: Role;
  readonly text: string;
  readonly toolCallId: string | undefined;
  readonly toolName: string | undefined;
}

/** The source kind of a message's text: its quoted source when it has one (shown as a user turn), else its role's. */
function sourceKind(message: TranscriptMessage, source: SourceKind | undefined): SourceKind {
  if (source !== undefined) return source;
  const { role } = message;
  return role === 'tool' ? 'tool-result' : role === 'system' ? 'system' : role === 'user' ? 'user' : 'assistant';
}

/**
 * Drop identifier handles that are only JSON object keys of tool-call arguments
 * (`"file_path":`): they name the tool's schema, not anything the agent worked on.
 */
export function withoutJsonKeys<T extends { kind: string; start: number; end: number }>(
  kind: SourceKind,
  text: string,
  handles: T[],
): T[] {
  if (kind !== 'tool-call') return handles;
  return handles.filter(
    (handle) =>
      handle.kind !== 'identifier' ||
      !(text[handle.start - 1] === '"' && /^"\s*:/.test(text.slice(handle.end, handle.end + 8))),
  );
}

/**
 * Drop the handles of a user-turn text (`user`, `system`, `harness`, `client`) that lie in the ledger block's own
 * boilerplate lines (`rendered-block.ts`): our text coming back is never indexed or pinned as someone's words.
 */
function withoutBoilerplate<T extends { start: number; end: number }>(source: SpanSource, handles: T[]): T[] {
  if (source.role !== 'user' && source.role !== 'system') return handles;
  const ranges = boilerplateRanges(source.text);
  if (ranges.length === 0) return handles;
  return handles.filter((handle) => !ranges.some(([start, end]) => handle.start < end && handle.end > start));
}

/** The stored handles of one span, before the store gives them their seq. */
type SpanHandle = Omit<Handle, 'seq'>;

/**
 * The handles of the whole text, in order, made the stored handles of the chunk holding each (offsets relative to it,
 * the span's id, the role, the token count from `known` or counted once there): one object per handle, in one walk.
 * A handle that runs past its chunk's end (a hard split inside it) is dropped.
 */
function spanHandles(
  handles: readonly ExtractedHandle[],
  chunks: readonly TextChunk[],
  spanIds: readonly string[],
  role: Role,
  counter: TokenCounter,
  known: Map<string, number>,
): SpanHandle[][] {
  const byChunk: SpanHandle[][] = chunks.map(() => []);
  let index = 0;
  for (const handle of handles) {
    while (index < chunks.length - 1 && (chunks[index + 1]?.start ?? Infinity) <= handle.start) index++;
    const chunk = chunks[index];
    if (chunk === undefined || handle.end > chunk.start + chunk.text.length) continue;
    const { kind, text, key } = handle;
    byChunk[index]?.push({
      kind,
      text,
      key,
      start: handle.start - chunk.start,
      end: handle.end - chunk.start,
      spanId: spanIds[index] as string,
      role,
      tokens: cachedTextCount(known, text, counter),
    });
  }
  return byChunk;
}

function sourceEntries(
  source: SpanSource,
  message: TranscriptMessage,
  options: IngestOptions,
  known: Map<string, number>,
  byte: number,
  out: AppendEntry[],
): number {
  const { counter, maxSpanTokens } = options;
  const { kind, text, toolCallId, toolName } = source;
  const found = extractHandles(text, { toolOutput: kind === 'tool-result', memo: options.tokenMemo });
  const handles = withoutBoilerplate(source, withoutJsonKeys(kind, text, found));
  const chunks = chunkText(text, maxSpanTokens, counter, found);
  const spans = chunks.map((chunk) =>
    createSpan({ kind, text: chunk.text, toolCallId, toolName, tokens: chunk.tokens }),
  );
  const assigned = spanHandles(
    handles,
    chunks,
    spans.map((span) => span.id),
    handleRoleOf(kind),
    counter,
    known,
  );
  spans.forEach((span, index) => {
    const length = Buffer.byteLength(span.text, 'utf8') + 1;
    out.push({
      span,
      role: source.role,
      byteStart: byte,
      byteEnd: byte + length,
      label: message.label,
      chunk: chunks.length > 1 ? { index, count: chunks.length } : undefined,
      handles: assigned[index] ?? [],
    });
    byte += length;
  });
  return byte;
}

/**
 * Turns one validated message into append entries: its text (chunked when over
 * `maxSpanTokens`) and one span per tool call, each with its handles and byte range.
 */
export function messageToEntries(message: TranscriptMessage, options: IngestOptions): IngestResult {
  const sources: SpanSource[] = [];
  if (message.content.length > 0 || (message.toolCalls ?? []).length === 0) {
    const quoted = appendedSource(message);
    sources.push({
      kind: sourceKind(message, quoted),
      // Text of another source in a user or system turn is shown as a user turn: only the system prompt is `system`.
      role: quoted === undefined ? message.role : 'user',
      text: message.content,
      toolCallId: message.toolCallId,
      toolName: message.toolName,
    });
  }
  for (const call of message.toolCalls ?? []) {
    sources.push({
      kind: 'tool-call',
      role: 'assistant',
      text: call.arguments,
      toolCallId: call.id,
      toolName: call.name,
    });
  }
  const entries: AppendEntry[] = [];
  let byte = options.byteStart;
  const known = options.handleTokens ?? new Map<string, number>();
  for (const source of sources) byte = sourceEntries(source, message, options, known, byte, entries);
  return { entries, byteEnd: byte };
}
