/**
 * The real sessions the real-data benchmarks replay (`real-replay`, `prompt-cache`): every SWE-agent trajectory
 * under `--data/swe-agent/` concatenated into one session (tool-call ids prefixed `tN_` per trajectory so calls and
 * results still pair), each Claude Code session under `--data/claude-code/` on its own, and each Claude Code session
 * under `--data/entire/` on its own (the Codex rollouts there are left out: their compactions are opaque). `--data`
 * (or `CONTEXT_LEDGER_DATA` through the runner) points them at other sessions of the same layouts.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TranscriptMessage } from '../../src/index.js';
import { detectImportFormat } from '../../src/importers/registry.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import type { BenchTranscript } from '../data-sets.js';

/** The data sets of real sessions: `entire` holds the Claude Code sessions of `--data/entire/` (a 200k window). */
export type RealDataSet = 'swe-agent' | 'claude-code' | 'entire';

/** One real session to replay. */
export interface RealSession {
  /** Short name for tables: `swe-agent (40 trajectories)`, or the Claude Code session id. */
  readonly name: string;
  /** Its data set. */
  readonly dataSet: RealDataSet;
  /** Messages in order (the agent's own compactions left out). */
  readonly messages: readonly TranscriptMessage[];
  /**
   * The real file the session was read from, when it is one file (Claude Code): the replay reads it without the
   * agent's own compactions (`writeWithoutAgentCompactions`).
   */
  readonly file?: string | undefined;
}

/** The real sessions found, and what was not found. */
export interface RealSessions {
  readonly sessions: readonly RealSession[];
  /** One line per data set that is missing. */
  readonly missing: readonly string[];
}

/**
 * The messages of `trajectories` as one session, in order; the tool-call ids of trajectory `n` are prefixed `tN_`
 * (each trajectory numbers its calls from the start, so the ids would repeat across the concatenation).
 */
export function concatenateTrajectories(trajectories: readonly BenchTranscript[]): TranscriptMessage[] {
  return trajectories.flatMap((trajectory, index) =>
    trajectory.messages.map((message) => ({
      ...message,
      toolCalls: message.toolCalls?.map((call) => ({ ...call, id: `t${index}_${call.id}` })),
      toolCallId: message.toolCallId === undefined ? undefined : `t${index}_${message.toolCallId}`,
    })),
  );
}

/** One message as a line of the OpenAI-style `jsonl` import format. */
function jsonlLine(message: TranscriptMessage): string {
  const line: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.toolCalls && message.toolCalls.length > 0)
    line.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  if (message.toolCallId !== undefined) line.tool_call_id = message.toolCallId;
  if (message.toolName !== undefined) line.name = message.toolName;
  return JSON.stringify(line);
}

