/**
 * Loads the hand labels of `real-facts.ts` against their files: every label must still match its file (the value,
 * and each label word, on the line it names; the old value of an update on its line; the need after the statement),
 * else the load fails naming file, line and label. A labelled session is read as the hooks and the replay read it
 * (the Claude Code importer), and each JSONL line is mapped to the messages it produced, so a line can be turned into
 * the message index where a fact is stated and the one just before it is needed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readEvents } from '../../src/importers/registry.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { RealLabel } from './real-facts.js';

/** A labelled session, read. */
export interface RealSession {
  /** Path relative to the data folder. */
  readonly file: string;
  /** The raw JSONL lines (index 0 is line 1). */
  readonly lines: readonly string[];
  readonly messages: readonly TranscriptMessage[];
  /** 1-based JSONL line of each message. */
  readonly messageLines: readonly number[];
  /** Claude Code's own compactions: the boundary line, the summary line and the summary text. */
  readonly compactions: readonly { readonly boundary: number; readonly line: number; readonly summary: string }[];
}

/** All strings of a JSON value, depth first. */
function strings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
}

/** The text of one JSONL line as a reader sees it: the strings of its message (of the record, without a message). */
export function lineText(raw: string | undefined): string {
  if (raw === undefined) return '';
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return '';
  }
  const found: string[] = [];
  strings(record.message ?? record.content ?? '', found);
  return found.join('\n');
}

const normalized = (text: string) => text.toLowerCase().replace(/[_\s-]+/g, ' ');

/**
 * Whether every occurrence of `value` in `text` goes on from a path separator (`tmp/<hash>/chats/<name>.json` for a
 * value `<name>.json`): the scorer reads a value after a `/` as a part of a path, never a bound value of its own.
 */
export function insidePathOnly(text: string, value: string): boolean {
  let at = text.indexOf(value);
  if (at === -1 || value.startsWith('/')) return false;
  for (; at !== -1; at = text.indexOf(value, at + 1)) if (text.charCodeAt(at - 1) !== 47) return false;
  return true;
}

/** What is wrong with one label against its file's lines (empty when it matches). */
export function labelProblems(label: RealLabel, lines: readonly string[]): string[] {
  const where = `${label.file}:${label.line}`;
  const named = `${label.kind} "${label.value}"${label.labels.length > 0 ? ` (label ${label.labels.join(' / ')})` : ''}`;
  const problems: string[] = [];
  const text = lineText(lines[label.line - 1]);
  if (!text.includes(label.value)) problems.push(`${where}: ${named}: value not on the line`);
  else if (insidePathOnly(text, label.value))
    problems.push(`${where}: ${named}: value only inside a path on the line (it never binds): label the whole path`);
  for (const word of label.labels)
    if (!normalized(text).includes(normalized(word)))
      problems.push(`${where}: ${named}: label "${word}" not on the line`);
  if (label.old) {
    if (!lineText(lines[label.old.line - 1]).includes(label.old.value))
      problems.push(`${label.file}:${label.old.line}: ${named}: old value "${label.old.value}" not on the line`);
    if (label.old.line > label.line) problems.push(`${where}: ${named}: old value stated after the change`);
  }
  if (label.kind === 'rule' && !label.gist) problems.push(`${where}: ${named}: rule without a paraphrase`);
  if (label.kind === 'sibling' && !label.pair) problems.push(`${where}: ${named}: sibling without a pair id`);
  if (label.need <= label.line || label.need > lines.length)
    problems.push(`${where}: ${named}: need line ${label.need} is not a later line of the file`);
  return problems;
}

/** The Claude Code compactions of the raw lines: a `compact_boundary` and the summary record after it. */
function compactionsOf(lines: readonly string[]): RealSession['compactions'] {
  const found: { boundary: number; line: number; summary: string }[] = [];
  let boundary: number | undefined;
  lines.forEach((raw, index) => {
    if (!/compact/i.test(raw)) return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return;
    }
    if (record.type === 'system' && record.subtype === 'compact_boundary') boundary = index + 1;
    else if (record.type === 'user' && record.isCompactSummary === true) {
      found.push({ boundary: boundary ?? index + 1, line: index + 1, summary: lineText(raw) });
      boundary = undefined;
    }
  });
  return found;
}

/** Read one labelled session (a Claude Code JSONL file under `dataDir`). */
export async function readRealSession(dataDir: string, file: string): Promise<RealSession> {
  const path = join(dataDir, file);
  const lines = (await readFile(path, 'utf8')).split('\n');
  const lineOfUuid = new Map<string, number>();
  lines.forEach((raw, index) => {
    const uuid = /"uuid":"([^"]+)"/.exec(raw)?.[1];
    if (uuid !== undefined && !lineOfUuid.has(uuid)) lineOfUuid.set(uuid, index + 1);
  });
  const messages: TranscriptMessage[] = [];
  const messageLines: number[] = [];
  for await (const event of readEvents(path, { format: 'claude-code', skipInvalid: true })) {
    if (event.type !== 'message') continue;
    const label = event.message.label ?? '';
    const line = lineOfUuid.get(label) ?? Number(/:(\d+)$/.exec(label)?.[1] ?? Number.NaN);
    messages.push(event.message);
    messageLines.push(Number.isFinite(line) ? line : (messageLines.at(-1) ?? 0));
  }
  return { file, lines, messages, messageLines, compactions: compactionsOf(lines) };
}

/** Index of the first message from `line` or later (messages.length when none): the point just before `line`. */
export function messageIndexAt(session: RealSession, line: number): number {
  const index = session.messageLines.findIndex((each) => each >= line);
  return index === -1 ? session.messages.length : index;
}

/**
 * Read every labelled session and check every label; throws one error naming each label that does not match (file,
 * line, label), or whose line produced no message to replay.
 */
export async function loadRealLabels(dataDir: string, labels: readonly RealLabel[]): Promise<Map<string, RealSession>> {
  const sessions = new Map<string, RealSession>();
  const problems: string[] = [];
  for (const file of [...new Set(labels.map((label) => label.file))]) {
    const session = await readRealSession(dataDir, file);
    sessions.set(file, session);
    for (const label of labels.filter((each) => each.file === file)) {
      problems.push(...labelProblems(label, session.lines));
      if (!session.messageLines.includes(label.line))
        problems.push(`${file}:${label.line}: ${label.kind} "${label.value}": the line gives no message to replay`);
    }
  }
  if (problems.length > 0)
    throw new Error(`quality-facts-real: ${problems.length} label(s) do not match their file:\n${problems.join('\n')}`);
  return sessions;
}
