/**
 * `speed-hook`: how long the Claude Code hook takes on a 5 MB transcript, per call, with the
 * project's SQLite ledger (what `context-ledger hook claude-code` runs):
 *
 * - first ingest: a `PreCompact` on a 5 MB transcript the ledger has never seen (a fresh
 *   ledger each round);
 * - incremental: the transcript grows by one turn (the user's prompt, a tool call, its result,
 *   the agent's answer) and `Stop` ingests it; this is what `PreCompact` has left to do when
 *   `Stop` has ingested every turn before it;
 * - SessionStart(compact): the ingest of the boundary + summary and the injected context;
 * - the same incremental call as a process (`node dist/cli/main.cjs hook claude-code`: the package's
 *   bin, what `install` writes and Claude Code waits for), when `dist/` is built, against a bare
 *   `node -e 0` start timed between its calls (interleaved, so a busy machine slows both alike): the
 *   target is at most twice that. When `NODE_EXTRA_CA_CERTS` is set, every node start parses those
 *   certificates first (a system bundle is most of a bare start's instructions), so both are timed
 *   again without it, and that ratio is reported too.
 *
 * The 5 MB transcript is the two public Claude Code sessions of the data set, concatenated under
 * one session id and cut at the last complete line before 5 MB (written to the temp directory).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runClaudeCodeHook } from '../../src/integrations/claude-code/hook.js';
import type { ClaudeCodeHookInput } from '../../src/integrations/claude-code/hook.js';
import { atMost, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { findDataSet } from '../data-sets.js';
import { speedResult } from './speed-result.js';
import { median, percentile, timeMs } from './timing.js';

/** Size of the transcript, in bytes. */
export const TRANSCRIPT_BYTES = 5 * 1024 * 1024;

const SESSION = '5e55b0b5-0000-4000-8000-00000000b5e5';

/** The data set's Claude Code sessions, one session id, cut at the last complete line within `bytes`. */
async function largeTranscript(files: readonly string[], bytes: number): Promise<string> {
  const lines: string[] = [];
  let size = 0;
  for (const file of files) {
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      if (line.trim().length === 0) continue;
      const text = line.replace(/"sessionId":"[^"]*"/, `"sessionId":"${SESSION}"`);
      const length = Buffer.byteLength(text) + 1;
      if (size + length > bytes) return lines.join('\n') + '\n';
      lines.push(text);
      size += length;
    }
  }
  return lines.join('\n') + '\n';
}

/** One turn in Claude Code's record shape: the user's prompt, a Bash call, its output, the answer. */
function turnRecords(turn: number, cwd: string): string {
  const at = (offset: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, turn * 4 + offset)).toISOString();
  const base = (type: string, offset: number) => ({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId: SESSION,
    version: '2.1.39',
    type,
    uuid: `b5e5b5e5-${String(turn).padStart(4, '0')}-4000-8000-${String(offset).padStart(12, '0')}`,
    timestamp: at(offset),
  });
  const id = `toolu_bench_${turn}`;
  const records = [
    { ...base('user', 0), message: { role: 'user', content: `Run the migration check for PAY-${4800 + turn} again.` } },
    {
      ...base('assistant', 1),
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command: `./scripts/check-migration.sh ${turn}` } }],
      },
    },
    {
      ...base('user', 2),
      message: {
        role: 'user',
        content: [
          { tool_use_id: id, type: 'tool_result', content: `migration 00${turn}_add_index: ok\npool_size=40\n` },
        ],
      },
    },
    {
      ...base('assistant', 3),
      message: { role: 'assistant', content: [{ type: 'text', text: `Migration 00${turn}_add_index passes.` }] },
    },
  ];
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
}

