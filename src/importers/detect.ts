/**
 * How each transcript format is recognised from the head of a file (its first ~64 KB, possibly cut mid-line). The
 * detectors live here, apart from the importers: detection looks at every format, reading looks at one, so the
 * registry loads an importer (and the zod schemas some of them check records with) only for the format it reads.
 * Nothing here imports zod or an importer. Each importer's `detect` is the function of its format here.
 */
import { headRecords, isRecord } from './jsonl-lines.js';

/** The record types of a Claude Code session file. */
const CLAUDE_CODE_RECORD_TYPES = new Set([
  'user',
  'assistant',
  'progress',
  'system',
  'file-history-snapshot',
  'queue-operation',
  'summary',
]);

/** True when the head looks like a Claude Code session: records with a known `type` and a `uuid`/`sessionId`. */
export function detectClaudeCode(head: string): boolean {
  const records = headRecords(head).filter(isRecord);
  if (records.length > 0) {
    return records.some(
      (record) =>
        typeof record.type === 'string' &&
        CLAUDE_CODE_RECORD_TYPES.has(record.type) &&
        (('uuid' in record && 'sessionId' in record) ||
          record.type === 'file-history-snapshot' ||
          'leafUuid' in record),
    );
  }
  return /^\s*\{/.test(head) && /"parentUuid"\s*:/.test(head) && /"sessionId"\s*:/.test(head);
}

/** The line types of a Codex rollout. */
const CODEX_LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** True when the head holds a Codex rollout line: a known `type`, a `payload` object and a `timestamp`. */
export function detectCodex(head: string): boolean {
  return headRecords(head).some(
    (record) =>
      isRecord(record) &&
      typeof record.type === 'string' &&
      CODEX_LINE_TYPES.has(record.type) &&
      isRecord(record.payload) &&
      'timestamp' in record,
  );
}

/** Any of these in a file's head marks a SWE-agent or mini-swe-agent trajectory. */
const SWE_AGENT_MARKERS = [
  /^\s*\{\s*"instance_id"\s*:/,
  /"trajectory_format"\s*:\s*"mini-swe-agent/,
  /^\s*\{\s*"(trajectory|history)"\s*:\s*\[/,
];

/** True when the head looks like a SWE-agent trajectory (JSON, or JSONL of trajectories). */
export function detectSweAgent(head: string): boolean {
  const first = head.trimStart().split('\n', 1)[0] ?? '';
  if (SWE_AGENT_MARKERS.some((marker) => marker.test(head))) return true;
  if (/"history"\s*:\s*\[/.test(head) && /"trajectory"\s*:\s*\[/.test(head)) return true;
  if (/^\{\s*"info"\s*:/.test(head.trimStart()) && /"(mini_version|model_stats|exit_status)"\s*:/.test(head))
    return true;
  return (
    first.startsWith('{') && /"instance_id"\s*:/.test(first) && /"(messages|history|trajectory)"\s*:\s*\[/.test(first)
  );
}

/** True when the head looks like LoCoMo conversation JSON. */
export function detectLocomo(head: string): boolean {
  const start = head.trimStart();
  if (!start.startsWith('[') && !start.startsWith('{')) return false;
  return (
    /"sample_id"\s*:/.test(start) ||
    /"speaker_a"\s*:/.test(start) ||
    /^\[\s*\{\s*"qa"\s*:\s*\[\s*\{\s*"question"\s*:/.test(start)
  );
}

/** Any of these in a file's head marks AI SDK messages: its part types, `toolCallId`, `providerOptions`. */
const AI_SDK_MARKERS = /"type"\s*:\s*"(tool-call|tool-result|reasoning)"|"toolCallId"\s*:|"providerOptions"\s*:/;

/** True when the head looks like AI SDK `ModelMessage` JSON. */
export function detectAiSdk(head: string): boolean {
  const start = head.trimStart();
  return (start.startsWith('[') || start.startsWith('{')) && AI_SDK_MARKERS.test(start);
}

/** Any of these in a file's head marks Anthropic Messages JSON: content block types, tool_use_id, a top-level system, a source block. */
const ANTHROPIC_MARKERS = new RegExp(
  [
    /"type"\s*:\s*"(tool_use|tool_result|thinking|redacted_thinking)"/.source,
    /"tool_use_id"\s*:/.source,
    /^\s*\{\s*"system"\s*:/.source,
    /"source"\s*:\s*\{\s*"type"\s*:\s*"(base64|url|text|file)"/.source,
  ].join('|'),
);

/** True when the head looks like Anthropic Messages JSON (a whole `{system, messages}` body, or its markers). */
export function detectAnthropic(head: string): boolean {
  const start = head.trimStart();
  if (!start.startsWith('[') && !start.startsWith('{')) return false;
  try {
    const whole: unknown = JSON.parse(start);
    if (isRecord(whole) && 'system' in whole && Array.isArray(whole.messages)) return true;
  } catch {
    // the head is cut off: fall back to markers
  }
  return ANTHROPIC_MARKERS.test(start);
}

/** True when the head looks like OpenAI chat messages as a JSON array, or an object with a `messages` array. */
export function detectOpenAi(head: string): boolean {
  const start = head.trimStart();
  return start.startsWith('[') || /^\{\s*"messages"\s*:/.test(start);
}

/** True when the head is `{`-led: OpenAI chat messages one per line (the fallback for any other such file). */
export function detectJsonl(head: string): boolean {
  return head.trimStart().startsWith('{');
}
