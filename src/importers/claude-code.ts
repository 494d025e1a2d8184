/**
 * Claude Code session JSONL (`~/.claude/projects/…/<session>.jsonl`).
 *
 * - `user` / `assistant` records become messages (label: the record's `uuid`). Assistant
 *   records are split per content block in Claude Code; each record is one message here.
 *   A user record of only `tool_result` blocks becomes `tool` messages, one per block.
 * - `isMeta` user records (command caveats, hook output, system reminders, file attachments) are KEPT: the model
 *   saw them, so they are part of the context a ledger must be able to recover. But the user did not type them, so
 *   they are messages of source `harness` (quoted, never pinned as the user's instructions), and so is every text
 *   block of a user record that Claude Code wrote: shell and local command output (`<bash-stdout>`, `<bash-stderr>`,
 *   `<local-command-stdout>`), command wrappers (`<command-name>`, `<command-message>`, `<command-args>`), task
 *   notifications, system reminders, hook output, IDE context and interruption markers (see {@link isHarnessText}).
 *   What the user typed (including `<bash-input>`, a shell command the user typed) stays a user message.
 * - A `system` record with `subtype: "compact_boundary"` followed by a `user` record with
 *   `isCompactSummary: true` is ONE `compaction` event whose summary is that record's text; the
 *   summary is not also emitted as a message. A boundary with no summary yields nothing.
 * - `thinking` blocks, `progress`, `file-history-snapshot`, `queue-operation`, other `system`
 *   subtypes (hook summaries, turn durations), `summary` records (session titles) and unknown
 *   record types are skipped: they are UI state, not model context.
 * - `*.compact-agent.jsonl` files (the compaction prompt and its output, a sidechain) read as
 *   ordinary sessions.
 *
 * Provenance (see provenance.ts): a text block of a `user` record is typed by the person only when the record is the
 * main conversation's (`isSidechain` not true, not `isMeta`, not `isCompactSummary`) and the block is not Claude Code's
 * own text ({@link isHarnessText}). A sidechain record (`isSidechain: true`: a sub-agent's conversation, in the main
 * file in the 1.x layout or in `subagents/agent-*.jsonl`, and the compaction agent's prompt) is written by the main
 * agent or by Claude Code, never by the person: its user text is source `harness`, and so is every user record of a
 * file named `agent-*.jsonl`. `system` records yield no message.
 */
import { basename } from 'node:path';
import { blocksText, convertAnthropicContent, isAnthropicContent } from './anthropic-blocks.js';
import { detectClaudeCode } from './detect.js';
import { checkBoolean, checkObject, checkString, firstProblem, typedRecord } from './field-checks.js';
import type { FormatProvenance, ImportedEvent, ImportOptions, TranscriptEvent } from './events.js';
import { lineError, readJsonLines, skipOrThrow } from './jsonl-lines.js';
import { invalidMessage } from './message-check.js';
import { defineImporter, grantProvenance, quotedMessage, typedMessage } from './provenance.js';

/** The fields of a `user` or `assistant` record this importer reads (checked by `messageRecordProblem`). */
interface MessageRecord {
  readonly type: 'user' | 'assistant';
  readonly uuid?: string | null;
  readonly version?: string | null;
  readonly isCompactSummary?: boolean | null;
  readonly isMeta?: boolean | null;
  readonly isSidechain?: boolean | null;
  readonly message: { readonly content?: unknown };
}

/** Tags and markers Claude Code starts a user-turn text block with when it, not the user, wrote the text. */
const HARNESS_TEXT = new RegExp(
  '^\\s*(?:<(?:' +
    [
      'bash-stdout',
      'bash-stderr',
      'local-command-stdout',
      'local-command-stderr',
      'local-command-caveat',
      'command-name',
      'command-message',
      'command-args',
      'task-notification',
      'system-reminder',
      'user-prompt-submit-hook',
      'ide_selection',
      'ide_opened_file',
    ].join('|') +
    ')>|\\[Request interrupted by user)',
);

/**
 * Whether a text block of a Claude Code user record was written by Claude Code rather than typed by the user: it
 * starts with one of the tags Claude Code wraps command output, command invocations, notifications, reminders, hook
 * output and IDE context in, or with an interruption marker. A user who types such a tag only demotes their own words.
 */
export function isHarnessText(text: string): boolean {
  return HARNESS_TEXT.test(text);
}

function messageRecordProblem(record: Record<string, unknown>) {
  return firstProblem(
    checkString(record, 'uuid', 'nullish'),
    checkString(record, 'version', 'nullish'),
    checkBoolean(record, 'isCompactSummary', 'nullish'),
    checkBoolean(record, 'isMeta', 'nullish'),
    checkBoolean(record, 'isSidechain', 'nullish'),
    checkObject(record, 'message'),
  );
}

/** State a Claude Code record converter carries from one record to the next (tool names, the pending boundary). */
export interface ClaudeCodeReaderState {
  /** Tool call id to tool name, filled by `tool_use` blocks and read by `tool_result` blocks. */
  readonly toolNames: Map<string, string>;
  /** Claude Code version of the last `compact_boundary` not yet followed by its summary. */
  boundaryVersion?: string | undefined;
}

