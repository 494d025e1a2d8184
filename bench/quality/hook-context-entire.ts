/**
 * `hook-context-entire`: what the SessionStart(compact) hook injects, at every real agent compaction of the real
 * sessions in `entire/` (13 Claude Code sessions at a 200k window, 2 Codex rollouts) and `claude-code/` (2 older
 * Claude Code sessions), replayed as the hooks run (`hook-context-replay.ts`). The score at a compaction is the share
 * of its future-needed handles present verbatim in what the agent kept (Claude Code's summary, Codex's kept messages)
 * plus the injected text, pooled over compactions; the held-out half is the sessions at odd places (file order) of
 * each folder, which no hook constant was chosen on.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_HOOK_CONTEXT_BUDGET } from '../../src/integrations/claude-code/hook-budget.js';
import type { HookTranscriptFormat } from '../../src/integrations/claude-code/transcript-ingest.js';
import { atLeast, atMost, round, share } from '../bench-result.js';
import type { BenchResult, ResultTable } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { replayCompactions } from './hook-context-replay.js';
import { ROOM_FACTORS } from './hook-misses.js';
import type { CompactionMeasure, HookArm } from './hook-context-replay.js';

/**
 * The arms: the budget the hook had before this benchmark (2,000 tokens; the candidate changes of the same run, grep
 * line markers folded and superseded bindings left out, apply to it too), and the hook's default now.
 */
export const HOOK_ARMS: readonly HookArm[] = [
  { name: '2,000 tokens', budgetTokens: 2000 },
  { name: `hook default, ${DEFAULT_HOOK_CONTEXT_BUDGET} tokens` },
];

/** The arm the targets are set on. */
const MAIN_ARM = HOOK_ARMS.length - 1;

/** Characters the injected context must stay within (the bound). */
export const INJECTED_CHARACTERS_BOUND = 10_000;

interface SessionFile {
  readonly set: 'entire (Claude Code)' | 'entire (Codex)' | 'claude-code';
  readonly file: string;
  readonly format: HookTranscriptFormat;
  readonly heldOut: boolean;
}

async function sessionFiles(dataDir: string, notes: string[]): Promise<SessionFile[]> {
  const list = async (folder: string) =>
    (await readdir(join(dataDir, folder)).catch(() => undefined))?.filter((name) => name.endsWith('.jsonl')).sort();
  const entire = await list('entire');
  const older = await list('claude-code');
  if (!entire) notes.push(`data set "entire" not found under ${dataDir}`);
  if (!older) notes.push(`data set "claude-code" not found under ${dataDir}`);
  const place = (folder: string, names: readonly string[], set: SessionFile['set'], format: HookTranscriptFormat) =>
    names.map((name, index) => ({ set, file: join(dataDir, folder, name), format, heldOut: index % 2 === 1 }));
  const codex = (entire ?? []).filter((name) => name.includes('codex'));
  return [
    ...place(
      'entire',
      (entire ?? []).filter((name) => !codex.includes(name)),
      'entire (Claude Code)',
      'claude-code',
    ),
    ...place('entire', codex, 'entire (Codex)', 'codex'),
    ...place(
      'claude-code',
      (older ?? []).filter((name) => !name.endsWith('.compact-agent.jsonl')),
      'claude-code',
      'claude-code',
    ),
  ];
}

interface Pool {
  readonly compactions: number;
  readonly needed: number;
  readonly kept: number;
  readonly present: number[];
  readonly characters: number[][];
  readonly failures: number;
  /** Present in kept + every candidate of the main arm: the most any ranking or budget could reach. */
  readonly ceiling: number;
  readonly worst: (number | null)[];
  /** Of the main arm: future-needed handles and those present, letter-only compounds not counted. */
  readonly withoutCompounds: { readonly needed: number; readonly present: number };
  /** Of the main arm's missing handles: those the agent read again after the compaction before it wrote them. */
  readonly readAgain: number;
  /** Of the main arm: present with more room, per factor of `ROOM_FACTORS` (`presentWithRoom`). */
  readonly room: readonly number[];
}

