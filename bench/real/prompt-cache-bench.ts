/**
 * `prompt-cache`: how much of each prompt a provider's prompt cache could serve, on the real sessions
 * (`real-sessions.ts`: the SWE-agent trajectories as one session, each Claude Code session of `claude-code/` and
 * `entire/`) at the windows agents run with (`CACHE_WINDOWS_BY_SET`: 32,000 and 200,000 on the SWE-agent session
 * and the `entire/` sessions, beside 8,000 on the SWE-agent and `claude-code/` sessions). Each session is replayed turn by turn (`turn-replay.ts`) and a prompt
 * taken before every assistant turn, for three arms: context-ledger (public API, memory store), trim (LangChain
 * `trimMessages`, the most recent whole messages that fit) and a Claude Code-style arm
 * (`compact-at-threshold-arm.ts`). The yardstick and the price model are `prompt-cache.ts`, which shares no code
 * with the library. Sessions of one data set are also pooled (`poolTallies`).
 */
import { createO200kCounter } from '../../src/index.js';
import type { TokenCounter } from '../../src/index.js';
import { atLeast, atMost, resultBase, round } from '../bench-result.js';
import type { BenchResult, ResultTable, TargetCheck } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import type { BenchWindowOptions } from '../window-options.js';
import { createLangChainTrimArm } from '../quality/baseline-arms.js';
import {
  COMPACT_AT_THRESHOLD_DEFAULTS,
  createCompactAtThresholdArm,
  promptMessage,
} from './compact-at-threshold-arm.js';
import {
  MOSTLY_UNCACHED_BELOW,
  PRICE_MODEL,
  createPromptCacheMeter,
  poolTallies,
  prefixShare,
  relativeCost,
} from './prompt-cache.js';
import type { CacheTally } from './prompt-cache.js';
import { loadRealSessions } from './real-sessions.js';
import type { RealDataSet, RealSession } from './real-sessions.js';
import { replayLedgerTurns } from './turn-replay.js';

/** Windows measured per data set. */
export const CACHE_WINDOWS_BY_SET: Readonly<Record<RealDataSet, readonly number[]>> = {
  'swe-agent': [8000, 32000, 200_000],
  'claude-code': [8000, 32000],
  // Not 8,000: these sessions ran in a 200,000-token window, and 13 of them at 8,000 would take most of a full run.
  entire: [32000, 200_000],
};

/** --quick: 5 SWE-agent trajectories at 8,000 and 32,000, the smallest `entire/` session at 32,000 and 200,000. */
export const QUICK_CACHE_WINDOWS: Readonly<Record<RealDataSet, readonly number[]>> = {
  'swe-agent': [8000, 32000],
  'claude-code': [],
  entire: [32000, 200_000],
};

/** Every window measured (the budgets `--window` options are checked at). */
export const CACHE_WINDOWS = [8000, 32000, 200_000] as const;

/** Arm names, in table order. */
export const CACHE_ARMS = {
  ledger: 'context-ledger',
  trim: 'trim (LangChain trimMessages)',
  compactAtThreshold: 'Claude Code-style (compact at threshold, then leave the prefix)',
} as const;

/** Targets of issue 27 for context-ledger on the SWE-agent session. */
const PREFIX_TARGETS: Readonly<Record<number, number>> = { 8000: 0.85, 32000: 0.97 };

/** One arm on one session at one window. */
export interface CacheRun {
  readonly session: string;
  readonly dataSet: RealDataSet;
  /** Sessions pooled in this run (1: one session). */
  readonly sessions: number;
  readonly window: number;
  readonly arm: string;
  readonly tally: CacheTally;
  /** Compactions the arm made (trim: none). */
  readonly compactions: number | null;
}

