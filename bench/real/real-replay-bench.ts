/**
 * `real-replay`: replay speed, storage, peak RSS and compactions per MB on the real sessions (`real-sessions.ts`:
 * the SWE-agent trajectories as one session, written as a `jsonl` transcript to the temp folder; each Claude Code
 * session file as found) at 8,000 and 32,000 tokens, beside the generated scale runs of `speed-replay-scale`.
 * Each replay is the CLI (`replay FILE --store sqlite:… --max-tokens N`, under `/usr/bin/time -v`), next to a plain
 * o200k counting pass over the same file (`tokenizerPass`: the importer's messages, each text counted once).
 * Storage: the SQLite files (with -wal and -shm) over the transcript, and bytes per table from `dbstat`.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { atLeast, atMost, resultBase, round } from '../bench-result.js';
import type { BenchResult, ResultTable, TargetCheck } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { removeDatabase, replayOnce, tokenizerPass } from '../speed/replay-scale-bench.js';
import { loadRealSessions, writeJsonlTranscript } from './real-sessions.js';
import type { RealSession } from './real-sessions.js';
import { sqliteFileBytes, sqliteTableSizes } from './sqlite-table-sizes.js';
import type { TableSize } from './sqlite-table-sizes.js';

/** Windows replayed. */
export const REAL_WINDOWS = [8000, 32000] as const;

/** Counting passes timed after the warm one; their median is the counting speed. */
export const COUNTING_PASSES = 5;

/** One replay of one real session at one window. */
export interface RealReplayRun {
  readonly session: string;
  readonly dataSet: RealSession['dataSet'];
  readonly window: number;
  readonly transcriptMB: number;
  readonly countingMBps: number;
  readonly replayMBps: number | null;
  /** Replay MB/s over the counting pass's. */
  readonly ratio: number | null;
  readonly peakRssMB: number | null;
  readonly wallSeconds: number;
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
  /** Per table, largest first; null without `dbstat`. */
  readonly tables: readonly TableSize[] | null;
  readonly exitCode: number | null;
}

/** The file to replay for a session, written to `tempDir` when the session is not one file as found. */
async function sessionFile(
  session: RealSession,
  tempDir: string,
  index: number,
): Promise<{ file: string; args: string[] }> {
  if (session.file) return { file: session.file, args: [] };
  const file = join(tempDir, `real-${index}.jsonl`);
  await writeJsonlTranscript(file, session.messages);
  return { file, args: ['--format', 'jsonl'] };
}

/** Replay one session at every window. */
async function replaySession(
  context: BenchContext,
  session: RealSession,
  index: number,
  maxSeconds: number,
): Promise<RealReplayRun[]> {
  const { file, args } = await sessionFile(session, context.tempDir, index);
  const transcriptBytes = (await stat(file)).size;
  const megabytes = transcriptBytes / 1e6;
  // A pass that warms the importer, the code and the caches, then the median of COUNTING_PASSES (one pass takes
  // about a tenth of a second here, so a single one moved by a factor of two between runs of session 14).
  await tokenizerPass(file, megabytes);
  const passes: number[] = [];
  for (let pass = 0; pass < COUNTING_PASSES; pass++) passes.push(await tokenizerPass(file, megabytes));
  const countingMBps = passes.sort((a, b) => a - b)[Math.floor(COUNTING_PASSES / 2)] as number;
  context.log(
    `real-replay: ${session.name}: ${megabytes.toFixed(2)} MB, counting pass ${countingMBps.toFixed(2)} MB/s`,
  );
  const database = join(context.tempDir, `real-${index}.db`);
  const runs: RealReplayRun[] = [];
  try {
    for (const window of REAL_WINDOWS) {
      context.log(`real-replay: ${session.name} @${window}: replaying`);
      const replay = await replayOnce(file, database, megabytes, window, maxSeconds, args, (line) =>
        context.log(`real-replay: @${window}: ${line}`),
      );
      const sqliteBytes = await sqliteFileBytes(database);
      const tables = existsSync(database) ? sqliteTableSizes(database) : null;
      const perMB = (count: number | null) => (count === null ? null : round(count / megabytes, 1));
      const run: RealReplayRun = {
        session: session.name,
        dataSet: session.dataSet,
        window,
        transcriptMB: round(megabytes, 3) ?? 0,
        countingMBps: round(countingMBps, 3) ?? 0,
        replayMBps: round(replay.mbps, 4),
        ratio: replay.mbps === null ? null : round(replay.mbps / countingMBps, 4),
        peakRssMB: round(replay.peakRssMB, 1),
        wallSeconds: round(replay.seconds, 1) ?? 0,
        reached: round(replay.reached, 2) ?? 0,
        compactions: replay.compactions,
        compactionsPerMB: perMB(replay.compactions),
        records: replay.records,
        recordsPerMB: perMB(replay.records),
        sqliteMB: round(sqliteBytes / 1e6, 2) ?? 0,
        storageRatio: round(sqliteBytes / transcriptBytes, 2) ?? 0,
        tables,
        exitCode: replay.code,
      };
      context.log(
        `real-replay: ${session.name} @${window}: ${run.replayMBps} MB/s (${run.ratio}x counting), ${run.compactions} compactions (${run.compactionsPerMB}/MB), ${run.records} records (${run.recordsPerMB}/MB), SQLite ${run.storageRatio}x, peak RSS ${run.peakRssMB} MB`,
      );
      runs.push(run);
    }
  } finally {
    await removeDatabase(database);
  }
  return runs;
}

