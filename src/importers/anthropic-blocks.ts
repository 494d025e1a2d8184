/**
 * Anthropic content blocks (Messages API and Claude Code sessions) to transcript messages.
 * Shared by the `anthropic` and `claude-code` importers.
 */
import { z } from 'zod';
import type { TranscriptMessage, TranscriptToolCall } from '../messages.js';
import { describeIssues } from './openai-message.js';

const anyBlock = z.object({ type: z.string() }).loose();
const textBlock = z.object({ type: z.literal('text'), text: z.string() }).loose();
const toolUseBlock = z
  .object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown().optional() })
  .loose();
const toolResultBlock = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(anyBlock)]).nullish(),
    is_error: z.boolean().nullish(),
  })
  .loose();

/** Anthropic message content: a string or an array of typed blocks. */
export const anthropicContentSchema = z.union([z.string(), z.array(anyBlock)]);

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
  for (const block of content) {
    const text = textBlock.safeParse(block);
    if (text.success) parts.push(text.data.text);
    else {
      const other = anyBlock.safeParse(block);
      if (other.success && !SKIPPED.has(other.data.type)) parts.push(placeholder(other.data));
    }
  }
  return parts.join('\n');
}

function fail(error: z.ZodError, index: number): BlockConversion {
  const { field, problem } = describeIssues(error);
  return { field: field === '(root)' ? `content.${index}` : `content.${index}.${field}`, problem };
}

/**
 * Convert one Anthropic message. `tool_result` blocks become `tool` messages (first, in order);
 * `tool_use` blocks become tool calls; text is joined with newlines; thinking is left out;
 * a message that would carry nothing (blank text, no calls) is dropped. `toolNames` maps call
 * ids to tool names across the conversation (filled by `tool_use`, read by `tool_result`).
 */
export function convertAnthropicContent(
  role: 'user' | 'assistant',
  content: unknown,
  label: string | undefined,
  toolNames: Map<string, string>,
): BlockConversion {
  const parsed = anthropicContentSchema.safeParse(content);
  if (!parsed.success) return { field: 'content', problem: 'expected a string or an array of content blocks' };
  const blocks = typeof parsed.data === 'string' ? [{ type: 'text', text: parsed.data }] : parsed.data;
  const results: TranscriptMessage[] = [];
  const texts: string[] = [];
  const toolCalls: TranscriptToolCall[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.type === 'text') {
      const text = textBlock.safeParse(block);
      if (!text.success) return fail(text.error, index);
      texts.push(text.data.text);
    } else if (block.type === 'tool_use') {
      const call = toolUseBlock.safeParse(block);
      if (!call.success) return fail(call.error, index);
      toolNames.set(call.data.id, call.data.name);
      toolCalls.push({ id: call.data.id, name: call.data.name, arguments: JSON.stringify(call.data.input ?? {}) });
    } else if (block.type === 'tool_result') {
      const result = toolResultBlock.safeParse(block);
      if (!result.success) return fail(result.error, index);
      const id = result.data.tool_use_id;
      results.push({
        role: 'tool',
        content: blocksText(result.data.content),
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
  if (text.trim().length > 0 || toolCalls.length > 0) {
    messages.push({ role, content: text, toolCalls: toolCalls.length > 0 ? toolCalls : undefined, label });
  }
  return { messages };
}
