/**
 * Replay throughput from 10 MB to 1 GB (`speed-replay-scale`): Claude Code transcripts made
 * from the dev sessions (`claude-code-corpus.ts`, written to the temp folder, agent compactions
 * left out so context-ledger does every compaction) are replayed through the CLI
 * (`replay FILE --store sqlite:… --max-tokens 8000`, under `/usr/bin/time -v` for the
 * peak RSS), beside a tokenizer-only pass over the same transcript (the importer's messages,
 * each text counted once with the o200k counter). Targets: replay >= 0.5x the tokenizer pass,
 * flat within 20% from the smallest to the largest size. A run over `maxSeconds` is stopped and
 * reported with how far it got (the replay's progress lines on stderr). Sizes: 10 MB, 100 MB,
 * 1 GB; `--quick`: 2 MB, 10 MB. Sizes under 500 MB are replayed `CONTEXT_LEDGER_SCALE_REPEATS`
 * times (default 3) and their median MB/s reported: a 10 MB replay lasts seconds, so one
 * burst of other work on the machine moved a single run by 20% or more. The targets are read at
 * the 8000-token window; the 10 MB and 100 MB transcripts are also replayed at a 128,000-token
 * window (near Claude Code's own), where compactions are about 40 times rarer, for comparison.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readEvents } from '../../src/importers/registry.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { atLeast, atMost, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { referenceCount } from './reference-count.js';
import { claudeCodeSessions, writeClaudeCodeTranscript } from './claude-code-corpus.js';
import { benchCli } from './bench-cli.js';
import { speedResult } from './speed-result.js';

const TIME = '/usr/bin/time';

/** One replay run. */
export interface ScaleRun {
  readonly megabytes: number;
  /** The replay's `--max-tokens`. */
  readonly windowTokens: number;
  readonly tokenizerMBps: number;
  /** The same pass counted by gpt-tokenizer (the counter of sessions before 9), for comparison. */
  readonly referenceMBps: number;
  /** Median over the replays of this size. */
  readonly replayMBps: number | null;
  /** MB/s of each replay of this size, in run order. */
  readonly replayRunsMBps: readonly (number | null)[];
  /** User plus system CPU seconds per transcript MB (median), all threads of the replay process. */
  readonly cpuSecondsPerMB: number | null;
  readonly ratio: number | null;
  readonly peakRssMB: number | null;
  /** Wall seconds of the median replay. */
  readonly wallSeconds: number;
  /** Share of the transcript's items replayed (1 when it finished). */
  readonly reached: number;
  readonly databaseMB: number | null;
  readonly exitCode: number | null;
}

/**
 * MB/s of counting every message text of `file` once (content and tool-call arguments), read through the importer,
 * with the project's o200k counter or with `count` (gpt-tokenizer's, for the reference column).
 */
export async function tokenizerPass(
  file: string,
  megabytes: number,
  count: (text: string) => number = createO200kCounter().count,
): Promise<number> {
  const started = performance.now();
  let tokens = 0;
  for await (const event of readEvents(file)) {
    if (event.type !== 'message') continue;
    tokens += count(event.message.content);
    for (const call of event.message.toolCalls ?? []) tokens += count(call.arguments);
  }
  const seconds = (performance.now() - started) / 1000;
  if (tokens === 0) throw new Error(`${file}: the tokenizer pass counted no tokens`);
  return megabytes / seconds;
}

/** The last `replay …: N%` progress line's share, 0 when none. */
function lastShare(stderr: string): number {
  const matches = [...stderr.matchAll(/^replay [^\n]*?: (\d+)%/gm)];
  const last = matches[matches.length - 1];
  if (/^replay [^\n]*: done/m.test(stderr)) return 1;
  return last ? Number(last[1]) / 100 : 0;
}