function pool(measures: readonly CompactionMeasure[]): Pool {
  const sum = (pick: (measure: CompactionMeasure) => number) => measures.reduce((total, each) => total + pick(each), 0);
  return {
    compactions: measures.length,
    needed: sum((measure) => measure.needed),
    kept: sum((measure) => measure.kept),
    present: HOOK_ARMS.map((_, arm) => sum((measure) => measure.arms[arm]?.present ?? 0)),
    characters: HOOK_ARMS.map((_, arm) => measures.map((measure) => measure.arms[arm]?.characters ?? 0)),
    failures: sum((measure) => measure.arms.filter((outcome) => outcome.failure !== undefined).length),
    ceiling: sum((measure) => measure.arms[MAIN_ARM]?.misses?.cap ?? measure.arms[MAIN_ARM]?.present ?? 0),
    readAgain: sum((measure) => measure.arms[MAIN_ARM]?.readAgain?.length ?? 0),
    room: ROOM_FACTORS.map((_, index) => sum((measure) => measure.arms[MAIN_ARM]?.misses?.room[index] ?? 0)),
    withoutCompounds: {
      needed: sum((measure) => measure.needed - measure.neededCompounds),
      present: sum((measure) => {
        const outcome = measure.arms[MAIN_ARM];
        const missingCompounds = outcome?.misses?.compounds ?? 0;
        return (outcome?.present ?? 0) - (measure.neededCompounds - missingCompounds);
      }),
    },
    worst: HOOK_ARMS.map((_, arm) => {
      const shares = measures
        .filter((measure) => measure.needed > 0)
        .map((measure) => (measure.arms[arm]?.present ?? 0) / measure.needed);
      return shares.length === 0 ? null : round(Math.min(...shares));
    }),
  };
}

function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : (sorted[Math.floor(sorted.length / 2)] ?? null);
}

const shareRow = (row: Pool) => [
  row.compactions,
  row.needed,
  round(share(row.kept, row.needed)),
  ...row.present.map((present) => round(share(present, row.needed))),
];

const armColumns = HOOK_ARMS.map((arm) => `kept + injected, ${arm.name}`);