/** Replay one session at one window through every arm (`windowOptions`: `--window`, for context-ledger). */
export async function measureSession(
  session: RealSession,
  window: number,
  counter: TokenCounter,
  log: (line: string) => void,
  windowOptions?: BenchWindowOptions,
): Promise<CacheRun[]> {
  const ledger = createPromptCacheMeter(counter);
  const trim = createPromptCacheMeter(counter);
  const threshold = createPromptCacheMeter(counter);
  const trimArm = createLangChainTrimArm(counter);
  const thresholdArm = createCompactAtThresholdArm(counter, window);
  const started = Date.now();
  const replayed = await replayLedgerTurns(
    session.name,
    session.messages,
    window,
    counter,
    async ({ at, rendered }) => {
      ledger.measure(rendered.messages.map((message) => ({ role: message.role, content: message.content })));
      trim.measure((await trimArm.keep(session.messages.slice(0, at), window)).map(promptMessage));
      threshold.measure(thresholdArm.prompt(session.messages, at));
    },
    (done) =>
      log(
        `prompt-cache: ${session.name} @${window}: ${(done * 100).toFixed(0)}% of turns, ${((Date.now() - started) / 1000).toFixed(0)} s, ledger prefix share so far ${prefixShare(ledger.tally)?.toFixed(3) ?? '–'}`,
      ),
    windowOptions,
  );
  const base = { session: session.name, dataSet: session.dataSet, sessions: 1, window };
  return [
    {
      ...base,
      arm: CACHE_ARMS.ledger,
      tally: ledger.tally,
      // Compactions, as the arm counts its own: spill checkpoints are records of their own, not steps.
      compactions: replayed.recordSummaries().filter((record) => record.type !== 'checkpoint').length,
    },
    { ...base, arm: CACHE_ARMS.trim, tally: trim.tally, compactions: null },
    { ...base, arm: CACHE_ARMS.compactAtThreshold, tally: threshold.tally, compactions: thresholdArm.compactions() },
  ];
}

const DATA_SET_LABEL: Record<RealDataSet, string> = {
  'swe-agent': 'swe-agent',
  'claude-code': 'claude-code (older dev sessions)',
  entire: 'entire (Claude Code sessions)',
};

/** Per data set, window and arm: the single session's run, or the pooled tallies of several sessions. */
export function pooledCacheRuns(runs: readonly CacheRun[]): CacheRun[] {
  const pooled: CacheRun[] = [];
  for (const dataSet of Object.keys(CACHE_WINDOWS_BY_SET) as RealDataSet[])
    for (const window of CACHE_WINDOWS)
      for (const arm of Object.values(CACHE_ARMS)) {
        const group = runs.filter((run) => run.dataSet === dataSet && run.window === window && run.arm === arm);
        if (group.length === 1) pooled.push(group[0] as CacheRun);
        if (group.length < 2) continue;
        const compactions = group.map((run) => run.compactions);
        pooled.push({
          session: `${DATA_SET_LABEL[dataSet]}: ${group.length} sessions pooled`,
          dataSet,
          sessions: group.length,
          window,
          arm,
          tally: poolTallies(group.map((run) => run.tally)),
          compactions: compactions.some((count) => count === null)
            ? null
            : compactions.reduce((sum: number, count) => sum + (count ?? 0), 0),
        });
      }
  return pooled;
}

function armRun(runs: readonly CacheRun[], session: string, window: number, arm: string): CacheRun | undefined {
  return runs.find((run) => run.session === session && run.window === window && run.arm === arm);
}

function runRow(run: CacheRun): (string | number | null)[] {
  return [
    run.session,
    run.window,
    run.arm,
    run.tally.prompts,
    run.tally.prompts === 0 ? null : Math.round(run.tally.tokens / run.tally.prompts),
    round(prefixShare(run.tally), 3),
    run.tally.mostlyUncached,
    round(relativeCost(run.tally), 3),
    run.compactions,
  ];
}

const RUN_COLUMNS = [
  'session',
  'window',
  'arm',
  'prompts',
  'mean prompt tokens',
  'prefix share',
  'mostly uncached prompts',
  'input cost vs no caching',
  'compactions',
];