function replayCli(
  args: readonly string[],
  maxSeconds: number,
  onProgress?: (line: string) => void,
): Promise<{ code: number | null; stderr: string; seconds: number }> {
  const cli = benchCli();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // Its own process group, so a stop reaches the replay under /usr/bin/time (which ignores SIGINT itself).
    const child = spawn(TIME, ['-v', process.execPath, cli, 'replay', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      if (onProgress) for (const line of text.match(/^replay [^\n]*: \d+%[^\n]*/gm) ?? []) onProgress(line);
      stderr += text;
      if (stderr.length > 2e6) stderr = stderr.slice(-1e6);
    });
    const timer = setTimeout(() => process.kill(-(child.pid ?? 0), 'SIGINT'), maxSeconds * 1000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** One replay through the CLI into a new database (removed first). */
export interface Replay {
  readonly mbps: number | null;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssMB: number;
  readonly reached: number;
  readonly databaseMB: number | null;
  readonly code: number | null;
  /** Compactions the replay reported on its last line (`replay …: done N compactions (M records)`); null when it did not finish. */
  readonly compactions: number | null;
  /** Records (compactions and spill checkpoints) on that line; null when it did not finish or did not say. */
  readonly records: number | null;
}

/** Remove a SQLite database and its -wal and -shm files. */
export async function removeDatabase(database: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) await rm(`${database}${suffix}`, { force: true });
}

/** A number `/usr/bin/time -v` printed (`label: value`), NaN when absent. */
function timeField(stderr: string, label: string): number {
  const line = stderr.split('\n').find((text) => text.trimStart().startsWith(`${label}: `));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(': ') + 2));
}

/** The window the targets are read at. */
const WINDOW_TOKENS = 8000;
/** The wider window the smaller transcripts are also replayed at. */
const WIDE_WINDOW_TOKENS = 128_000;

/** The compaction and record counts of the replay's `done` line, null when there is none. */
export function doneCounts(stderr: string): { compactions: number | null; records: number | null } {
  const match = /^replay [^\n]*: done (\d+) compactions?(?: \((\d+) records?\))?/m.exec(stderr);
  return {
    compactions: match ? Number(match[1]) : null,
    records: match?.[2] === undefined ? null : Number(match[2]),
  };
}

/** Replay `file` (`megabytes` long) through the CLI under `/usr/bin/time -v` into a new SQLite `database`. */
export async function replayOnce(
  file: string,
  database: string,
  megabytes: number,
  windowTokens: number,
  maxSeconds: number,
  extraArgs: readonly string[] = [],
  onProgress?: (line: string) => void,
): Promise<Replay> {
  await removeDatabase(database);
  // No --json: the replay's progress lines on stderr say how far a stopped run got.
  const args = [file, '--store', `sqlite:${database}`, '--max-tokens', String(windowTokens), ...extraArgs];
  const result = await replayCli(args, maxSeconds, onProgress);
  const reached = result.code === 0 ? 1 : lastShare(result.stderr);
  const databaseMB = await stat(database).then(
    (info) => info.size / 1e6,
    () => null,
  );
  return {
    mbps: reached > 0 ? (megabytes * reached) / result.seconds : null,
    seconds: result.seconds,
    cpuSeconds: timeField(result.stderr, 'User time (seconds)') + timeField(result.stderr, 'System time (seconds)'),
    peakRssMB: timeField(result.stderr, 'Maximum resident set size (kbytes)') / 1024,
    reached,
    databaseMB,
    code: result.code,
    ...doneCounts(result.stderr),
  };
}

/** The median of the values (the lower middle of an even count); null for none. */
function medianOf(values: readonly number[]): number | null {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return sorted.length === 0 ? null : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
}

/** The replay with the median MB/s (a stopped or failed replay counts as the slowest). */
function medianReplay(replays: readonly Replay[]): Replay {
  const sorted = [...replays].sort((a, b) => (a.mbps ?? -1) - (b.mbps ?? -1));
  return sorted[Math.floor((sorted.length - 1) / 2)] as Replay;
}