/** The `n` largest tables as `name MB`, the rest summed. */
function largestTables(tables: readonly TableSize[] | null, n = 6): string {
  if (!tables) return 'dbstat not available';
  const shown = tables.slice(0, n).map((table) => `${table.table} ${(table.bytes / 1e6).toFixed(2)}`);
  const rest = tables.slice(n).reduce((sum, table) => sum + table.bytes, 0);
  return [...shown, ...(rest > 0 ? [`other ${(rest / 1e6).toFixed(2)}`] : [])].join(', ');
}

/** Run the real-data replay benchmark. */
export async function runRealReplayBench(context: BenchContext): Promise<BenchResult> {
  const title = 'Replay speed, storage and cadence on real sessions';
  const base = resultBase(context, 'real-replay', title);
  const { sessions, missing } = await loadRealSessions(
    context.dataDir,
    context.quick ? { trajectories: 5, claudeCode: false } : {},
  );
  if (!existsSync('/usr/bin/time') || sessions.length === 0)
    return {
      ...base,
      notes: [`/usr/bin/time or the real sessions under ${context.dataDir} not found: not measured.`, ...missing],
      tables: [],
      targets: [],
    };
  const maxSeconds = Number(process.env.CONTEXT_LEDGER_SCALE_MAX_SECONDS ?? 3600);
  const runs: RealReplayRun[] = [];
  for (const [index, session] of sessions.entries())
    runs.push(...(await replaySession(context, session, index, maxSeconds)));
  const notes = [
    `Data: ${context.dataDir}; ${sessions.map((session) => `${session.name} (${session.messages.length} messages)`).join('; ')}.`,
    ...missing.map((line) => `MISSING: ${line}`),
    ...(context.quick ? ['--quick: the first 5 SWE-agent trajectories only, no Claude Code session.'] : []),
    'The SWE-agent trajectories are written as one OpenAI-style jsonl transcript (tool-call ids prefixed per trajectory) and replayed with --format jsonl; each Claude Code session file is replayed as found (its own compaction is imported as a record and counted among the compactions).',
    `Replay: the CLI into a new SQLite database, one run per window, under /usr/bin/time -v (peak RSS). Counting pass: the importer reads the same file and the o200k counter counts every message text and tool-call argument once (median of ${COUNTING_PASSES} passes after a warm one; until session 15 the second of two passes). Ratio: replay MB/s over counting MB/s.`,
    "Compactions: summary and external records, as the replay's last progress line counts them; records: those plus the spill checkpoints (until session 13 the column named compactions counted every record). SQLite: the database with its -wal and -shm files after the replay; per table from the dbstat virtual table (indexes added to their table, FTS5 shadow tables to the FTS5 table).",
    `A replay still running after ${maxSeconds} s (CONTEXT_LEDGER_SCALE_MAX_SECONDS) is stopped; its MB/s is over the share it reached.`,
  ];
  const tables: ResultTable[] = [
    {
      title,
      columns: [
        'session',
        'window',
        'transcript MB',
        'counting MB/s',
        'replay MB/s',
        'replay / counting',
        'compactions',
        'compactions per MB',
        'records',
        'records per MB',
        'SQLite MB',
        'SQLite / transcript',
        'peak RSS MB',
        'wall s',
        'share replayed',
      ],
      rows: runs.map((run) => [
        run.session,
        run.window,
        run.transcriptMB,
        run.countingMBps,
        run.replayMBps,
        run.ratio,
        run.compactions,
        run.compactionsPerMB,
        run.records,
        run.recordsPerMB,
        run.sqliteMB,
        run.storageRatio,
        run.peakRssMB,
        run.wallSeconds,
        run.reached,
      ]),
    },
    {
      title: 'SQLite bytes per table after the replay (MB, largest first)',
      columns: ['session', 'window', 'tables'],
      rows: runs.map((run) => [run.session, run.window, largestTables(run.tables)]),
    },
  ];
  const swe = runs.find((run) => run.dataSet === 'swe-agent' && run.window === 8000);
  const note = 'swe-agent session at 8,000 tokens (issue 27)';
  const targets: TargetCheck[] = [
    atMost('compactions per MB, real SWE-agent session @8k', swe?.compactionsPerMB ?? null, 40, note),
    atMost(
      'records per MB (compactions and spill checkpoints), real SWE-agent session @8k',
      swe?.recordsPerMB ?? null,
      40,
      note,
    ),
    atMost('SQLite / transcript, real SWE-agent session @8k', swe?.storageRatio ?? null, 3, note),
    atLeast('replay / counting pass, real SWE-agent session @8k', swe?.ratio ?? null, 0.1, note),
    atMost('peak RSS MB, real SWE-agent session @8k', swe?.peakRssMB ?? null, 300, note),
  ];
  const lead: ResultTable = {
    title: 'Real sessions: replay speed against a counting pass, compactions per MB, storage, peak RSS',
    columns: [
      'session',
      'window',
      'MB',
      'replay MB/s',
      'replay / counting',
      'compactions per MB',
      'records per MB',
      'SQLite / transcript',
      'peak RSS MB',
    ],
    rows: runs.map((run) => [
      run.session,
      run.window,
      run.transcriptMB,
      run.replayMBps,
      run.ratio,
      run.compactionsPerMB,
      run.recordsPerMB,
      run.storageRatio,
      run.peakRssMB,
    ]),
  };
  return { ...base, notes, tables, targets, lead, data: { runs } };
}
