/**
 * `prompt-cache`: how much of each prompt a provider's prompt cache could serve, on the real sessions
 * (`real-sessions.ts`: the SWE-agent trajectories as one session, each Claude Code session) at 8,000 and 32,000
 * tokens. Each session is replayed turn by turn (`turn-replay.ts`) and a prompt taken before every assistant turn,
 * for three arms: context-ledger (public API, memory store), trim (LangChain `trimMessages`, the most recent whole
 * messages that fit) and a Claude Code-style arm (`compact-at-threshold-arm.ts`). The yardstick and the price
 * model are `prompt-cache.ts`, which shares no code with the library.
 */
import { createO200kCounter } from '../../src/index.js';
import type { TokenCounter } from '../../src/index.js';
import { atLeast, resultBase, round } from '../bench-result.js';
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
  prefixShare,
  relativeCost,
} from './prompt-cache.js';
import type { CacheTally } from './prompt-cache.js';
import { loadRealSessions } from './real-sessions.js';
import type { RealSession } from './real-sessions.js';
import { replayLedgerTurns } from './turn-replay.js';

/** Windows measured. */
export const CACHE_WINDOWS = [8000, 32000] as const;

/** Arm names, in table order. */
export const CACHE_ARMS = {
  ledger: 'context-ledger',
  trim: 'trim (LangChain trimMessages)',
  compactAtThreshold: 'Claude Code-style (compact at threshold, then leave the prefix)',
} as const;

/** Targets of issue 27 for context-ledger on the SWE-agent session. */
const PREFIX_TARGETS: Record<(typeof CACHE_WINDOWS)[number], number> = { 8000: 0.85, 32000: 0.97 };

/** One arm on one session at one window. */
export interface CacheRun {
  readonly session: string;
  readonly dataSet: RealSession['dataSet'];
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
  const base = { session: session.name, dataSet: session.dataSet, window };
  return [
    { ...base, arm: CACHE_ARMS.ledger, tally: ledger.tally, compactions: replayed.recordCount() },
    { ...base, arm: CACHE_ARMS.trim, tally: trim.tally, compactions: null },
    { ...base, arm: CACHE_ARMS.compactAtThreshold, tally: threshold.tally, compactions: thresholdArm.compactions() },
  ];
}

function armRun(runs: readonly CacheRun[], session: string, window: number, arm: string): CacheRun | undefined {
  return runs.find((run) => run.session === session && run.window === window && run.arm === arm);
}

/** Run the prompt-cache benchmark. */
export async function runPromptCacheBench(context: BenchContext): Promise<BenchResult> {
  const { sessions, missing } = await loadRealSessions(
    context.dataDir,
    context.quick ? { trajectories: 5, claudeCode: false } : {},
  );
  const counter = createO200kCounter();
  const runs: CacheRun[] = [];
  for (const session of sessions)
    for (const window of CACHE_WINDOWS) {
      context.log(`prompt-cache: ${session.name}, ${session.messages.length} messages, window ${window}`);
      runs.push(...(await measureSession(session, window, counter, context.log, context.window)));
    }
  const notes = [
    `Data: ${context.dataDir}; ${sessions.map((session) => `${session.name} (${session.messages.length} messages)`).join('; ')}.`,
    ...missing.map((line) => `MISSING: ${line}`),
    ...(context.quick ? ['--quick: the first 5 SWE-agent trajectories only, no Claude Code session.'] : []),
    'A prompt is taken before every assistant turn (an assistant message after a non-assistant one): context-ledger appends what came since the last prompt and renders (memory store, o200k counter, default options unless a note gives window options); trim keeps the most recent whole messages that fit; the Claude Code-style arm is bench/real/compact-at-threshold-arm.ts.',
    `Prefix share: the tokens of each prompt that are its longest common token prefix with the previous prompt, summed over prompts, over all prompt tokens (bench/real/prompt-cache.ts: whole equal leading messages, then the first differing message up to its last shared line start; o200k counts plus 4 framing tokens a message). Mostly uncached: prompts whose own share is below ${MOSTLY_UNCACHED_BELOW} (the first prompt of a session counts).`,
    `Price model: ${PRICE_MODEL.description}. Relative cost: input cost with caching over the same prompts without caching.`,
    `Claude Code-style arm: compact when a prompt would be over ${COMPACT_AT_THRESHOLD_DEFAULTS.compactAt} of the window to the first system message, a summary stand-in of ${COMPACT_AT_THRESHOLD_DEFAULTS.summaryShare} of the window and the most recent whole messages up to ${COMPACT_AT_THRESHOLD_DEFAULTS.keepShare} of it, then leave that prefix alone.`,
  ];
  const rows = runs.map((run) => [
    run.session,
    run.window,
    run.arm,
    run.tally.prompts,
    run.tally.prompts === 0 ? null : Math.round(run.tally.tokens / run.tally.prompts),
    round(prefixShare(run.tally), 3),
    run.tally.mostlyUncached,
    round(relativeCost(run.tally), 3),
    run.compactions,
  ]);
  const leadRows = [...new Set(runs.map((run) => run.session))].flatMap((session) =>
    CACHE_WINDOWS.map((window) => {
      const of = (arm: string) => armRun(runs, session, window, arm);
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
  );
  const tables: ResultTable[] = [
    {
      title: 'Prompt prefix reused turn to turn, per session, window and arm',
      columns: [
        'session',
        'window',
        'arm',
        'prompts',
        'mean prompt tokens',
        'prefix share',
        'mostly uncached prompts',
        'input cost vs no caching',
        'compactions',
      ],
      rows,
    },
  ];
  const targets: TargetCheck[] = CACHE_WINDOWS.map((window) => {
    const run = runs.find(
      (candidate) =>
        candidate.dataSet === 'swe-agent' && candidate.window === window && candidate.arm === CACHE_ARMS.ledger,
    );
    return atLeast(
      `prompt prefix share turn to turn @${window / 1000}k (swe-agent session, context-ledger)`,
      run ? round(prefixShare(run.tally), 3) : null,
      PREFIX_TARGETS[window],
      'issue 27; bench/real/prompt-cache.ts',
    );
  });
  const lead: ResultTable = {
    title: 'Prompt-cache reuse on real sessions: prefix share, mostly uncached prompts, input cost vs no caching',
    columns: [
      'session',
      'window',
      ...Object.values(CACHE_ARMS).flatMap((arm) => [`${arm} prefix share`, `${arm} mostly uncached`]),
      ...Object.values(CACHE_ARMS).map((arm) => `${arm} cost`),
    ],
    rows: leadRows,
    notes: [`Cost: input cost with caching over no caching; ${PRICE_MODEL.description}.`],
  };
  return {
    ...resultBase(context, 'prompt-cache', 'Prompt-cache reuse turn to turn on real sessions'),
    notes,
    tables,
    targets,
    lead,
    data: { priceModel: PRICE_MODEL, compactAtThreshold: COMPACT_AT_THRESHOLD_DEFAULTS, runs },
  };
}