/** Replays of a size under this many bytes are repeated (`CONTEXT_LEDGER_SCALE_REPEATS`); larger ones run once. */
const REPEAT_BELOW_BYTES = 500e6;

/** Replay one size at each window, `repeats` times each; the transcript and database are removed afterwards. */
export async function scaleRuns(
  context: BenchContext,
  bytes: number,
  options: { readonly maxSeconds: number; readonly repeats: number; readonly windows: readonly number[] },
): Promise<ScaleRun[]> {
  const { maxSeconds, repeats } = options;
  const sessions = await claudeCodeSessions(context.dataDir);
  const file = join(context.tempDir, `scale-${bytes}.jsonl`);
  const database = join(context.tempDir, `scale-${bytes}.db`);
  const written = await writeClaudeCodeTranscript(file, sessions, bytes, { dropCompactions: true });
  const megabytes = written / 1e6;
  try {
    // Two passes each, alternating; the second of each counts (the first warms the importer, the code and the caches).
    await tokenizerPass(file, megabytes);
    await tokenizerPass(file, megabytes, referenceCount);
    const tokenizerMBps = await tokenizerPass(file, megabytes);
    const referenceMBps = await tokenizerPass(file, megabytes, referenceCount);
    context.log(
      `replay-scale: ${megabytes.toFixed(0)} MB, tokenizer pass ${tokenizerMBps.toFixed(2)} MB/s ` +
        `(gpt-tokenizer ${referenceMBps.toFixed(2)}); replaying`,
    );
    const runs: ScaleRun[] = [];
    for (const windowTokens of options.windows) {
      const replays: Replay[] = [];
      for (let index = 0; index < repeats; index += 1) {
        replays.push(await replayOnce(file, database, megabytes, windowTokens, maxSeconds));
        const label = `${megabytes.toFixed(0)} MB, window ${windowTokens}, replay ${index + 1}/${repeats}`;
        context.log(`replay-scale: ${label}: ${JSON.stringify(replays.at(-1))}`);
      }
      const median = medianReplay(replays);
      const run: ScaleRun = {
        megabytes: round(megabytes, 1) ?? 0,
        windowTokens,
        tokenizerMBps: round(tokenizerMBps, 3) ?? 0,
        referenceMBps: round(referenceMBps, 3) ?? 0,
        replayMBps: round(median.mbps, 3),
        replayRunsMBps: replays.map((replay) => round(replay.mbps, 3)),
        cpuSecondsPerMB: round(medianOf(replays.map((replay) => replay.cpuSeconds / megabytes)), 3),
        ratio: median.mbps === null ? null : round(median.mbps / tokenizerMBps, 4),
        peakRssMB: round(Math.max(...replays.map((replay) => replay.peakRssMB)), 1),
        wallSeconds: round(median.seconds, 1) ?? 0,
        reached: round(median.reached, 2) ?? 0,
        databaseMB: round(median.databaseMB, 1),
        exitCode: median.code,
      };
      context.log(`replay-scale: ${JSON.stringify(run)}`);
      runs.push(run);
    }
    return runs;
  } finally {
    await rm(file, { force: true });
    await removeDatabase(database);
  }
}

