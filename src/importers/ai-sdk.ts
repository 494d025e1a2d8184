/**
 * AI SDK `ModelMessage[]` JSON (ai@5/6; `{messages: [...]}` is accepted too). Parts: `text`
 * verbatim; `reasoning` and tool approvals left out; `image` / `file` as `[image]` /
 * `[file: NAME]`; `tool-call` → a tool call (`input` as JSON text); each `tool-result` → one
 * `tool` message whose content is the output's text (`text`, `error-text`), JSON (`json`,
 * `error-json`), joined text parts (`content`) or `[execution denied: REASON]`. ai@4's `args` /
 * `result` fields are read as a fallback. Labels are `FILE#INDEX`. The file is read whole.
 *
 * Provenance (see provenance.ts): `ModelMessage`s are what an application sends a model. A `system` message is the
 * system prompt the application's author wrote and the text parts of a `user` message are the user's words (both
 * affirmed); `tool-result` parts are tool results wherever they appear.
 */
import { z } from 'zod';
import type { TranscriptMessage, TranscriptToolCall } from '../ingest/messages.js';
import type { FormatProvenance, ImportedEvent, ImportOptions } from './events.js';
import { detectAiSdk } from './detect.js';
import { recordError, readJsonFile, zodRecordError } from './json-file.js';
import { skipOrThrow } from './jsonl-lines.js';
import { jsonOrText, jsonText } from './json-text.js';
import { defineImporter, typedMessage } from './provenance.js';

const anyPart = z.object({ type: z.string() }).loose();
const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }).loose(),
  z.object({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(anyPart)]) }).loose(),
  z.object({ role: z.literal('tool'), content: z.array(anyPart) }).loose(),
]);
const parts = {
  text: z.object({ text: z.string() }).loose(),
  file: z.object({ filename: z.string().nullish(), mediaType: z.string().nullish() }).loose(),
  'tool-call': z
    .object({
      toolCallId: z.string(),
      toolName: z.string(),
      input: z.unknown().optional(),
      args: z.unknown().optional(),
    })
    .loose(),
  'tool-result': z
    .object({
      toolCallId: z.string(),
      toolName: z.string(),
      output: z.unknown().optional(),
      result: z.unknown().optional(),
    })
    .loose(),
};
const outputSchema = z
  .object({ type: z.string(), value: z.unknown().optional(), reason: z.string().nullish() })
  .loose();
const SKIPPED = new Set(['reasoning', 'tool-approval-request', 'tool-approval-response']);

const json = jsonOrText;

function outputText(output: unknown, legacy: unknown): string {
  if (output === undefined) return json(legacy);
  const parsed = outputSchema.safeParse(output);
  if (!parsed.success) return json(output);
  const { type, value, reason } = parsed.data;
  if (type === 'text' || type === 'error-text') return typeof value === 'string' ? value : json(value);
  if (type === 'json' || type === 'error-json') return jsonText(value ?? null) as string;
  if (type === 'execution-denied') return reason ? `[execution denied: ${reason}]` : '[execution denied]';
  if (type === 'content' && Array.isArray(value)) {
    return value
      .map((item) =>
        anyPart.safeParse(item).data?.type === 'text' ? json((item as { text?: unknown }).text) : '[media]',
      )
      .join('\n');
  }
  return json(output);
}

type Converted = { readonly messages: TranscriptMessage[] } | { readonly field: string; readonly error: z.ZodError };

function convert(value: z.infer<typeof messageSchema>, label: string): Converted {
  if (typeof value.content === 'string') return { messages: [{ role: value.role, content: value.content, label }] };
  const texts: string[] = [];
  const calls: TranscriptToolCall[] = [];
  const results: TranscriptMessage[] = [];
  for (const [index, part] of value.content.entries()) {
    const field = `content.${index}`;
    if (part.type === 'text') {
      const text = parts.text.safeParse(part);
      if (!text.success) return { field, error: text.error };
      texts.push(text.data.text);
    } else if (part.type === 'tool-call') {
      const call = parts['tool-call'].safeParse(part);
      if (!call.success) return { field, error: call.error };
      calls.push({
        id: call.data.toolCallId,
        name: call.data.toolName,
        arguments: json(call.data.input ?? call.data.args ?? {}),
      });
    } else if (part.type === 'tool-result') {
      const result = parts['tool-result'].safeParse(part);
      if (!result.success) return { field, error: result.error };
      const { toolCallId, toolName, output, result: legacy } = result.data;
      results.push({ role: 'tool', content: outputText(output, legacy), toolCallId, toolName, label });
    } else if (part.type === 'file') {
      const file = parts.file.safeParse(part).data;
      texts.push(`[file: ${file?.filename ?? file?.mediaType ?? 'unnamed'}]`);
    } else if (!SKIPPED.has(part.type)) {
      texts.push(`[${part.type}]`);
    }
  }
  if (value.role === 'tool') return { messages: results };
  const text = texts.join('\n');
  const own: TranscriptMessage[] =
    text.length > 0 || calls.length > 0 || results.length === 0
      ? [{ role: value.role, content: text, toolCalls: calls.length > 0 ? calls : undefined, label }]
      : [];
  return { messages: [...own, ...results] };
}

async function* readImported(file: string, options: ImportOptions): AsyncGenerator<ImportedEvent> {
  const value = await readJsonFile(file, options);
  const list = z.union([z.array(z.unknown()), z.object({ messages: z.array(z.unknown()) }).loose()]).safeParse(value);
  if (!list.success)
    throw recordError(
      file,
      '(root)',
      'messages',
      'expected a JSON array of ModelMessages or an object with a "messages" array',
    );
  const messages = Array.isArray(list.data) ? list.data : list.data.messages;
  for (const [index, raw] of messages.entries()) {
    const where = `messages[${index}]`;
    const parsed = messageSchema.safeParse(raw);
    if (!parsed.success) {
      skipOrThrow(zodRecordError(file, where, parsed.error), options);
      continue;
    }
    const converted = convert(parsed.data, `${file}#${index}`);
    if ('error' in converted) {
      skipOrThrow(zodRecordError(file, where, converted.error, converted.field), options);
      continue;
    }
    for (const message of converted.messages) yield typedMessage(message);
  }
}

/** What a person wrote in AI SDK `ModelMessage`s. */
const provenance: FormatProvenance = {
  typed: ["`system` messages (the application author's system prompt)", 'text and file parts of `user` messages'],
  quoted: [],
};

/** Importer of AI SDK `ModelMessage[]` JSON. */
export const aiSdkImporter = defineImporter({ format: 'ai-sdk', provenance, detect: detectAiSdk, readImported });
