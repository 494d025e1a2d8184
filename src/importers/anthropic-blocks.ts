/**
 * Anthropic content blocks (Messages API and Claude Code sessions) to transcript messages.
 * Shared by the `anthropic` and `claude-code` importers.
 */
import type { TranscriptMessage, TranscriptToolCall } from '../ingest/messages.js';
import { checkBoolean, checkString, firstProblem, problemOf, typedRecord, under } from './field-checks.js';
import type { FieldProblem } from './field-checks.js';
import { jsonText } from './json-text.js';

/** A content block: an object with a string `type` (other fields depend on the type). */
export type AnthropicBlock = Record<string, unknown> & { readonly type: string };

/** Anthropic message content: a string or an array of typed blocks. */
export type AnthropicContent = string | readonly AnthropicBlock[];

/** True for a string or an array of typed blocks. */
export function isAnthropicContent(value: unknown): value is AnthropicContent {
  return (
    typeof value === 'string' || (Array.isArray(value) && value.every((block) => typedRecord(block) === undefined))
  );
}

/** Whether a `tool_result` block's `content` fits: absent, null, a string or an array of typed blocks. */
function resultContentProblem(block: AnthropicBlock): FieldProblem | undefined {
  const content = block.content;
  if (content === undefined || content === null || isAnthropicContent(content)) return undefined;
  return problemOf('content', 'a string or an array of content blocks', content);
}

/** Block types that carry no transcript text (model reasoning). */
const SKIPPED = new Set(['thinking', 'redacted_thinking']);

/** The outcome of converting content: messages, or the field that failed and why. */
export type BlockConversion =
  { readonly messages: TranscriptMessage[] } | { readonly field: string; readonly problem: string };

function placeholder(block: { type: string }): string {
  return `[${block.type}]`;
}

/** Text of a string or an array of blocks: text blocks verbatim, others as `[type]`, thinking left out. */
export function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (typedRecord(block)) continue;
    const { type, text } = block as AnthropicBlock;
    if (type === 'text' && typeof text === 'string') parts.push(text);
    else if (!SKIPPED.has(type)) parts.push(placeholder({ type }));
  }
  return parts.join('\n');
}

/**
 * Convert one Anthropic message. `tool_result` blocks become `tool` messages (first, in order);
 * `tool_use` blocks become tool calls; text is joined with newlines; thinking is left out;
 * a message that would carry nothing (blank text, no calls) is dropped. `toolNames` maps call
 * ids to tool names across the conversation (filled by `tool_use`, read by `tool_result`).
 * Text blocks `harnessText` accepts (text the agent harness wrote into a user turn) are joined into a message of their
 * own with source `harness`, placed where its first block was.
 */
export function convertAnthropicContent(
  role: 'user' | 'assistant',
  content: unknown,
  label: string | undefined,
  toolNames: Map<string, string>,
  harnessText: (text: string) => boolean = () => false,
): BlockConversion {
  if (!isAnthropicContent(content))
    return { field: 'content', problem: 'expected a string or an array of content blocks' };
  const blocks: readonly AnthropicBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const results: TranscriptMessage[] = [];
  const texts: string[] = [];
  const harness: string[] = [];
  let harnessFirst = false;
  const toolCalls: TranscriptToolCall[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.type === 'text') {
      const problem = checkString(block, 'text');
      if (problem) return under(`content.${index}`, problem);
      const text = block.text as string;
      if (role === 'user' && harnessText(text)) {
        if (harness.length === 0 && texts.length === 0) harnessFirst = true;
        harness.push(text);
      } else texts.push(text);
    } else if (block.type === 'tool_use') {
      const problem = firstProblem(checkString(block, 'id'), checkString(block, 'name'));
      if (problem) return under(`content.${index}`, problem);
      const [id, name] = [block.id as string, block.name as string];
      toolNames.set(id, name);
      toolCalls.push({ id, name, arguments: jsonText(block.input ?? {}) as string });
    } else if (block.type === 'tool_result') {
      const problem = firstProblem(
        checkString(block, 'tool_use_id'),
        resultContentProblem(block),
        checkBoolean(block, 'is_error', 'nullish'),
      );
      if (problem) return under(`content.${index}`, problem);
      const id = block.tool_use_id as string;
      results.push({
        role: 'tool',
        content: blocksText(block.content),
        toolCallId: id,
        toolName: toolNames.get(id),
        label,
      });
    } else if (!SKIPPED.has(block.type)) {
      texts.push(placeholder(block));
    }
  }
  const text = texts.join('\n');
  const messages = [...results];
  const quoted = harness.join('\n');
  const fromHarness: TranscriptMessage[] =
    quoted.trim().length > 0 ? [{ role, content: quoted, label, source: 'harness' }] : [];
  if (harnessFirst) messages.push(...fromHarness);
  if (text.trim().length > 0 || toolCalls.length > 0) {
    messages.push({ role, content: text, toolCalls: toolCalls.length > 0 ? toolCalls : undefined, label });
  }
  if (!harnessFirst) messages.push(...fromHarness);
  return { messages };
}