/** A fresh converter state (or one restored from a saved ingest state). */
export function claudeCodeReaderState(
  saved: { toolNames?: Iterable<readonly [string, string]> | undefined; boundaryVersion?: string | undefined } = {},
): ClaudeCodeReaderState {
  return { toolNames: new Map(saved.toolNames ?? []), boundaryVersion: saved.boundaryVersion };
}

/**
 * Convert one parsed record of a Claude Code session (line `line` of `file`) into events, provenance granted (text
 * the person did not type is source `harness`), updating `state`. A record that does not have the expected shape is
 * reported through `skipOrThrow` (thrown unless `skipInvalid`). Used by the incremental hook ingest;
 * {@link claudeCodeImporter} reads a transcript the same way.
 */
export function convertClaudeCodeRecord(
  value: unknown,
  file: string,
  line: number,
  state: ClaudeCodeReaderState,
  options: ImportOptions,
): TranscriptEvent[] {
  return importClaudeCodeRecord(value, file, line, state, options).map(grantProvenance);
}

/** A sub-agent's transcript file (`subagents/agent-<id>.jsonl`): none of its user records is the person's. */
function isSubAgentFile(file: string): boolean {
  return /^agent-.*\.jsonl$/.test(basename(file));
}

function importClaudeCodeRecord(
  value: unknown,
  file: string,
  line: number,
  state: ClaudeCodeReaderState,
  options: ImportOptions,
): ImportedEvent[] {
  const typed = typedRecord(value);
  if (typed) {
    skipOrThrow(lineError(file, line, typed.field, typed.problem), options);
    return [];
  }
  const record = value as Record<string, unknown> & { readonly type: string };
  const type = record.type;
  if (type === 'system') {
    const fits =
      checkString(record, 'subtype', 'nullish') === undefined &&
      checkString(record, 'version', 'nullish') === undefined;
    if (fits && record.subtype === 'compact_boundary')
      state.boundaryVersion = (record.version as string | null) ?? undefined;
    return [];
  }
  if (type !== 'user' && type !== 'assistant') return [];
  const problem = messageRecordProblem(record);
  if (problem) {
    skipOrThrow(lineError(file, line, problem.field, problem.problem), options);
    return [];
  }
  const data = record as unknown as MessageRecord;
  const label = data.uuid ?? `${file}:${line}`;
  if (data.type === 'user' && data.isCompactSummary === true) {
    if (!isAnthropicContent(data.message.content)) {
      skipOrThrow(lineError(file, line, 'message.content', 'expected a string or an array of content blocks'), options);
      return [];
    }
    const version = data.version ?? state.boundaryVersion ?? 'unknown';
    state.boundaryVersion = undefined;
    return [
      {
        type: 'compaction',
        summary: blocksText(data.message.content),
        summarizer: { name: 'claude-code', version },
        label,
      },
    ];
  }
  // A meta record is Claude Code's own (an attachment, a caveat, hook output), and a sidechain record is a sub-agent's
  // conversation (its "user" prompt is the main agent's): none of their text was typed by the user.
  const byPerson = data.isMeta !== true && data.isSidechain !== true && !isSubAgentFile(file);
  const harnessText = byPerson ? isHarnessText : () => true;
  const converted = convertAnthropicContent(data.type, data.message.content, label, state.toolNames, harnessText);
  if ('field' in converted) {
    skipOrThrow(lineError(file, line, `message.${converted.field}`, converted.problem), options);
    return [];
  }
  const events: ImportedEvent[] = [];
  for (const message of converted.messages) {
    const invalid = invalidMessage(file, message, `${file}:${line}`);
    if (invalid) skipOrThrow(invalid, options);
    // Affirmed: a user text block of the person's own record that is not Claude Code's text (those carry `harness`).
    else events.push(byPerson && message.source === undefined ? typedMessage(message) : quotedMessage(message));
  }
  return events;
}

async function* readImported(file: string, options: ImportOptions): AsyncGenerator<ImportedEvent> {
  const state = claudeCodeReaderState();
  for await (const { line, value } of readJsonLines(file, options))
    yield* importClaudeCodeRecord(value, file, line, state, options);
}

/** What a person typed in a Claude Code session, and what Claude Code and its agents wrote in the user role. */
const provenance: FormatProvenance = {
  typed: [
    'text blocks of a main-conversation `user` record (not isMeta, not isSidechain) that are not Claude Code tags',
  ],
  quoted: [
    '`isMeta` user records (attachments, caveats, hook output, reminders)',
    'user text blocks starting with a Claude Code tag (command output and wrappers, notifications, reminders, hooks)',
    '`isSidechain` user records and every user record of `agent-*.jsonl`: a sub-agent prompt the main agent wrote',
  ],
};

/** Importer of Claude Code session JSONL. */
export const claudeCodeImporter = defineImporter({
  format: 'claude-code',
  provenance,
  detect: detectClaudeCode,
  readImported,
});
