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
import type { TranscriptMessage } from '../ingest/messages.js';
import type { Importer, ImportOptions, TranscriptEvent } from './events.js';
import { checkObject, checkOneOf, checkString, firstProblem, problemOf, typedRecord, under } from './field-checks.js';
import type { FieldProblem } from './field-checks.js';
import { headRecords, isRecord, lineError, readJsonLines, skipOrThrow } from './jsonl-lines.js';
import { jsonOrText } from './json-text.js';

const LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** Line types whose payload this importer reads. */
const READ_TYPES = new Set(['session_meta', 'response_item', 'compacted']);

/** A message's content: a string or an array of typed parts, each with an optional string `text`. */
function contentProblem(content: unknown): FieldProblem | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return problemOf('content', 'a string or an array of content parts', content);
  for (const [index, part] of (content as unknown[]).entries()) {
    const problem = typedRecord(part) ?? checkString(part as Record<string, unknown>, 'text', 'optional');
    if (problem) return under(`content.${index}`, problem);
  }
  return undefined;
}

function textOf(content: string | readonly { readonly type: string; readonly text?: string }[]): string {
  if (typeof content === 'string') return content;
  return content.map((item) => item.text ?? `[${item.type}]`).join('\n');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && typeof output.content === 'string') return output.content;
  return jsonOrText(output);
}

type Converted = { readonly event?: TranscriptEvent | undefined } | { readonly error: FieldProblem };

function convert(payload: Record<string, unknown>, label: string, toolNames: Map<string, string>): Converted {
  const message = (value: TranscriptMessage): Converted => ({ event: { type: 'message', message: value } });
  const call = (id: string, name: string, args: string): Converted => {
    toolNames.set(id, name);
    return message({ role: 'assistant', content: '', toolCalls: [{ id, name, arguments: args }], label });
  };
  const text = (key: string) => payload[key] as string;
  switch (payload.type) {
    case 'message': {
      const error = firstProblem(
        checkOneOf(payload, 'role', ['user', 'assistant', 'system', 'developer']),
        contentProblem(payload.content),
      );
      if (error) return { error };
      const role = payload.role === 'developer' ? 'system' : (payload.role as 'user' | 'assistant' | 'system');
      return message({ role, content: textOf(payload.content as Parameters<typeof textOf>[0]), label });
    }
    case 'function_call': {
      const error = firstProblem(
        checkString(payload, 'name'),
        checkString(payload, 'arguments'),
        checkString(payload, 'call_id'),
      );
      return error ? { error } : call(text('call_id'), text('name'), text('arguments'));
    }
    case 'custom_tool_call': {
      const error = firstProblem(
        checkString(payload, 'name'),
        checkString(payload, 'input'),
        checkString(payload, 'call_id'),
      );
      return error ? { error } : call(text('call_id'), text('name'), text('input'));
    }
    case 'local_shell_call': {
      const error = firstProblem(checkString(payload, 'call_id', 'nullish'), checkString(payload, 'id', 'nullish'));
      if (error) return { error };
      const id = (payload.call_id as string | null | undefined) ?? (payload.id as string | null | undefined) ?? label;
      return call(id, 'local_shell', jsonOrText(payload.action));
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const error = checkString(payload, 'call_id');
      if (error) return { error };
      const id = text('call_id');
      return message({
        role: 'tool',
        content: outputText(payload.output),
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
  let error = typedRecord(value);
  let inPayload = false;
  const record = value as Record<string, unknown> & { readonly type: string };
  if (error === undefined && READ_TYPES.has(record.type)) {
    error = checkObject(record, 'payload');
    const payload = record.payload as Record<string, unknown>;
    if (error === undefined) {
      inPayload = true;
      if (record.type === 'session_meta') {
        if (typeof payload.cli_version === 'string') state.version = payload.cli_version;
      } else if (record.type === 'compacted') {
        error = checkString(payload, 'message');
        if (error === undefined)
          events.push({
            type: 'compaction',
            summary: payload.message as string,
            summarizer: { name: 'codex', version: state.version },
            label,
          });
      } else {
        const converted = convert(payload, label, state.toolNames);
        if ('error' in converted) error = converted.error;
        else if (converted.event) events.push(converted.event);
      }
    }
  }
  if (error) {
    const { field, problem } = inPayload ? under('payload', error) : error;
    skipOrThrow(lineError(file, line, field, problem), options);
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