/** The lead: per session (or pooled data set) and window, every arm's prefix share, mostly uncached and cost. */
function leadTable(pooled: readonly CacheRun[]): ResultTable {
  const keys = [...new Map(pooled.map((run) => [`${run.session}@${run.window}`, run])).values()];
  return {
    title:
      'Prompt-cache reuse on real sessions at the windows agents run with: prefix share, mostly uncached prompts, input cost vs no caching',
    columns: [
      'data set',
      'window',
      ...Object.values(CACHE_ARMS).flatMap((arm) => [`${arm} prefix share`, `${arm} mostly uncached`]),
      ...Object.values(CACHE_ARMS).map((arm) => `${arm} cost`),
    ],
    rows: keys.map(({ session, window }) => {
      const of = (arm: string) => armRun(pooled, session, window, arm);
      return [
        session,
        window,
        ...Object.values(CACHE_ARMS).flatMap((arm) => {
          const run = of(arm);
          return run
            ? [round(prefixShare(run.tally), 3), `${run.tally.mostlyUncached} / ${run.tally.prompts}`]
            : [null, null];
        }),
        ...Object.values(CACHE_ARMS).map((arm) => {
          const run = of(arm);
          return run ? round(relativeCost(run.tally), 3) : null;
        }),
      ];
    }),
    notes: [`Cost: input cost with caching over no caching; ${PRICE_MODEL.description}.`],
  };
}

/**
 * Targets: issue 27's prefix shares on the SWE-agent session at 8,000 and 32,000; issue 37's at 32,000 and 200,000
 * on the SWE-agent session and the pooled `entire/` sessions: context-ledger's prefix share at least the Claude
 * Code-style arm's, its input cost at most the arm's.
 */
function cacheTargets(pooled: readonly CacheRun[]): TargetCheck[] {
  const find = (dataSet: RealDataSet, window: number, arm: string) =>
    pooled.find((run) => run.dataSet === dataSet && run.window === window && run.arm === arm);
  const targets: TargetCheck[] = [8000, 32000].map((window) => {
    const run = find('swe-agent', window, CACHE_ARMS.ledger);
    return atLeast(
      `prompt prefix share turn to turn @${window / 1000}k (swe-agent session, context-ledger)`,
      run ? round(prefixShare(run.tally), 3) : null,
      PREFIX_TARGETS[window] ?? 1,
      'issue 27; bench/real/prompt-cache.ts',
    );
  });
  for (const dataSet of ['swe-agent', 'entire'] as const)
    for (const window of [32000, 200_000]) {
      const ledger = find(dataSet, window, CACHE_ARMS.ledger);
      const arm = find(dataSet, window, CACHE_ARMS.compactAtThreshold);
      if (!ledger || !arm) continue;
      const where = `@${window / 1000}k (${DATA_SET_LABEL[dataSet]}${ledger.sessions > 1 ? ', pooled' : ''})`;
      const note = 'issue 37 item 4: target = the Claude Code-style arm on the same prompts';
      targets.push(
        atLeast(
          `context-ledger prefix share >= Claude Code-style arm ${where}`,
          round(prefixShare(ledger.tally), 3),
          round(prefixShare(arm.tally), 3) ?? 1,
          note,
        ),
        atMost(
          `context-ledger input cost <= Claude Code-style arm ${where}`,
          round(relativeCost(ledger.tally), 3),
          round(relativeCost(arm.tally), 3) ?? 0,
          note,
        ),
      );
    }
  return targets;
}

