/**
 * One `real-replay` measurement: a real session replayed through the CLI at one window (`replay FILE --store
 * sqlite:… --max-tokens N`, under `/usr/bin/time -v`), beside counting passes over the same file in the same run
 * (the project's o200k counter and gpt-tokenizer, `counting-speed.ts`); and the pooled row of a data set's sessions.
 */
import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { round } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { referenceCount } from '../speed/reference-count.js';
import { removeDatabase, replayOnce } from '../speed/replay-scale-bench.js';
import { countingSpeed } from './counting-speed.js';
import type { CountingSpeed } from './counting-speed.js';
import { writeJsonlTranscript, writeWithoutAgentCompactions } from './real-sessions.js';
import type { RealDataSet, RealSession } from './real-sessions.js';
import { sqliteFileBytes, sqliteTableSizes } from './sqlite-table-sizes.js';
import type { TableSize } from './sqlite-table-sizes.js';

/** o200k counting passes timed after the warm one; their median is the counting speed. */
export const COUNTING_PASSES = 5;
/** gpt-tokenizer passes timed after the warm one (it is about three times slower). */
export const REFERENCE_PASSES = 3;

/** One replay of one real session (or the pooled sessions of a data set) at one window. */
export interface RealReplayRun {
  readonly session: string;
  readonly dataSet: RealDataSet;
  readonly window: number;
  /** Sessions in this row (more than one: a pooled row). */
  readonly sessions: number;
  readonly transcriptMB: number;
  /** The project's o200k counter over the same file, MB per wall second and per CPU second. */
  readonly countingMBps: number;
  readonly countingCpuMBps: number;
  /** gpt-tokenizer over the same file (the pass issue 37 measured against), MB per wall second. */
  readonly referenceMBps: number;
  readonly replayMBps: number | null;
  /** MB per CPU second of the replay process (user plus system, every thread). */
  readonly replayCpuMBps: number | null;
  /** Replay MB/s over the o200k counting pass's (wall). */
  readonly ratio: number | null;
  /** Replay MB/s over gpt-tokenizer's (wall). */
  readonly referenceRatio: number | null;
  /** Replay MB per CPU second over the o200k pass's. */
  readonly cpuRatio: number | null;
  readonly peakRssMB: number | null;
  readonly wallSeconds: number;
  readonly cpuSeconds: number | null;
  readonly reached: number;
  /** Summary and external records (the compactions). */
  readonly compactions: number | null;
  readonly compactionsPerMB: number | null;
  /** Every record: the compactions and their spill checkpoints (what the store holds). */
  readonly records: number | null;
  readonly recordsPerMB: number | null;
  readonly sqliteMB: number;
  /** SQLite files over the transcript. */
  readonly storageRatio: number;
  /** Per table, largest first; null without `dbstat` or for a pooled row. */
  readonly tables: readonly TableSize[] | null;
  readonly exitCode: number | null;
}

/**
 * The file to replay for a session, written to `tempDir`: the SWE-agent concatenation as a `jsonl` transcript, a
 * Claude Code session as found without the agent's own compactions (context-ledger does every compaction).
 */
async function sessionFile(
  session: RealSession,
  tempDir: string,
  index: number,
): Promise<{ file: string; args: string[] }> {
  const file = join(tempDir, `real-${index}.jsonl`);
  if (session.file) {
    await writeWithoutAgentCompactions(session.file, file);
    return { file, args: ['--format', 'claude-code'] };
  }
  await writeJsonlTranscript(file, session.messages);
  return { file, args: ['--format', 'jsonl'] };
}

const perMB = (count: number | null, megabytes: number) => (count === null ? null : round(count / megabytes, 1));
const ratioOf = (a: number | null, b: number) => (a === null || b <= 0 ? null : round(a / b, 4));

/** The row of one replay. */
function replayRun(
  session: RealSession,
  window: number,
  transcriptBytes: number,
  speeds: { counting: CountingSpeed; reference: CountingSpeed },
  replay: Awaited<ReturnType<typeof replayOnce>>,
  storage: { sqliteBytes: number; tables: TableSize[] | null },
): RealReplayRun {
  const megabytes = transcriptBytes / 1e6;
  const cpuMBps = replay.cpuSeconds > 0 ? (megabytes * replay.reached) / replay.cpuSeconds : null;
  return {
    session: session.name,
    dataSet: session.dataSet,
    window,
    sessions: 1,
    transcriptMB: round(megabytes, 3) ?? 0,
    countingMBps: round(speeds.counting.wallMBps, 3) ?? 0,
    countingCpuMBps: round(speeds.counting.cpuMBps, 3) ?? 0,
    referenceMBps: round(speeds.reference.wallMBps, 3) ?? 0,
    replayMBps: round(replay.mbps, 4),
    replayCpuMBps: round(cpuMBps, 4),
    ratio: ratioOf(replay.mbps, speeds.counting.wallMBps),
    referenceRatio: ratioOf(replay.mbps, speeds.reference.wallMBps),
    cpuRatio: ratioOf(cpuMBps, speeds.counting.cpuMBps),
    peakRssMB: round(replay.peakRssMB, 1),
    wallSeconds: round(replay.seconds, 2) ?? 0,
    cpuSeconds: round(replay.cpuSeconds, 2),
    reached: round(replay.reached, 2) ?? 0,
    compactions: replay.compactions,
    compactionsPerMB: perMB(replay.compactions, megabytes),
    records: replay.records,
    recordsPerMB: perMB(replay.records, megabytes),
    sqliteMB: round(storage.sqliteBytes / 1e6, 2) ?? 0,
    storageRatio: round(storage.sqliteBytes / transcriptBytes, 2) ?? 0,
    tables: storage.tables,
    exitCode: replay.code,
  };
}