/** Write `messages` as a `jsonl` transcript (one OpenAI-style message a line); returns the bytes written. */
export async function writeJsonlTranscript(file: string, messages: readonly TranscriptMessage[]): Promise<number> {
  const stream = createWriteStream(file);
  let bytes = 0;
  for (const message of messages) {
    const line = `${jsonlLine(message)}\n`;
    bytes += Buffer.byteLength(line);
    if (!stream.write(line)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'close');
  return bytes;
}

/** True for a line of a Claude Code transcript that is the agent's own compaction: its boundary or its summary. */
export function isAgentCompactionLine(line: string): boolean {
  if (!line.includes('compact_boundary') && !line.includes('isCompactSummary')) return false;
  try {
    const record = JSON.parse(line) as Record<string, unknown> | null;
    return record?.subtype === 'compact_boundary' || record?.isCompactSummary === true;
  } catch {
    return false; // not JSON: left for the importer to report
  }
}

/**
 * Copy a Claude Code transcript to `target` without the agent's own compactions (boundary and summary lines; every
 * other line byte for byte), so a replay of it has context-ledger do every compaction, as the turn-by-turn arms do.
 * Returns the bytes written.
 */
export async function writeWithoutAgentCompactions(source: string, target: string): Promise<number> {
  const out = createWriteStream(target);
  let bytes = 0;
  for await (const line of createInterface({ input: createReadStream(source), crlfDelay: Infinity })) {
    if (isAgentCompactionLine(line)) continue;
    const text = `${line}\n`;
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return bytes;
}

/** The Claude Code session files under `dataDir/entire` (Codex rollouts left out), the `limit` smallest of them. */
export async function entireClaudeCodeFiles(dataDir: string, limit?: number): Promise<string[] | undefined> {
  const folder = join(dataDir, 'entire');
  const names = await readdir(folder).catch(() => undefined);
  if (!names) return undefined;
  const files: { file: string; bytes: number }[] = [];
  for (const name of names.filter((item) => item.endsWith('.jsonl')).sort()) {
    const file = join(folder, name);
    if ((await detectImportFormat(file)) === 'claude-code') files.push({ file, bytes: (await stat(file)).size });
  }
  if (limit === undefined || limit >= files.length) return files.map((item) => item.file);
  const kept = new Set([...files].sort((a, b) => a.bytes - b.bytes).slice(0, limit));
  return files.filter((item) => kept.has(item)).map((item) => item.file);
}

/** Options of {@link loadRealSessions}. */
export interface RealSessionOptions {
  /** SWE-agent trajectories concatenated, the first N (default all). */
  readonly trajectories?: number | undefined;
  /** Whether to load the `claude-code/` sessions (default true). */
  readonly claudeCode?: boolean | undefined;
  /** The N smallest Claude Code sessions of `entire/`, in file order (default all; 0 for none). */
  readonly entire?: number | undefined;
}

/**
 * The Claude Code sessions of `files`, one per transcript, named by data set and id: the session id's start for
 * `claude-code`, the file's shard and checkpoint for `entire` (`entire 0f_c364a22bea_0`).
 */
async function claudeCodeSessions(files: readonly string[], dataSet: RealDataSet, folder: string) {
  const sessions: RealSession[] = [];
  for (const file of files)
    for (const transcript of await loadTranscripts({ name: 'claude-code', folder, files: [file] })) {
      const id =
        dataSet === 'entire'
          ? basename(file, '.jsonl').replace(/^entireio-cli__|_full$/g, '')
          : transcript.id.slice(0, 8);
      sessions.push({ name: `${dataSet} ${id}`, dataSet, messages: transcript.messages, file });
    }
  return sessions;
}

/** The real sessions under `dataDir` (see {@link RealSessionOptions}), and what is missing. */
export async function loadRealSessions(dataDir: string, options: RealSessionOptions = {}): Promise<RealSessions> {
  const sessions: RealSession[] = [];
  const missing: string[] = [];
  const swe = await findDataSet(dataDir, 'swe-agent');
  if (swe.missing) missing.push(swe.missing);
  else {
    const trajectories = (await loadTranscripts(swe)).slice(0, options.trajectories ?? Number.POSITIVE_INFINITY);
    sessions.push({
      name: `swe-agent (${trajectories.length} trajectories as one session)`,
      dataSet: 'swe-agent',
      messages: concatenateTrajectories(trajectories),
    });
  }
  if (options.claudeCode !== false) {
    const claude = await findDataSet(dataDir, 'claude-code');
    if (claude.missing) missing.push(claude.missing);
    else sessions.push(...(await claudeCodeSessions(claude.files, 'claude-code', claude.folder)));
  }
  if (options.entire !== 0) {
    const files = await entireClaudeCodeFiles(dataDir, options.entire);
    if (files === undefined || files.length === 0)
      missing.push(`data set "entire" not found: no Claude Code sessions in ${join(dataDir, 'entire')}`);
    else sessions.push(...(await claudeCodeSessions(files, 'entire', join(dataDir, 'entire'))));
  }
  return { sessions, missing };
}