function sessionTable(files: readonly SessionFile[], measures: readonly CompactionMeasure[][]): ResultTable {
  return {
    title: 'Per session: future-needed handles present after each agent compaction (pooled over its compactions)',
    columns: ['session', 'data set', 'held out', 'compactions', 'future-needed', 'kept alone', ...armColumns],
    rows: files.map((file, index) => [
      file.file.replace(/^.*\//, '').replace(/_full\.jsonl$|\.jsonl$/, ''),
      file.set,
      file.heldOut ? 'yes' : 'no',
      ...shareRow(pool(measures[index] ?? [])),
    ]),
  };
}

function poolRows(files: readonly SessionFile[], measures: readonly CompactionMeasure[][]) {
  const sets = [...new Set(files.map((file) => file.set))];
  const select = (set: string, part: 'all' | 'tuned' | 'held out') =>
    files.flatMap((file, index) =>
      file.set === set && (part === 'all' || file.heldOut === (part === 'held out')) ? (measures[index] ?? []) : [],
    );
  return sets.flatMap((set) =>
    (['all', 'tuned', 'held out'] as const).map((part) => ({ set, part, row: pool(select(set, part)) })),
  );
}

function pooledTable(used: readonly SessionFile[], pools: ReturnType<typeof poolRows>): ResultTable {
  return {
    title: 'Pooled over compactions, by data set and split',
    columns: [
      'data set',
      'sessions',
      'compactions',
      'future-needed',
      'kept alone',
      ...armColumns,
      ...HOOK_ARMS.map((arm) => `worst compaction, ${arm.name}`),
      'ceiling: every candidate shown',
      `${HOOK_ARMS[MAIN_ARM]?.name ?? ''}, letter-only compounds (as-is, before/after) not counted`,
      `${HOOK_ARMS[MAIN_ARM]?.name ?? ''}, a missing handle the agent read again before using it counted as present`,
    ],
    rows: pools.map(({ set, part, row }) => [
      `${set}: ${part}`,
      used.filter((file) => file.set === set && (part === 'all' || file.heldOut === (part === 'held out'))).length,
      ...shareRow(row),
      ...row.worst,
      round(share(row.ceiling, row.needed)),
      round(share(row.withoutCompounds.present, row.withoutCompounds.needed)),
      round(share((row.present[MAIN_ARM] ?? 0) + row.readAgain, row.needed)),
    ]),
  };
}

function roomTable(pools: ReturnType<typeof poolRows>): ResultTable {
  return {
    title:
      `What more room would buy (${HOOK_ARMS[MAIN_ARM]?.name ?? ''}): kept + the ranked candidates, in rank order, ` +
      'while their characters fit a multiple of the characters of those shown',
    columns: ['data set', 'future-needed', ...ROOM_FACTORS.map((factor) => `${factor}x the characters`)],
    rows: pools.map(({ set, part, row }) => [
      `${set}: ${part}`,
      row.needed,
      ...row.room.map((present) => round(share(present, row.needed))),
    ]),
  };
}

function charactersTable(measures: readonly CompactionMeasure[]): ResultTable {
  const of = (index: number) => measures.map((measure) => measure.arms[index]);
  return {
    title: 'Characters injected per compaction (all data sets), and hook failures',
    columns: ['arm', 'max', 'median', 'hook output JSON, max', 'hook failures'],
    rows: HOOK_ARMS.map((arm, index) => [
      arm.name,
      Math.max(0, ...of(index).map((outcome) => outcome?.characters ?? 0)),
      median(of(index).map((outcome) => outcome?.characters ?? 0)),
      Math.max(0, ...of(index).map((outcome) => outcome?.outputCharacters ?? 0)),
      of(index).filter((outcome) => outcome?.failure !== undefined).length,
    ]),
  };
}

/** Run the benchmark. */
export async function runHookContextEntire(context: BenchContext): Promise<BenchResult> {
  const notes = [
    'Each transcript is written out again line by line; the hook ingest (incremental, memory store, one state file) runs before each compact_boundary / compacted line (PreCompact) and after the compaction line (SessionStart(compact); Codex PostCompact); the context is built then.',
    'Future-needed handle: a token of 4+ characters (path, URL, identifier with a digit or inner separator, hex id, KEY=value; bench/quality/future-needed.ts, no code shared with src/handles) seen anywhere before the compaction and written by the agent (assistant text, tool-call arguments) after it, up to the next compaction.',
    "Kept: Claude Code's summary (isCompactSummary); Codex's replacement_history (kept user/developer messages; Codex's own summary text is empty). The hook reads what Codex kept the same way, from the stored user, developer and harness turns (hook-context-kept.ts), and does not list their handles again.",
    'Diagnostics (not in the tables): HOOK_CONTEXT_DUMP=DIR writes each injected text and its missing handles to DIR, each with its kind (name, letter-only compound, sed print range such as 260p), its cause (with the ranking place of its best holder when cut) where it was said before the compaction (user, harness, assistant text, tool call, tool output) and whether the agent read it again after the compaction before using it; HOOK_CONTEXT_FEATURES=FILE appends one JSON line per ranked candidate of the hook default (its features, shown, the future-needed handles it holds).',
    'Held out: the sessions at odd places (file order) of each folder; the hook constants were chosen on the others.',
    'Before this benchmark (the hook at 2,000 tokens, grep line markers not folded, superseded bindings shown), measured on 2026-12-04: entire/ Claude Code 0.771 (held out 0.787), entire/ Codex 0.461, claude-code/ 0.810; at most 9,313 characters injected.',
    'Ceiling: the share present in what the agent kept plus every candidate of the hook (no budget): what the handle extractor leaves out (not extracted) no ranking or budget can add.',
    "Letter-only compounds: future-needed handles that are words joined by - or / (as-is, pre-existing, before/after): the yardstick counts them (an inner separator), the extractor leaves them to prose. Counted apart in the misses table; a column of the pooled table is the share with them not counted (the issue's definition names paths, URLs, identifiers with a digit, hex ids and KEY=value, none of which they are).",
    'More room (a diagnostic): the share present when the ranked candidates are taken in rank order while their characters (text and a separator) fit 1.5, 2 or 3 times the characters of those shown; group labels and folding are not modelled (hook-misses.ts, presentWithRoom). It says how much of a miss is the 10,000-character bound and how much the candidates and their order.',
    "Read again before use (a diagnostic beside the score, which counts such a handle as missing): a missing handle that a message after the compaction not written by the agent (a tool result, the user's or the harness's words) holds before the agent first writes it: the agent got it back by reading a file or running a command again, not from what it kept or the hook injected (hook-misses.ts, readAgainBeforeUse).",
    "Earlier record: at a compaction after the first, the hook's context names a record it had already named at an earlier compaction (the compaction was not recorded, so the injection is the earlier one's).",
  ];
  const files = await sessionFiles(context.dataDir, notes);
  const measures: CompactionMeasure[][] = [];
  for (const [index, file] of (context.quick ? files.filter((_, place) => place % 4 === 0) : files).entries()) {
    const session = `${index}-${file.file.replace(/^.*\//, '').slice(0, 40)}`;
    const measured = await replayCompactions(file.file, file.format, session, context.tempDir, HOOK_ARMS);
    measures.push(measured);
    const row = pool(measured);
    context.log(
      `hook-context-entire ${session}: ${row.compactions} compactions, ${row.needed} needed, kept ${row.kept}, ` +
        `with context ${row.present.join(' / ')}`,
    );
  }
  const used = context.quick ? files.filter((_, place) => place % 4 === 0) : files;
  const pools = poolRows(used, measures);
  const everything = pool(measures.flat());
  const misses = missesTable(measures.flat());
  const lead = pooledTable(used, pools);
  const entireClaude = pools.find(({ set, part }) => set === 'entire (Claude Code)' && part === 'all')?.row;
  const codex = pools.find(({ set, part }) => set === 'entire (Codex)' && part === 'all')?.row;
  const main = (row: Pool | undefined) => (row ? round(share(row.present[MAIN_ARM] ?? 0, row.needed)) : null);
  return {
    name: 'hook-context-entire',
    title: 'Hook context at every real agent compaction (entire/, claude-code/)',
    date: new Date().toISOString(),
    quick: context.quick,
    machine: context.machine,
    notes,
    lead,
    tables: [lead, sessionTable(used, measures), charactersTable(measures.flat()), misses, roomTable(pools)],
    targets: [
      atLeast('entire/ Claude Code: summary + injected, future-needed handles kept (pooled)', main(entireClaude), 0.92),
      atLeast('entire/ Codex: kept + injected, future-needed handles kept (pooled)', main(codex), 0.75),
      atMost(
        "characters of the hook's output at a compaction (max, the injected text JSON-escaped and wrapped)",
        Math.max(0, ...measures.flat().map((measure) => measure.arms[MAIN_ARM]?.outputCharacters ?? 0)),
        INJECTED_CHARACTERS_BOUND,
      ),
      atMost('hook failures', everything.failures, 0),
      atMost(
        "compactions whose context describes an earlier compaction's record, not their own",
        measures.flat().filter((measure) => measure.staleRecord).length,
        0,
      ),
    ],
    // Per compaction, per arm: the counts and the future-needed handles still missing (the rest is in the tables).
    data: {
      measures: measures.flat().map((measure) => ({
        ...measure,
        arms: measure.arms.map(({ present, characters, outputCharacters, failure, missing, readAgain }) => ({
          present,
          characters,
          outputCharacters,
          failure,
          missing,
          readAgain,
        })),
      })),
    },
  };
}

function missesTable(measures: readonly CompactionMeasure[]): ResultTable {
  return {
    title: `Why future-needed handles are missing (${HOOK_ARMS[MAIN_ARM]?.name ?? ''}, all compactions)`,
    columns: [
      'missing',
      'not extracted',
      'extracted, never shown',
      'cut by the budget',
      'of those, passed over for their length',
      'shown, not verbatim',
      'letter-only compounds among the missing (as-is, before/after)',
      'read again after the compaction before the agent wrote them',
      'ceiling (every candidate shown)',
    ],
    rows: [
      (() => {
        const sum = (pick: (misses: NonNullable<CompactionMeasure['arms'][number]['misses']>) => number) =>
          measures.reduce((total, measure) => {
            const misses = measure.arms[MAIN_ARM]?.misses;
            return total + (misses ? pick(misses) : 0);
          }, 0);
        const needed = measures.reduce((total, measure) => total + measure.needed, 0);
        return [
          sum((misses) => misses.missing),
          sum((misses) => misses.notExtracted),
          sum((misses) => misses.notCandidate),
          sum((misses) => misses.cutByBudget),
          sum((misses) => misses.skippedForSize),
          sum((misses) => misses.shownNotVerbatim),
          sum((misses) => misses.compounds),
          measures.reduce((total, measure) => total + (measure.arms[MAIN_ARM]?.readAgain?.length ?? 0), 0),
          round(
            share(
              sum((misses) => misses.cap),
              needed,
            ),
          ),
        ];
      })(),
    ],
  };
}