/** Replay one session at each of `windows`, each replay right after counting passes over the same file. */
export async function replaySession(
  context: BenchContext,
  session: RealSession,
  index: number,
  windows: readonly number[],
  maxSeconds: number,
): Promise<RealReplayRun[]> {
  const { file, args } = await sessionFile(session, context.tempDir, index);
  const transcriptBytes = (await stat(file)).size;
  const megabytes = transcriptBytes / 1e6;
  const database = join(context.tempDir, `real-${index}.db`);
  const runs: RealReplayRun[] = [];
  try {
    for (const window of windows) {
      // Counted right before each replay, so that both see about the same load on a shared machine.
      const counting = await countingSpeed(file, megabytes, COUNTING_PASSES);
      const reference = await countingSpeed(file, megabytes, REFERENCE_PASSES, referenceCount);
      context.log(
        `real-replay: ${session.name} @${window}: ${megabytes.toFixed(2)} MB, counting ${counting.wallMBps.toFixed(2)} ` +
          `MB/s (${counting.cpuMBps.toFixed(2)} per CPU s), gpt-tokenizer ${reference.wallMBps.toFixed(2)} MB/s; replaying`,
      );
      const replay = await replayOnce(file, database, megabytes, window, maxSeconds, args, (line) =>
        context.log(`real-replay: @${window}: ${line}`),
      );
      const storage = {
        sqliteBytes: await sqliteFileBytes(database),
        tables: existsSync(database) ? sqliteTableSizes(database) : null,
      };
      const run = replayRun(session, window, transcriptBytes, { counting, reference }, replay, storage);
      context.log(
        `real-replay: ${session.name} @${window}: ${run.replayMBps} MB/s (${run.ratio}x o200k, ` +
          `${run.referenceRatio}x gpt-tokenizer, ${run.cpuRatio}x per CPU s), ${run.compactions} compactions ` +
          `(${run.compactionsPerMB}/MB), SQLite ${run.storageRatio}x, peak RSS ${run.peakRssMB} MB`,
      );
      runs.push(run);
    }
  } finally {
    await removeDatabase(database);
    await rm(file, { force: true });
  }
  return runs;
}

const sumOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);
const sumOrNull = (values: readonly (number | null)[]) =>
  values.some((value) => value === null) ? null : sumOf(values as number[]);

/**
 * The pooled row of `runs` (one data set at one window): speeds are total MB over total seconds (so a large
 * session weighs by its size), counts and storage summed, the peak RSS the highest.
 */
export function pooledRun(runs: readonly RealReplayRun[], session: string): RealReplayRun {
  const first = runs[0];
  if (!first) throw new Error(`pooledRun: no runs to pool for ${session}`);
  const megabytes = sumOf(runs.map((run) => run.transcriptMB));
  const replayed = sumOf(runs.map((run) => run.transcriptMB * run.reached));
  const speed = (of: (run: RealReplayRun) => number) =>
    megabytes / sumOf(runs.map((run) => run.transcriptMB / of(run)));
  const counting = speed((run) => run.countingMBps);
  const countingCpu = speed((run) => run.countingCpuMBps);
  const reference = speed((run) => run.referenceMBps);
  const wall = sumOf(runs.map((run) => run.wallSeconds));
  const cpu = sumOrNull(runs.map((run) => run.cpuSeconds));
  const replay = wall > 0 ? replayed / wall : null;
  const replayCpu = cpu !== null && cpu > 0 ? replayed / cpu : null;
  const compactions = sumOrNull(runs.map((run) => run.compactions));
  const records = sumOrNull(runs.map((run) => run.records));
  const sqliteMB = sumOf(runs.map((run) => run.sqliteMB));
  const peaks = runs.map((run) => run.peakRssMB).filter((value): value is number => value !== null);
  return {
    session,
    dataSet: first.dataSet,
    window: first.window,
    sessions: runs.length,
    transcriptMB: round(megabytes, 3) ?? 0,
    countingMBps: round(counting, 3) ?? 0,
    countingCpuMBps: round(countingCpu, 3) ?? 0,
    referenceMBps: round(reference, 3) ?? 0,
    replayMBps: round(replay, 4),
    replayCpuMBps: round(replayCpu, 4),
    ratio: ratioOf(replay, counting),
    referenceRatio: ratioOf(replay, reference),
    cpuRatio: ratioOf(replayCpu, countingCpu),
    peakRssMB: peaks.length === 0 ? null : Math.max(...peaks),
    wallSeconds: round(wall, 2) ?? 0,
    cpuSeconds: round(cpu, 2),
    reached: round(replayed / megabytes, 2) ?? 0,
    compactions,
    compactionsPerMB: perMB(compactions, megabytes),
    records,
    recordsPerMB: perMB(records, megabytes),
    sqliteMB: round(sqliteMB, 2) ?? 0,
    storageRatio: round(sqliteMB / megabytes, 2) ?? 0,
    tables: null,
    exitCode: runs.every((run) => run.exitCode === 0) ? 0 : (runs.find((run) => run.exitCode !== 0)?.exitCode ?? null),
  };
}
