/**
 * OpenAI Codex CLI rollout JSONL (`~/.codex/sessions/…/rollout-*.jsonl`): lines
 * `{timestamp, type, payload}`.
 *
 * - `response_item` payloads: `message` (roles user, assistant, system; `developer` reads as
 *   system) → a message of its text parts; `function_call` / `custom_tool_call` /
 *   `local_shell_call` → an assistant message with one tool call; `function_call_output` /
 *   `custom_tool_call_output` → a `tool` message. `reasoning`, `web_search_call` and unknown
 *   item types are skipped.
 * - `compacted` (`{message}`) → a `compaction` event (summarizer `codex`, version from
 *   `session_meta.cli_version`).
 * - `session_meta`, `turn_context` and `event_msg` (UI echoes of the items) yield nothing.
 * Labels are `FILE:LINE`.
 */
import { z } from 'zod';
import type { TranscriptMessage } from '../messages.js';
import type { Importer, ImportOptions, TranscriptEvent } from './events.js';
import { headRecords, isRecord, lineError, readJsonLines, skipOrThrow } from './jsonl-lines.js';
import { describeIssues } from './openai-message.js';

const LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

const lineSchema = z.object({ type: z.string() }).loose();
const payloadSchema = z.object({ payload: z.object({}).loose() }).loose();
/** Line types whose payload this importer reads. */
const READ_TYPES = new Set(['session_meta', 'response_item', 'compacted']);
const part = z.object({ type: z.string(), text: z.string().optional() }).loose();
const schemas = {
  message: z
    .object({
      role: z.enum(['user', 'assistant', 'system', 'developer']),
      content: z.union([z.string(), z.array(part)]),
    })
    .loose(),
  function_call: z.object({ name: z.string(), arguments: z.string(), call_id: z.string() }).loose(),
  custom_tool_call: z.object({ name: z.string(), input: z.string(), call_id: z.string() }).loose(),
  local_shell_call: z
    .object({ call_id: z.string().nullish(), id: z.string().nullish(), action: z.unknown().optional() })
    .loose(),
  output: z.object({ call_id: z.string(), output: z.unknown().optional() }).loose(),
  compacted: z.object({ message: z.string() }).loose(),
  session_meta: z.object({ cli_version: z.string().nullish() }).loose(),
};

function textOf(content: string | z.infer<typeof part>[]): string {
  if (typeof content === 'string') return content;
  return content.map((item) => item.text ?? `[${item.type}]`).join('\n');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && typeof output.content === 'string') return output.content;
  return JSON.stringify(output ?? null);
}

type Converted = { readonly event?: TranscriptEvent | undefined } | { readonly error: z.ZodError };

function convert(payload: Record<string, unknown>, label: string, toolNames: Map<string, string>): Converted {
  const message = (value: TranscriptMessage): Converted => ({ event: { type: 'message', message: value } });
  const call = (id: string, name: string, args: string): Converted => {
    toolNames.set(id, name);
    return message({ role: 'assistant', content: '', toolCalls: [{ id, name, arguments: args }], label });
  };
  switch (payload.type) {
    case 'message': {
      const parsed = schemas.message.safeParse(payload);
      if (!parsed.success) return { error: parsed.error };
      const role = parsed.data.role === 'developer' ? 'system' : parsed.data.role;
      return message({ role, content: textOf(parsed.data.content), label });
    }
    case 'function_call': {
      const parsed = schemas.function_call.safeParse(payload);
      return parsed.success
        ? call(parsed.data.call_id, parsed.data.name, parsed.data.arguments)
        : { error: parsed.error };
    }
    case 'custom_tool_call': {
      const parsed = schemas.custom_tool_call.safeParse(payload);
      return parsed.success ? call(parsed.data.call_id, parsed.data.name, parsed.data.input) : { error: parsed.error };
    }
    case 'local_shell_call': {
      const parsed = schemas.local_shell_call.safeParse(payload);
      if (!parsed.success) return { error: parsed.error };
      return call(
        parsed.data.call_id ?? parsed.data.id ?? label,
        'local_shell',
        JSON.stringify(parsed.data.action ?? null),
      );
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const parsed = schemas.output.safeParse(payload);
      if (!parsed.success) return { error: parsed.error };
      const id = parsed.data.call_id;
      return message({
        role: 'tool',
        content: outputText(parsed.data.output),
        toolCallId: id,
        toolName: toolNames.get(id),
        label,
      });
    }
    default:
      return {};
  }
}

function detect(head: string): boolean {
  return headRecords(head).some(
    (record) =>
      isRecord(record) &&
      typeof record.type === 'string' &&
      LINE_TYPES.has(record.type) &&
      isRecord(record.payload) &&
      'timestamp' in record,
  );
}

/** State a Codex rollout converter carries from one line to the next (tool names, the CLI version). */
export interface CodexReaderState {
  /** Tool call id to tool name, filled by calls and read by their outputs. */
  readonly toolNames: Map<string, string>;
  /** `session_meta.cli_version`, the version of the summarizer of a later `compacted` line. */
  version: string;
}

/** A fresh converter state (or one restored from a saved ingest state). */
export function codexReaderState(
  saved: { toolNames?: Iterable<readonly [string, string]> | undefined; version?: string | undefined } = {},
): CodexReaderState {
  return { toolNames: new Map(saved.toolNames ?? []), version: saved.version ?? 'unknown' };
}

/**
 * Convert one parsed line of a Codex rollout (line `line` of `file`) into events, updating
 * `state`. A line without the expected shape is reported through `skipOrThrow`. Used by
 * {@link codexImporter} and by the incremental hook ingest, so both read a rollout the same way.
 */
export function convertCodexRecord(
  value: unknown,
  file: string,
  line: number,
  state: CodexReaderState,
  options: ImportOptions,
): TranscriptEvent[] {
  const label = `${file}:${line}`;
  const events: TranscriptEvent[] = [];
  const parsed = lineSchema.safeParse(value);
  const withPayload = parsed.success && READ_TYPES.has(parsed.data.type) ? payloadSchema.safeParse(value) : undefined;
  let error: z.ZodError | undefined = !parsed.success
    ? parsed.error
    : withPayload?.success === false
      ? withPayload.error
      : undefined;
  let prefix = '';
  if (parsed.success && withPayload?.success) {
    const type = parsed.data.type;
    const payload = withPayload.data.payload;
    prefix = 'payload.';
    if (type === 'session_meta') {
      state.version = schemas.session_meta.safeParse(payload).data?.cli_version ?? state.version;
    } else if (type === 'compacted') {
      const compacted = schemas.compacted.safeParse(payload);
      if (compacted.success)
        events.push({
          type: 'compaction',
          summary: compacted.data.message,
          summarizer: { name: 'codex', version: state.version },
          label,
        });
      else error = compacted.error;
    } else {
      const converted = convert(payload, label, state.toolNames);
      if ('error' in converted) error = converted.error;
      else if (converted.event) events.push(converted.event);
    }
  }
  if (error) {
    const { field, problem } = describeIssues(error);
    skipOrThrow(
      lineError(file, line, field === '(root)' ? prefix.slice(0, -1) || field : `${prefix}${field}`, problem),
      options,
    );
  }
  return events;
}

async function* read(file: string, options: ImportOptions): AsyncGenerator<TranscriptEvent> {
  const state = codexReaderState();
  for await (const { line, value } of readJsonLines(file, options))
    yield* convertCodexRecord(value, file, line, state, options);
}

/** Importer of OpenAI Codex CLI rollout JSONL. */
export const codexImporter: Importer = { format: 'codex', detect, read };