function cacheNotes(context: BenchContext, sessions: readonly RealSession[], missing: readonly string[]): string[] {
  return [
    `Data: ${context.dataDir}; ${sessions.map((session) => `${session.name} (${session.messages.length} messages)`).join('; ')}.`,
    ...missing.map((line) => `MISSING: ${line}`),
    ...(context.quick
      ? [
          '--quick: the first 5 SWE-agent trajectories at 8,000 and 32,000; the smallest entire/ session at 32,000 and 200,000.',
        ]
      : []),
    `Windows: ${Object.entries(CACHE_WINDOWS_BY_SET)
      .map(([dataSet, windows]) => `${dataSet} ${windows.join(', ')}`)
      .join(
        '; ',
      )}. entire/ = its Claude Code sessions (the Codex rollouts left out); every agent's own compaction is left out of the messages.`,
    'A prompt is taken before every assistant turn (an assistant message after a non-assistant one): context-ledger appends what came since the last prompt and renders (memory store, o200k counter, default options unless a note gives window options); trim keeps the most recent whole messages that fit; the Claude Code-style arm is bench/real/compact-at-threshold-arm.ts.',
    `Prefix share: the tokens of each prompt that are its longest common token prefix with the previous prompt, summed over prompts, over all prompt tokens (bench/real/prompt-cache.ts: whole equal leading messages, then the first differing message up to its last shared line start; o200k counts plus 4 framing tokens a message). Mostly uncached: prompts whose own share is below ${MOSTLY_UNCACHED_BELOW} (the first prompt of a session counts). Pooled rows sum the tallies of a data set's sessions.`,
    `Price model: ${PRICE_MODEL.description}. Relative cost: input cost with caching over the same prompts without caching.`,
    `Claude Code-style arm: compact when a prompt would be over ${COMPACT_AT_THRESHOLD_DEFAULTS.compactAt} of the window to the first system message, a summary stand-in of ${COMPACT_AT_THRESHOLD_DEFAULTS.summaryShare} of the window and the most recent whole messages up to ${COMPACT_AT_THRESHOLD_DEFAULTS.keepShare} of it, then leave that prefix alone.`,
    'Until issue 37 the Claude Code-style arm handed out its growing message array itself when a session has no system ' +
      'message (every Claude Code session), so the prompt kept for comparison grew with the next one and every turn of ' +
      'that arm between its compactions counted as cached whole (claude-code/ at 32,000: 0.971 / 0.970 reported, 0.940 / ' +
      '0.931 measured); the arm now returns a new array and the meter keeps a copy of each prompt.',
    'At 200,000 tokens most entire/ sessions never fill the window on o200k counts of their message text (Claude Code ' +
      'compacted them at 145k-177k of its own count, which adds its system prompt, tool definitions and another ' +
      'tokenizer): both arms then only append, and the row compares what each adds per turn.',
  ];
}

/** Run the prompt-cache benchmark. */
export async function runPromptCacheBench(context: BenchContext): Promise<BenchResult> {
  const windows = context.quick ? QUICK_CACHE_WINDOWS : CACHE_WINDOWS_BY_SET;
  const { sessions, missing } = await loadRealSessions(
    context.dataDir,
    context.quick ? { trajectories: 5, claudeCode: false, entire: 1 } : {},
  );
  const counter = createO200kCounter();
  const runs: CacheRun[] = [];
  for (const session of sessions)
    for (const window of windows[session.dataSet]) {
      context.log(`prompt-cache: ${session.name}, ${session.messages.length} messages, window ${window}`);
      runs.push(...(await measureSession(session, window, counter, context.log, context.window)));
    }
  const pooled = pooledCacheRuns(runs);
  const tables: ResultTable[] = [
    {
      title: 'Prompt prefix reused turn to turn, per data set (sessions pooled), window and arm',
      columns: RUN_COLUMNS,
      rows: pooled.map(runRow),
    },
    {
      title: 'Prompt prefix reused turn to turn, per session, window and arm',
      columns: RUN_COLUMNS,
      rows: runs.map(runRow),
    },
  ];
  return {
    ...resultBase(context, 'prompt-cache', 'Prompt-cache reuse turn to turn on real sessions'),
    notes: cacheNotes(context, sessions, missing),
    tables,
    targets: cacheTargets(pooled),
    lead: leadTable(pooled),
    data: { priceModel: PRICE_MODEL, compactAtThreshold: COMPACT_AT_THRESHOLD_DEFAULTS, runs, pooled },
  };
}
