/**
 * SWE-agent and mini-swe-agent trajectories.
 *
 * - JSONL, one trajectory per line (`{instance_id, resolved, exit_status, submission,
 *   messages}`): each line yields a `session` event (sessionId = `instance_id`) and its messages.
 * - A single trajectory JSON: mini-swe-agent `{messages, info}` or SWE-agent `.traj`
 *   (`history`, else `trajectory` steps read as assistant response + user observation).
 * Messages are OpenAI-like; tool calls may be flat `{id, name, arguments}` (mini-swe-agent)
 * or `{id, function: {name, arguments}}`. The `exit` role (mini-swe-agent's end marker, a copy
 * of the submission the model never saw) is skipped. Labels are `FILE:LINE#INDEX`.
 *
 * Provenance (see provenance.ts): in a trajectory the person speaks once, in the task. Affirmed are the leading
 * `system` messages (the agent's system prompt, from the configuration whoever ran the agent wrote) and the first
 * `user` message that is not a demonstration (`is_demo`): the instance prompt holding the problem statement, the
 * issue a person filed, wrapped in the agent's template (SWE-agent tags it `message_type: "observation"` like command
 * output, so that tag cannot tell them apart; its position does). Every later `user` message is the agent harness's:
 * command output (`cat CONTRIBUTING.md` of the repository under test), format-error nags, step limits. Those,
 * demonstrations, and `system` messages after the conversation started are source `harness`; so is every
 * `observation` of `trajectory` steps. `tool` messages are tool results.
 */
import { basename } from 'node:path';
import { z } from 'zod';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { FormatProvenance, ImportedEvent, ImportOptions } from './events.js';
import { detectSweAgent } from './detect.js';
import { readJsonFile, recordError, zodRecordError } from './json-file.js';
import { isRecord, lineError, readJsonLines, skipOrThrow } from './jsonl-lines.js';
import { describeIssues } from './openai-message.js';
import { maxLineBytes, openByteStream, splitLines, TranscriptInputs } from './transcript-input.js';
import { jsonOrText } from './json-text.js';
import { defineImporter, quotedMessage, typedMessage } from './provenance.js';

const part = z.object({ type: z.string(), text: z.string().optional() }).loose();
const toolCall = z.union([
  z
    .object({ id: z.string(), function: z.object({ name: z.string(), arguments: z.unknown().optional() }).loose() })
    .loose()
    .transform((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
  z
    .object({ id: z.string(), name: z.string(), arguments: z.unknown().optional() })
    .loose()
    .transform((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
]);
const messageSchema = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'exit']),
    content: z.union([z.string(), z.array(part), z.null()]).optional(),
    tool_calls: z.array(toolCall).nullish(),
    tool_call_id: z.string().nullish(),
    tool_call_ids: z.array(z.string()).nullish(),
    is_demo: z.boolean().nullish(),
  })
  .loose();
const stepSchema = z
  .object({
    response: z.string().nullish(),
    thought: z.string().nullish(),
    action: z.string().nullish(),
    observation: z.string().nullish(),
  })
  .loose();
const trajectorySchema = z
  .object({
    instance_id: z.string().nullish(),
    info: z.object({ instance_id: z.string().nullish() }).loose().nullish(),
    messages: z.array(z.unknown()).nullish(),
    history: z.array(z.unknown()).nullish(),
    trajectory: z.array(z.unknown()).nullish(),
  })
  .loose()
  .refine((value) => value.messages || value.history || value.trajectory, {
    message: 'expected a "messages", "history" or "trajectory" array',
    path: ['messages'],
  });

type Trajectory = z.infer<typeof trajectorySchema>;
type Fail = (field: string, problem: string) => void;

const text = jsonOrText;

/** What the conversation has shown so far, for provenance: whether it has left the system prompt, and the task. */
interface Seen {
  started: boolean;
  task: boolean;
}

/** Whether a person wrote this message (see the header): the leading system prompt, or the task. */
function affirmed(data: z.infer<typeof messageSchema>, role: 'system' | 'user' | 'assistant' | 'tool', seen: Seen) {
  if (role === 'system') return !seen.started;
  seen.started = true;
  if (role !== 'user' || seen.task || data.is_demo === true) return false;
  seen.task = true;
  return true;
}

function toMessage(
  raw: unknown,
  label: string,
  toolNames: Map<string, string>,
  seen: Seen,
): { event?: ImportedEvent | undefined } | { error: z.ZodError } {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return { error: parsed.error };
  const { role, content, tool_calls: calls, tool_call_id: callId, tool_call_ids: callIds } = parsed.data;
  if (role === 'exit') return {};
  const body =
    typeof content === 'string' ? content : (content ?? []).map((item) => item.text ?? `[${item.type}]`).join('\n');
  const toolCalls = (calls ?? []).map((call) => ({ id: call.id, name: call.name, arguments: text(call.arguments) }));
  const mapped = role === 'developer' ? 'system' : role;
  for (const call of toolCalls) toolNames.set(call.id, call.name);
  const toolCallId = mapped === 'tool' ? (callId ?? callIds?.[0] ?? 'unknown') : undefined;
  const toolName = toolCallId === undefined ? undefined : toolNames.get(toolCallId);
  const message: TranscriptMessage = {
    role: mapped,
    content: body,
    toolCalls: toolCalls.length > 0 ? toolCalls : undefined,
    toolCallId,
    toolName,
    label,
  };
  return { event: affirmed(parsed.data, mapped, seen) ? typedMessage(message) : quotedMessage(message) };
}