/** Run node with `args` and `input` on stdin: the wall time, exit status and output. */
function timeProcess(
  args: readonly string[],
  input: string,
  env: NodeJS.ProcessEnv,
): { ms: number; status: number | null; stdout: string; stderr: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
  return { ms: performance.now() - started, status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function hookInput(transcript: string, cwd: string, event: string, extra: object = {}): ClaudeCodeHookInput {
  return { session_id: SESSION, transcript_path: transcript, cwd, hook_event_name: event, ...extra };
}

function row(label: string, times: readonly number[]): (string | number | null)[] {
  return [label, times.length, round(median(times), 1), round(percentile(times, 0.95), 1)];
}

/** Run the benchmark. */
export async function runHookIngestBench(context: BenchContext): Promise<BenchResult> {
  const dataSet = await findDataSet(context.dataDir, 'claude-code');
  const notes = [
    'SQLite ledger in the temp directory, as the hook uses by default; each timing is one hook call (open the store, ingest, record the session, close).',
    'Transcript: the two public Claude Code sessions concatenated under one session id, cut to 5 MB of complete lines.',
    'Incremental: one turn (4 records) appended before each Stop call, after the first ingest.',
  ];
  if (dataSet.missing) {
    notes.push(dataSet.missing);
    return speedResult(context, 'speed-hook', 'Claude Code hook: time per call on a 5 MB transcript', {
      notes,
      tables: [],
      targets: [],
    });
  }
  const directory = join(context.tempDir, 'speed-hook');
  const cwd = join(directory, 'project');
  await mkdir(cwd, { recursive: true });
  const transcriptText = await largeTranscript(dataSet.files, TRANSCRIPT_BYTES);
  const transcript = join(directory, `${SESSION}.jsonl`);
  const firstRounds = context.quick ? 1 : 3;
  const turns = context.quick ? 5 : 20;
  const processCalls = context.quick ? 7 : 21;
  const first: number[] = [];
  const incremental: number[] = [];
  const compact: number[] = [];
  const processTimes: number[] = [];
  const nodeStartTimes: number[] = [];
  // The built CLI (CONTEXT_LEDGER_BENCH_CLI: another build of it, e.g. one compiled to a temporary directory).
  const cli = resolve(process.env.CONTEXT_LEDGER_BENCH_CLI ?? 'dist/cli/main.cjs');
  const certificates = process.env.NODE_EXTRA_CA_CERTS;
  const withoutCertificates = { ...process.env, NODE_EXTRA_CA_CERTS: undefined };
  const plainProcessTimes: number[] = [];
  const plainNodeStartTimes: number[] = [];
  for (let round = 0; round < firstRounds; round++) {
    const home = join(directory, `home-${round}`);
    const environment = { CONTEXT_LEDGER_HOME: home, HOME: directory };
    await writeFile(transcript, transcriptText);
    first.push(await timeMs(() => runClaudeCodeHook(hookInput(transcript, cwd, 'PreCompact'), { environment })));
    if (round > 0) continue;
    for (let turn = 0; turn < turns; turn++) {
      await appendFile(transcript, turnRecords(turn, cwd));
      incremental.push(await timeMs(() => runClaudeCodeHook(hookInput(transcript, cwd, 'Stop'), { environment })));
    }
    if (existsSync(cli)) {
      for (let turn = turns; turn < turns + processCalls; turn++) {
        await appendFile(transcript, turnRecords(turn, cwd));
        nodeStartTimes.push(timeProcess(['-e', '0'], '', process.env).ms);
        const run = timeProcess([cli, 'hook', 'claude-code'], JSON.stringify(hookInput(transcript, cwd, 'Stop')), {
          ...process.env,
          ...environment,
        });
        processTimes.push(run.ms);
        if (run.status !== 0 || run.stdout !== '')
          throw new Error(`hook process exited ${run.status} printing ${JSON.stringify(run.stdout)}: ${run.stderr}`);
        if (certificates === undefined) continue;
        await appendFile(transcript, turnRecords(turn + processCalls, cwd));
        plainNodeStartTimes.push(timeProcess(['-e', '0'], '', withoutCertificates).ms);
        const plain = timeProcess([cli, 'hook', 'claude-code'], JSON.stringify(hookInput(transcript, cwd, 'Stop')), {
          ...withoutCertificates,
          ...environment,
        });
        plainProcessTimes.push(plain.ms);
        if (plain.status !== 0 || plain.stdout !== '')
          throw new Error(
            `hook process exited ${plain.status} printing ${JSON.stringify(plain.stdout)}: ${plain.stderr}`,
          );
      }
    } else notes.push(`${cli} not built: the process timing is left out (run npm run build first).`);
    const boundary = JSON.stringify({
      parentUuid: null,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      sessionId: SESSION,
      version: '2.1.39',
      uuid: 'b5e5b5e5-ffff-4000-8000-000000000001',
      timestamp: new Date(Date.UTC(2026, 11, 1, 12)).toISOString(),
      compactMetadata: { trigger: 'auto', preTokens: 160000 },
    });
    const summary = JSON.stringify({
      parentUuid: null,
      type: 'user',
      isCompactSummary: true,
      sessionId: SESSION,
      version: '2.1.39',
      uuid: 'b5e5b5e5-ffff-4000-8000-000000000002',
      timestamp: new Date(Date.UTC(2026, 11, 1, 12, 0, 1)).toISOString(),
      message: { role: 'user', content: 'This session is being continued from a previous conversation. Summary: …' },
    });
    await appendFile(transcript, `${boundary}\n${summary}\n`);
    for (let call = 0; call < (context.quick ? 1 : 3); call++)
      compact.push(
        await timeMs(() =>
          runClaudeCodeHook(hookInput(transcript, cwd, 'SessionStart', { source: 'compact' }), { environment }),
        ),
      );
  }
  await rm(directory, { recursive: true, force: true });
  const rows = [
    row('PreCompact, first ingest of 5 MB', first),
    row('Stop, transcript grown by one turn (incremental)', incremental),
    row('SessionStart(compact): ingest + injected context', compact),
  ];
  if (processTimes.length > 0) {
    rows.push(row('Stop as a process (node startup included)', processTimes));
    rows.push(row('bare node start (`node -e 0`), between those calls', nodeStartTimes));
  }
  const ratio = processTimes.length > 0 ? round(median(processTimes) / median(nodeStartTimes), 2) : null;
  if (ratio !== null) notes.push(`Stop as a process: ${ratio}x a bare node start (medians of interleaved calls).`);
  if (plainProcessTimes.length > 0) {
    rows.push(row('Stop as a process, without NODE_EXTRA_CA_CERTS', plainProcessTimes));
    rows.push(row('bare node start, without NODE_EXTRA_CA_CERTS', plainNodeStartTimes));
    const plainRatio = round(median(plainProcessTimes) / median(plainNodeStartTimes), 2);
    notes.push(
      `NODE_EXTRA_CA_CERTS is set here: every node start above parses ${certificates} first. Without it (interleaved ` +
        `with the calls above): ${plainRatio}x a bare node start.`,
    );
  }
  const table = {
    title: `Claude Code hook on a ${(Buffer.byteLength(transcriptText) / 1024 / 1024).toFixed(1)} MB transcript (ms per call)`,
    columns: ['call', 'calls', 'median ms', 'p95 ms'],
    rows,
  };
  return speedResult(context, 'speed-hook', 'Claude Code hook: time per call on a 5 MB transcript', {
    notes,
    tables: [table],
    targets: [
      atMost('incremental Stop/PreCompact ingest p95 (ms, in process)', round(percentile(incremental, 0.95), 1), 500),
      atMost('first ingest of a 5 MB transcript p95 (ms)', round(percentile(first, 0.95), 1), 30_000),
      atMost('incremental Stop as a process / bare node start (median ratio)', ratio, 2),
    ],
    data: {
      first,
      incremental,
      compact,
      processTimes,
      nodeStartTimes,
      plainProcessTimes,
      plainNodeStartTimes,
      bytes: Buffer.byteLength(transcriptText),
    },
  });
}
