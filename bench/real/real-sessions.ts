/**
 * The real sessions the real-data benchmarks replay (`real-replay`, `prompt-cache`): every SWE-agent trajectory
 * under `--data/swe-agent/` concatenated into one session (tool-call ids prefixed `tN_` per trajectory so calls and
 * results still pair), and each Claude Code session under `--data/claude-code/` on its own. `--data` (or
 * `CONTEXT_LEDGER_DATA` through the runner) points them at other sessions of the same layouts.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { TranscriptMessage } from '../../src/index.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import type { BenchTranscript } from '../data-sets.js';

/** One real session to replay. */
export interface RealSession {
  /** Short name for tables: `swe-agent (40 trajectories)`, or the Claude Code session id. */
  readonly name: string;
  /** Its data set. */
  readonly dataSet: 'swe-agent' | 'claude-code';
  /** Messages in order (the agent's own compactions left out). */
  readonly messages: readonly TranscriptMessage[];
  /** The real file to replay through the CLI, when the session is one file as found (Claude Code). */
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

/**
 * The real sessions under `dataDir`. `trajectories` caps the SWE-agent trajectories concatenated (all by default);
 * `claudeCode: false` leaves the Claude Code sessions out (a --quick run).
 */
export async function loadRealSessions(
  dataDir: string,
  options: { readonly trajectories?: number | undefined; readonly claudeCode?: boolean | undefined } = {},
): Promise<RealSessions> {
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
  if (options.claudeCode === false) return { sessions, missing };
  const claude = await findDataSet(dataDir, 'claude-code');
  if (claude.missing) missing.push(claude.missing);
  else
    for (const file of claude.files)
      for (const transcript of await loadTranscripts({ ...claude, files: [file] }))
        sessions.push({
          name: `claude-code ${transcript.id.slice(0, 8)}`,
          dataSet: 'claude-code',
          messages: transcript.messages,
          file,
        });
  return { sessions, missing };
}
