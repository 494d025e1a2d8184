/**
 * `real-replay`: replay speed, storage, peak RSS and compactions per MB on the real sessions (`real-sessions.ts`:
 * the SWE-agent trajectories as one session, written as a `jsonl` transcript to the temp folder; each Claude Code
 * session of `claude-code/` and `entire/` without the agent's own compactions) at the windows agents run with: the
 * SWE-agent session at 8,000 and 32,000 tokens, the `entire/` Claude Code sessions at 200,000 (the window they ran
 * in) and 8,000, the older `claude-code/` ones at 8,000 and 32,000. Each replay is the CLI under `/usr/bin/time -v`,
 * next to counting passes over the same file in the same run (`real-replay-runs.ts`). Storage: the SQLite files
 * (with -wal and -shm) over the transcript, and bytes per table from `dbstat`.
 */
import { existsSync } from 'node:fs';
import { atLeast, atMost, resultBase } from '../bench-result.js';
import type { BenchResult, ResultTable, TargetCheck } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { COUNTING_PASSES, REFERENCE_PASSES, pooledRun, replaySession } from './real-replay-runs.js';
import type { RealReplayRun } from './real-replay-runs.js';
import { loadRealSessions } from './real-sessions.js';
import type { RealDataSet } from './real-sessions.js';
import type { TableSize } from './sqlite-table-sizes.js';

export type { RealReplayRun } from './real-replay-runs.js';

/** Windows replayed per data set. */
export const REAL_WINDOWS: Readonly<Record<RealDataSet, readonly number[]>> = {
  'swe-agent': [8000, 32000],
  'claude-code': [8000, 32000],
  entire: [200_000, 8000],
};

/** --quick: 5 SWE-agent trajectories at both windows, the smallest `entire/` session at 200,000 only. */
export const QUICK_WINDOWS: Readonly<Record<RealDataSet, readonly number[]>> = {
  'swe-agent': [8000, 32000],
  'claude-code': [],
  entire: [200_000],
};

const DATA_SET_LABEL: Record<RealDataSet, string> = {
  'swe-agent': 'swe-agent',
  'claude-code': 'claude-code (older dev sessions)',
  entire: 'entire (Claude Code sessions)',
};

/** Per data set and window: the single session's run, or the pooled row of several. */
export function dataSetRows(runs: readonly RealReplayRun[]): RealReplayRun[] {
  const rows: RealReplayRun[] = [];
  for (const dataSet of Object.keys(REAL_WINDOWS) as RealDataSet[])
    for (const window of [...new Set(runs.filter((run) => run.dataSet === dataSet).map((run) => run.window))]) {
      const group = runs.filter((run) => run.dataSet === dataSet && run.window === window);
      if (group.length === 1) rows.push(group[0] as RealReplayRun);
      else if (group.length > 1)
        rows.push(pooledRun(group, `${DATA_SET_LABEL[dataSet]}: ${group.length} sessions pooled`));
    }
  return rows;
}

/** The `n` largest tables as `name MB`, the rest summed. */
function largestTables(tables: readonly TableSize[] | null, n = 6): string {
  if (!tables) return 'dbstat not available';
  const shown = tables.slice(0, n).map((table) => `${table.table} ${(table.bytes / 1e6).toFixed(2)}`);
  const rest = tables.slice(n).reduce((sum, table) => sum + table.bytes, 0);
  return [...shown, ...(rest > 0 ? [`other ${(rest / 1e6).toFixed(2)}`] : [])].join(', ');
}

const RUN_COLUMNS = [
  'session',
  'window',
  'transcript MB',
  'o200k counting MB/s',
  'gpt-tokenizer MB/s',
  'replay MB/s',
  'replay / o200k counting',
  'replay / gpt-tokenizer',
  'replay MB per CPU s',
  'replay / o200k counting, CPU',
  'compactions',
  'compactions per MB',
  'records',
  'records per MB',
  'SQLite MB',
  'SQLite / transcript',
  'peak RSS MB',
  'wall s',
  'share replayed',
];

function runRow(run: RealReplayRun): (string | number | null)[] {
  return [
    run.session,
    run.window,
    run.transcriptMB,
    run.countingMBps,
    run.referenceMBps,
    run.replayMBps,
    run.ratio,
    run.referenceRatio,
    run.replayCpuMBps,
    run.cpuRatio,
    run.compactions,
    run.compactionsPerMB,
    run.records,
    run.recordsPerMB,
    run.sqliteMB,
    run.storageRatio,
    run.peakRssMB,
    run.wallSeconds,
    run.reached,
  ];
}