function* trajectoryEvents(value: Trajectory, sessionId: string, label: string, fail: Fail): Generator<ImportedEvent> {
  yield { type: 'session', sessionId: value.instance_id ?? value.info?.instance_id ?? sessionId, label };
  const list = value.messages ?? value.history;
  const key = value.messages ? 'messages' : 'history';
  if (list) {
    const toolNames = new Map<string, string>();
    const seen: Seen = { started: false, task: false };
    for (const [index, raw] of list.entries()) {
      const converted = toMessage(raw, `${label}#${index}`, toolNames, seen);
      if ('error' in converted) {
        const { field, problem } = describeIssues(converted.error);
        fail(`${key}.${index}${field === '(root)' ? '' : `.${field}`}`, problem);
      } else if (converted.event) yield converted.event;
    }
    return;
  }
  for (const [index, raw] of (value.trajectory ?? []).entries()) {
    const step = stepSchema.safeParse(raw);
    if (!step.success) {
      fail(`trajectory.${index}`, describeIssues(step.error).problem);
      continue;
    }
    const response = step.data.response ?? [step.data.thought, step.data.action].filter(Boolean).join('\n');
    yield quotedMessage({ role: 'assistant', content: response, label: `${label}#${index}` });
    // An observation is the output of the step's command, in a user turn: the harness's, never the person's.
    if (step.data.observation != null)
      yield quotedMessage({ role: 'user', content: step.data.observation, label: `${label}#${index}` });
  }
}

/** The first `count` non-blank lines of a file (streamed; stops early). */
async function firstLines(file: string, count: number, inputs: TranscriptInputs): Promise<string[]> {
  const { stream } = await openByteStream(file, inputs);
  const found: string[] = [];
  for await (const { text } of splitLines(file, stream, maxLineBytes()))
    if (text.trim().length > 0 && found.push(text) >= count) break;
  return found;
}

function isJsonObject(line: string | undefined): boolean {
  try {
    return line !== undefined && isRecord(JSON.parse(line));
  } catch {
    return false;
  }
}

/** JSONL when the first line, or (the first being corrupt) the second, is a complete JSON object. */
async function isJsonl(file: string, inputs: TranscriptInputs): Promise<boolean> {
  const [first, second] = await firstLines(file, 2, inputs);
  return isJsonObject(first) || (!/^\s*[[{]\s*$/.test(first ?? '') && isJsonObject(second));
}

async function* readImported(file: string, given: ImportOptions): AsyncGenerator<ImportedEvent> {
  const name = basename(file).replace(/\.(traj\.json|traj|json|jsonl)$/, '');
  // The file is looked at, then read: a pipe once, held by one owner for both.
  const inputs = given.inputs ?? new TranscriptInputs();
  const options: ImportOptions = { ...given, inputs };
  if (!(await isJsonl(file, inputs))) {
    const parsed = trajectorySchema.safeParse(await readJsonFile(file, options));
    if (!parsed.success) throw zodRecordError(file, '(root)', parsed.error);
    yield* trajectoryEvents(parsed.data, name, file, (field, problem) =>
      skipOrThrow(recordError(file, '(root)', field, problem), options),
    );
    return;
  }
  for await (const { line, value } of readJsonLines(file, options)) {
    const parsed = trajectorySchema.safeParse(value);
    if (!parsed.success) {
      const { field, problem } = describeIssues(parsed.error);
      skipOrThrow(lineError(file, line, field, problem), options);
      continue;
    }
    const fail: Fail = (field, problem) => skipOrThrow(lineError(file, line, field, problem), options);
    yield* trajectoryEvents(parsed.data, line === 1 ? name : `${name}:${line}`, `${file}:${line}`, fail);
  }
}

/** What a person wrote in a SWE-agent trajectory, and what the agent harness wrote in the user and system roles. */
const provenance: FormatProvenance = {
  typed: ['leading `system` messages (the configured system prompt)', 'the first `user` message: the task'],
  quoted: [
    'every later `user` message (observations: command output, format errors, limits)',
    '`is_demo` demonstrations',
    '`system` messages after the conversation started',
    '`trajectory` step observations',
  ],
};

/** Importer of SWE-agent / mini-swe-agent trajectories (JSONL of trajectories, or one trajectory JSON). */
export const sweAgentImporter = defineImporter({
  format: 'swe-agent',
  provenance,
  detect: detectSweAgent,
  readImported,
});