/** Run the scale benchmark. */
export async function runReplayScaleBench(context: BenchContext): Promise<BenchResult> {
  const sizes = context.quick ? [2e6, 10e6] : [10e6, 100e6, 1e9];
  const maxSeconds = Number(process.env.CONTEXT_LEDGER_SCALE_MAX_SECONDS ?? 3600);
  const title = 'Replay throughput from 10 MB to 1 GB';
  if (!existsSync(TIME) || (await claudeCodeSessions(context.dataDir)).length === 0) {
    return speedResult(context, 'speed-replay-scale', title, {
      notes: [`${TIME} or the Claude Code dev sessions under ${context.dataDir} not found: not measured.`],
      tables: [],
      targets: [atLeast('replay / tokenizer-only throughput', null, 0.5)],
    });
  }
  const repeats = Math.max(1, Math.floor(Number(process.env.CONTEXT_LEDGER_SCALE_REPEATS ?? 3)));
  const all: ScaleRun[] = [];
  for (const size of sizes) {
    const windows = size === sizes[sizes.length - 1] ? [WINDOW_TOKENS] : [WINDOW_TOKENS, WIDE_WINDOW_TOKENS];
    all.push(
      ...(await scaleRuns(context, size, { maxSeconds, repeats: size < REPEAT_BELOW_BYTES ? repeats : 1, windows })),
    );
  }
  // The targets are read at the 8000-token window.
  const runs = all.filter((run) => run.windowTokens === WINDOW_TOKENS);
  const ratios = runs.map((run) => run.replayMBps).filter((value): value is number => value !== null);
  const first = ratios[0];
  const last = ratios[ratios.length - 1];
  const drop = first !== undefined && last !== undefined ? first / last : null;
  const firstCpu = runs[0]?.cpuSecondsPerMB;
  const lastCpu = runs[runs.length - 1]?.cpuSecondsPerMB;
  const cpuGrowth = firstCpu && lastCpu ? lastCpu / firstCpu : null;
  return speedResult(context, 'speed-replay-scale', title, {
    notes: [
      `Transcripts: the Claude Code dev sessions perturbed and concatenated (claude-code-corpus.ts), agent compactions left out; SQLite store; o200k counter. Targets at the ${WINDOW_TOKENS}-token window; the ${WIDE_WINDOW_TOKENS}-token rows (every size but the largest) are for comparison.`,
      'Tokenizer pass: the project counter and gpt-tokenizer (the counter before session 9) each read and count the transcript twice, alternating; the second pass of each is reported (sessions before 9 reported one cold gpt-tokenizer pass).',
      `Sizes under ${REPEAT_BELOW_BYTES / 1e6} MB are replayed ${repeats} times (CONTEXT_LEDGER_SCALE_REPEATS); their median MB/s is reported, each run's in "replay runs". Sessions before 10 replayed every size once.`,
      'CPU s/MB: user plus system CPU seconds of the replay process (all threads, from /usr/bin/time) per transcript MB, median of the runs: it does not move with waits for the other core.',
      `A replay still running after ${maxSeconds} s (CONTEXT_LEDGER_SCALE_MAX_SECONDS) is stopped; its MB/s is over the share it reached.`,
    ],
    tables: [
      {
        title,
        columns: [
          'transcript MB',
          'window tokens',
          'tokenizer MB/s',
          'replay MB/s',
          'replay runs MB/s',
          'CPU s/MB',
          'replay / tokenizer',
          'gpt-tokenizer MB/s',
          'replay / gpt-tokenizer',
          'peak RSS MB',
          'wall s',
          'share replayed',
          'SQLite MB',
        ],
        rows: all.map((run) => [
          run.megabytes,
          run.windowTokens,
          run.tokenizerMBps,
          run.replayMBps,
          run.replayRunsMBps.join(' / '),
          run.cpuSecondsPerMB,
          run.ratio,
          run.referenceMBps,
          run.replayMBps === null ? null : round(run.replayMBps / run.referenceMBps, 4),
          run.peakRssMB,
          run.wallSeconds,
          run.reached,
          run.databaseMB,
        ]),
      },
    ],
    targets: [
      atLeast('replay / tokenizer-only throughput at the largest size', runs[runs.length - 1]?.ratio ?? null, 0.5),
      atMost('replay MB/s smallest / largest size (flat within 20%)', round(drop, 3), 1.2),
      atMost('CPU s/MB largest / smallest size (flat within 20%)', round(cpuGrowth, 3), 1.2),
      atMost('peak RSS at the largest size (MB)', runs[runs.length - 1]?.peakRssMB ?? null, 300),
    ],
    data: all,
  });
}