/** Targets: issue 27's at the SWE-agent session @8k, issue 37's at the windows agents run with. */
function replayTargets(rows: readonly RealReplayRun[]): TargetCheck[] {
  const at = (dataSet: RealDataSet, window: number) =>
    rows.find((run) => run.dataSet === dataSet && run.window === window);
  const swe8 = at('swe-agent', 8000);
  const note27 = 'swe-agent session at 8,000 tokens (issue 27)';
  const targets: TargetCheck[] = [
    atMost('compactions per MB, real SWE-agent session @8k', swe8?.compactionsPerMB ?? null, 40, note27),
    atMost('records per MB, real SWE-agent session @8k', swe8?.recordsPerMB ?? null, 40, note27),
    atMost('SQLite / transcript, real SWE-agent session @8k', swe8?.storageRatio ?? null, 3, note27),
    atLeast('replay / o200k counting pass, real SWE-agent session @8k', swe8?.ratio ?? null, 0.1, note27),
    atMost('peak RSS MB, real SWE-agent session @8k', swe8?.peakRssMB ?? null, 300, note27),
  ];
  const windows: [string, RealReplayRun | undefined][] = [
    ['SWE-agent session @32k', at('swe-agent', 32000)],
    ['entire/ Claude Code sessions pooled @200k', at('entire', 200_000)],
  ];
  const note37 = 'issue 37 (ratio: replay MB/s over a gpt-tokenizer counting pass of the same file, same run)';
  for (const [label, run] of windows)
    targets.push(
      atLeast(`replay / gpt-tokenizer counting pass, ${label}`, run?.referenceRatio ?? null, 0.25, note37),
      atMost(`SQLite / transcript, ${label}`, run?.storageRatio ?? null, 3, 'issue 37'),
      atMost(`peak RSS MB, ${label}`, run?.peakRssMB ?? null, 300, 'issue 37 (pooled: the highest session)'),
    );
  return targets;
}

function replayNotes(context: BenchContext, sessions: string, missing: readonly string[], maxSeconds: number) {
  return [
    `Data: ${context.dataDir}; ${sessions}.`,
    ...missing.map((line) => `MISSING: ${line}`),
    ...(context.quick
      ? ['--quick: the first 5 SWE-agent trajectories at 8,000 and 32,000; the smallest entire/ session at 200,000.']
      : []),
    'The SWE-agent trajectories are written as one OpenAI-style jsonl transcript (tool-call ids prefixed per trajectory) ' +
      'and replayed with --format jsonl; each Claude Code session (claude-code/, and entire/ without its Codex rollouts) is ' +
      "replayed from a copy without the agent's own compaction lines (every other line byte for byte), so context-ledger does " +
      'every compaction (before issue 37 the claude-code/ files were replayed as found, their compaction imported as a ' +
      'record).',
    `Replay: the CLI into a new SQLite database, one run per window, under /usr/bin/time -v (peak RSS, CPU seconds ` +
      `of every thread). Counting passes over the same file right before each replay: the importer reads it and a ` +
      `counter counts every message text and tool-call argument once; o200k = the project's counter (median of ` +
      `${COUNTING_PASSES} passes after a warm one), gpt-tokenizer = its o200k countTokens over the same pieces (median ` +
      `of ${REFERENCE_PASSES} after a warm one; the pass issue 37 measured against). Ratios: replay MB/s over counting ` +
      `MB/s by the wall clock; the CPU ratio divides MB per CPU second (steadier on a shared machine).`,
    'Pooled rows: total MB over total seconds, counts and storage summed, the highest peak RSS.',
    "Compactions: summary and external records, as the replay's last progress line counts them; records: those plus the " +
      'spill checkpoints. SQLite: the database with its -wal and -shm files after the replay; per table from the dbstat ' +
      'virtual table (indexes added to their table, FTS5 shadow tables to the FTS5 table).',
    `A replay still running after ${maxSeconds} s (CONTEXT_LEDGER_SCALE_MAX_SECONDS) is stopped; its MB/s is over the share it reached.`,
  ];
}

/** Run the real-data replay benchmark. */
export async function runRealReplayBench(context: BenchContext): Promise<BenchResult> {
  const title = 'Replay speed, storage and cadence on real sessions';
  const base = resultBase(context, 'real-replay', title);
  const windows = context.quick ? QUICK_WINDOWS : REAL_WINDOWS;
  const { sessions, missing } = await loadRealSessions(
    context.dataDir,
    context.quick ? { trajectories: 5, claudeCode: false, entire: 1 } : {},
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
    runs.push(...(await replaySession(context, session, index, windows[session.dataSet], maxSeconds)));
  const rows = dataSetRows(runs);
  const described = sessions.map((session) => `${session.name} (${session.messages.length} messages)`).join('; ');
  const tables: ResultTable[] = [
    { title: 'Per data set and window (several sessions pooled)', columns: RUN_COLUMNS, rows: rows.map(runRow) },
    { title, columns: RUN_COLUMNS, rows: runs.map(runRow) },
    {
      title: 'SQLite bytes per table after the replay (MB, largest first)',
      columns: ['session', 'window', 'tables'],
      rows: runs.map((run) => [run.session, run.window, largestTables(run.tables)]),
    },
  ];
  const lead: ResultTable = {
    title:
      'Real sessions at the windows agents run with: replay speed against a counting pass, compactions per MB, storage, peak RSS',
    columns: [
      'data set',
      'window',
      'MB',
      'replay MB/s',
      'replay / gpt-tokenizer',
      'replay / o200k counting',
      'replay / o200k counting, CPU',
      'compactions per MB',
      'SQLite / transcript',
      'peak RSS MB',
    ],
    rows: rows.map((run) => [
      run.session,
      run.window,
      run.transcriptMB,
      run.replayMBps,
      run.referenceRatio,
      run.ratio,
      run.cpuRatio,
      run.compactionsPerMB,
      run.storageRatio,
      run.peakRssMB,
    ]),
  };
  const notes = replayNotes(context, described, missing, maxSeconds);
  return { ...base, notes, tables, targets: replayTargets(rows), lead, data: { runs, pooled: rows } };
}
