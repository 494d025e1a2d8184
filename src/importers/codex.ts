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
 *
 * Provenance (see provenance.ts): Codex writes much of a rollout's user role itself. A text part of a `user` message is
 * typed by the person unless it is one of Codex's wrappers (see {@link isCodexHarnessText}): the AGENTS.md block
 * (`# AGENTS.md instructions for …`, `<user_instructions>`), `<environment_context>` (cwd, shell, approval policy,
 * sandbox mode), a `<user_shell_command>` and its output, `<turn_aborted>`, or any part that is one whole
 * `<tag>…</tag>` element. Those parts are joined into a message of source `harness`. `developer` and `system` items
 * (permissions, collaboration mode, skills and plugin listings) are Codex's, not a person's: source `harness` too.
 */
import type { TranscriptMessage } from '../ingest/messages.js';
import type { FormatProvenance, ImportedEvent, ImportOptions, TranscriptEvent } from './events.js';
import { detectCodex } from './detect.js';
import { checkObject, checkOneOf, checkString, firstProblem, problemOf, typedRecord, under } from './field-checks.js';
import type { FieldProblem } from './field-checks.js';
import { isRecord, lineError, readJsonLines, skipOrThrow } from './jsonl-lines.js';
import { jsonOrText } from './json-text.js';
import { defineImporter, grantProvenance, quotedMessage, typedMessage } from './provenance.js';

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

type Content = string | readonly { readonly type: string; readonly text?: string }[];

/** Wrappers Codex starts a user-role text part with when it, not the person, wrote the part. */
const HARNESS_PREFIX = new RegExp(
  '^\\s*(?:#\\s*AGENTS\\.md instructions\\b|<(?:' +
    [
      'user_instructions',
      'environment_context',
      'user_shell_command',
      'turn_aborted',
      'approval_policy',
      'sandbox_mode',
      'INSTRUCTIONS',
      'permissions instructions',
      'collaboration_mode',
      'subagent_notification',
      'skill',
    ].join('|') +
    ')\\b)',
);

/** A part that is one whole element, `<tag>…</tag>`: the shape of every wrapper Codex writes into a user turn. */
const WRAPPED = /^\s*<([A-Za-z][\w -]*)>[\s\S]*<\/\1>\s*$/;

/**
 * Whether a text part of a Codex user message was written by Codex rather than typed by the person: one of its
 * wrappers (AGENTS.md, environment context, a user shell command and its output, an aborted turn) or any one whole
 * `<tag>…</tag>` element. A person who types such a wrapper only demotes their own words to quoted text.
 */
export function isCodexHarnessText(text: string): boolean {
  return HARNESS_PREFIX.test(text) || WRAPPED.test(text);
}

function partText(item: { readonly type: string; readonly text?: string }): string {
  return item.text ?? `[${item.type}]`;
}

/** A user message's parts as events: what the person typed, and Codex's wrappers (source `harness`), in order. */
function userMessages(content: Content, label: string): ImportedEvent[] {
  if (typeof content === 'string') {
    const message = { role: 'user' as const, content, label };
    return [isCodexHarnessText(content) ? quotedMessage(message) : typedMessage(message)];
  }
  const typed: string[] = [];
  const harness: string[] = [];
  for (const item of content)
    (item.text !== undefined && isCodexHarnessText(item.text) ? harness : typed).push(partText(item));
  if (typed.length === 0 && harness.length === 0) return [typedMessage({ role: 'user', content: '', label })];
  const harnessFirst = content[0]?.text !== undefined && isCodexHarnessText(content[0].text);
  const own = typed.length > 0 ? [typedMessage({ role: 'user', content: typed.join('\n'), label })] : [];
  const quoted = harness.length > 0 ? [quotedMessage({ role: 'user', content: harness.join('\n'), label })] : [];
  return harnessFirst ? [...quoted, ...own] : [...own, ...quoted];
}

function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  return content.map(partText).join('\n');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && typeof output.content === 'string') return output.content;
  return jsonOrText(output);
}

type Converted = { readonly events: ImportedEvent[] } | { readonly error: FieldProblem };

function convert(payload: Record<string, unknown>, label: string, toolNames: Map<string, string>): Converted {
  const message = (value: TranscriptMessage): Converted => ({ events: [quotedMessage(value)] });
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
      const content = payload.content as Content;
      if (payload.role === 'user') return { events: userMessages(content, label) };
      // `developer` and `system` items are Codex's own instructions (not affirmed: source `harness`).
      const role = payload.role === 'assistant' ? 'assistant' : 'system';
      return message({ role, content: textOf(content), label });
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
      return { events: [] };
  }
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
 * Convert one parsed line of a Codex rollout (line `line` of `file`) into events, provenance granted (a user part
 * Codex wrote, and a developer item, are source `harness`), updating `state`. A line without the expected shape is
 * reported through `skipOrThrow`. Used by the incremental hook ingest; {@link codexImporter} reads a rollout the same way.
 */
export function convertCodexRecord(
  value: unknown,
  file: string,
  line: number,
  state: CodexReaderState,
  options: ImportOptions,
): TranscriptEvent[] {
  return importCodexRecord(value, file, line, state, options).map(grantProvenance);
}

function importCodexRecord(
  value: unknown,
  file: string,
  line: number,
  state: CodexReaderState,
  options: ImportOptions,
): ImportedEvent[] {
  const label = `${file}:${line}`;
  const events: ImportedEvent[] = [];
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
        else events.push(...converted.events);
      }
    }
  }
  if (error) {
    const { field, problem } = inPayload ? under('payload', error) : error;
    skipOrThrow(lineError(file, line, field, problem), options);
  }
  return events;
}

async function* readImported(file: string, options: ImportOptions): AsyncGenerator<ImportedEvent> {
  const state = codexReaderState();
  for await (const { line, value } of readJsonLines(file, options))
    yield* importCodexRecord(value, file, line, state, options);
}

/** What a person typed in a Codex rollout, and what Codex wrote in the user and developer roles. */
const provenance: FormatProvenance = {
  typed: ['`response_item` `message` of role user: its text parts that are not a Codex wrapper'],
  quoted: [
    'user parts: `# AGENTS.md instructions` / `<user_instructions>`, `<environment_context>`, `<user_shell_command>`',
    'user parts: `<turn_aborted>`, any part that is one whole `<tag>…</tag>` element',
    '`response_item` `message` of role developer or system (permissions, collaboration mode, skills, plugins)',
  ],
};

/** Importer of OpenAI Codex CLI rollout JSONL. */
export const codexImporter = defineImporter({ format: 'codex', provenance, detect: detectCodex, readImported });
