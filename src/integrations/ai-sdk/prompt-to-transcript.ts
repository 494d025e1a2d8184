import type { LanguageModelV3Message, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import type { TranscriptMessage, TranscriptToolCall } from '../../ingest/messages.js';
import { isRecallView, ledgerSafeRecallView } from '../views.js';
import { jsonOrText, jsonText } from '../../importers/json-text.js';
import { renderedBlockOf } from '../../ingest/rendered-block.js';

/** The prompt split into the caller's leading system messages and the conversation after them. */
export interface SplitPrompt {
  /** Leading `system` messages: the caller's system prompt, kept verbatim and never compacted. */
  readonly system: LanguageModelV3Message[];
  /** Everything after them. */
  readonly conversation: LanguageModelV3Message[];
}

/** Whether a prompt message is a system message carrying a rendered ledger block (our own output coming back). */
function isLedgerBlock(message: LanguageModelV3Message | undefined): boolean {
  return message?.role === 'system' && renderedBlockOf(message.content) !== undefined;
}

/**
 * Split off the leading system messages of a prompt. A system message carrying a rendered ledger block (a caller that
 * sent back the prompt the middleware made) ends them: it is not the caller's system prompt, so it is never sent
 * again ahead of the session's own block, and it goes to the conversation, where the session quotes it (and imports
 * it as an external summary when it names no record the session holds).
 */
export function splitPrompt(prompt: LanguageModelV3Prompt): SplitPrompt {
  let index = 0;
  while (prompt[index]?.role === 'system' && !isLedgerBlock(prompt[index])) index++;
  return { system: prompt.slice(0, index), conversation: prompt.slice(index) };
}

const json = jsonOrText;

/** The text of a tool result output, as stored in the ledger. */
export function toolOutputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return jsonText(output.value ?? null) as string;
    case 'execution-denied':
      return output.reason ? `[execution denied: ${output.reason}]` : '[execution denied]';
    case 'content':
      return output.value.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join('\n');
    default:
      return json(output);
  }
}

/** Options of the prompt conversion. */
export interface PromptConversionOptions {
  /** Names of recall tools: their results are kept in the ledger without unverified text (default `recall`). */
  readonly recallToolNames?: readonly string[] | undefined;
}

function resultText(
  toolName: string,
  output: LanguageModelV3ToolResultOutput,
  options: PromptConversionOptions,
): string {
  const recallTools = options.recallToolNames ?? ['recall'];
  if (recallTools.includes(toolName) && output.type === 'json' && isRecallView(output.value))
    return JSON.stringify(ledgerSafeRecallView(output.value));
  return toolOutputText(output);
}

/**
 * Convert one V3 prompt message into transcript messages: text parts joined by newlines,
 * files as `[file: NAME]`, reasoning and tool-approval parts left out, tool calls as
 * `toolCalls` (input as JSON text), and each tool result as its own `tool` message (a
 * recall tool's result without its unverified texts, see `ledgerSafeRecallView`).
 * A message with nothing left (e.g. reasoning only) converts to nothing.
 *
 * Provenance (ARCHITECTURE invariant 13, as the `ai-sdk` importer decides it): the prompt is what the application
 * sends, so a `system` message is the system prompt its author wrote and the text of a `user` message is the user's
 * words, both kept as their role's own source; tool results are tools'. An application that puts other text in the
 * user role (retrieved pages, command output) should send it as a tool result.
 */
export function promptMessageToTranscript(
  message: LanguageModelV3Message,
  options: PromptConversionOptions = {},
): TranscriptMessage[] {
  if (message.role === 'system') return [{ role: 'system', content: message.content }];
  const texts: string[] = [];
  const calls: TranscriptToolCall[] = [];
  const results: TranscriptMessage[] = [];
  for (const part of message.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'file') texts.push(`[file: ${part.filename ?? part.mediaType}]`);
    else if (part.type === 'tool-call')
      calls.push({ id: part.toolCallId, name: part.toolName, arguments: json(part.input) });
    else if (part.type === 'tool-result')
      results.push({
        role: 'tool',
        content: resultText(part.toolName, part.output, options),
        toolCallId: part.toolCallId,
        toolName: part.toolName,
      });
  }
  const text = texts.join('\n');
  const own: TranscriptMessage[] = [];
  if (message.role !== 'tool' && (text.length > 0 || calls.length > 0)) {
    own.push({ role: message.role, content: text, toolCalls: calls.length > 0 ? calls : undefined });
  }
  return [...own, ...results];
}

/** Convert prompt messages (no leading system prompt) into transcript messages, in order. */
export function promptToTranscript(
  messages: readonly LanguageModelV3Message[],
  options: PromptConversionOptions = {},
): TranscriptMessage[] {
  return messages.flatMap((message) => promptMessageToTranscript(message, options));
}
