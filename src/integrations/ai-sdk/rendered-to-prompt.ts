import type { LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { RenderedContext, RenderedMessage } from '../../window/window.js';

/** A rendered original without the window's display prefix, with the chunks it joins. */
interface Piece {
  readonly message: RenderedMessage;
  readonly text: string;
  /** Chunk positions joined so far (`first`..`last` of `count`), when the message was chunked. */
  readonly part?: { readonly first: number; readonly last: number; readonly count: number } | undefined;
}

/** The verbatim span text of a rendered original (no display prefix) and its chunk position. */
function strip(message: RenderedMessage): Piece {
  const text = message.text ?? message.content;
  const { chunk } = message;
  if (!chunk) return { message, text };
  return { message, text, part: { first: chunk.index, last: chunk.index, count: chunk.count } };
}

/** Whether `piece` continues the chunked message `previous` (same kind and call, next chunk). */
function continues(previous: Piece | undefined, piece: Piece): boolean {
  if (!previous?.part || !piece.part) return false;
  return (
    previous.part.last === piece.part.first - 1 &&
    previous.part.count === piece.part.count &&
    previous.message.role === piece.message.role &&
    previous.message.toolCall === piece.message.toolCall &&
    previous.message.toolCallId === piece.message.toolCallId
  );
}

/** Join the chunks of each chunked message back into one piece. */
function mergeChunks(messages: readonly RenderedMessage[]): Piece[] {
  const pieces: Piece[] = [];
  for (const message of messages) {
    const piece = strip(message);
    const previous = pieces[pieces.length - 1];
    if (previous?.part && piece.part && continues(previous, piece)) {
      pieces[pieces.length - 1] = {
        message: previous.message,
        text: previous.text + piece.text,
        part: { ...previous.part, last: piece.part.last },
      };
    } else pieces.push(piece);
  }
  return pieces.map((piece) =>
    piece.part && piece.part.first === 0 && piece.part.last === piece.part.count - 1
      ? { message: piece.message, text: piece.text }
      : piece,
  );
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Map the originals of a rendered context back to V3 prompt messages: user and system text
 * as-is; assistant text and the tool calls that follow it as one assistant message; a run of
 * tool results as one tool message (output type `text`); chunks of one message joined. An
 * incomplete run of chunks is marked `[parts A-B/N]` so the model sees it is partial. A tool
 * result whose call is not in the window (the core never separates them, so only imported data
 * can do this) is shown as a user text message, which providers accept.
 */
export function originalsToPrompt(rendered: RenderedContext): LanguageModelV3Message[] {
  const output: LanguageModelV3Message[] = [];
  const calls = new Set<string>();
  const originals = rendered.messages.filter((message) => message.source === 'original');
  for (const piece of mergeChunks(originals)) {
    const { message } = piece;
    const { part: chunk } = piece;
    const text = chunk ? `[parts ${chunk.first + 1}-${chunk.last + 1}/${chunk.count}] ${piece.text}` : piece.text;
    const last = output[output.length - 1];
    if (message.toolCall === true) {
      const callId = message.toolCallId ?? `call_${message.seq ?? output.length}`;
      calls.add(callId);
      const part = {
        type: 'tool-call' as const,
        toolCallId: callId,
        toolName: message.toolName ?? 'unknown',
        input: chunk ? text : parseInput(piece.text),
      };
      if (last?.role === 'assistant') last.content.push(part);
      else output.push({ role: 'assistant', content: [part] });
    } else if (message.role === 'tool' && message.toolCallId !== undefined && calls.has(message.toolCallId)) {
      const part = {
        type: 'tool-result' as const,
        toolCallId: message.toolCallId,
        toolName: message.toolName ?? 'unknown',
        output: { type: 'text' as const, value: text },
      };
      if (last?.role === 'tool') last.content.push(part);
      else output.push({ role: 'tool', content: [part] });
    } else if (message.role === 'tool') {
      output.push({
        role: 'user',
        content: [{ type: 'text', text: `[tool result id=${message.toolCallId ?? '?'}] ${text}` }],
      });
    } else if (message.role === 'assistant') {
      const part = { type: 'text' as const, text };
      if (last?.role === 'assistant' && last.content.every((existing) => existing.type === 'text'))
        last.content.push(part);
      else output.push({ role: 'assistant', content: [part] });
    } else if (message.role === 'user') {
      output.push({ role: 'user', content: [{ type: 'text', text }] });
    } else {
      output.push({ role: 'system', content: text });
    }
  }
  return output;
}

/**
 * The prompt the model gets: the caller's own system messages (or, when the prompt had
 * none, the session's system prompt), the ledger block as a system message, then the
 * recent originals.
 */
export function renderedToPrompt(
  rendered: RenderedContext,
  callerSystem: readonly LanguageModelV3Message[],
): LanguageModelV3Prompt {
  const head: LanguageModelV3Message[] = [...callerSystem];
  for (const message of rendered.messages) {
    if (message.source === 'system-prompt' && callerSystem.length === 0)
      head.push({ role: 'system', content: message.content });
    if (message.source === 'ledger') head.push({ role: 'system', content: message.content });
  }
  return [...head, ...originalsToPrompt(rendered)];
}
