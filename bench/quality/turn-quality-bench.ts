/**
 * `quality-turns`: the in-window share of future-needed handles (the yardstick of `future-needed.ts`) at the fixed
 * cuts of `quality-claude-code` / `quality-swe-agent` and averaged over every turn of the replay. With rare
 * compactions the share at one cut depends on where the cut falls in the compaction cycle; over every turn it
 * does not. Every transcript is replayed on its own (as at the fixed cuts) turn by turn (`turn-replay.ts`: a prompt
 * before each assistant turn), and at each prompt the future-needed handles at that point (`needed-timeline.ts`,
 * the same set as `futureNeeded`) are looked for verbatim in context-ledger's rendered text and in trim's context.
 */
import { createO200kCounter } from '../../src/index.js';
import type { TokenCounter } from '../../src/index.js';
import { resultBase, round, share } from '../bench-result.js';
import type { BenchResult, ResultTable } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { windowAt } from '../window-options.js';
import type { BenchWindowOptions } from '../window-options.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import type { BenchTranscript } from '../data-sets.js';
import { replayLedgerTurns } from '../real/turn-replay.js';
import { createLangChainTrimArm } from './baseline-arms.js';
import { ARMS, cutsOf } from './cut-quality.js';
import { countPresent, futureNeeded } from './future-needed.js';
import { neededAt, neededTimeline } from './needed-timeline.js';
import { replayToCut } from './public-replay.js';
import { withoutStyleVocabulary } from './style-vocabulary.js';

/** Budgets measured. */
export const TURN_BUDGETS = [4000, 8000] as const;

/** Arms measured (the baselines' names as in `cut-quality.ts`). */
const TURN_ARMS = [ARMS.ledger, ARMS.trim] as const;

/** Handles present over handles needed, summed. */
interface Pooled {
  present: number;
  needed: number;
  /** Points measured (cuts or turns) with at least one handle needed. */
  points: number;
  /** Sum over those points of each point's own share (for the unweighted mean). */
  shares: number;
}

const emptyPooled = (): Pooled => ({ present: 0, needed: 0, points: 0, shares: 0 });

function addPoint(pooled: Pooled, present: number, needed: number): void {
  if (needed === 0) return;
  pooled.present += present;
  pooled.needed += needed;
  pooled.points++;
  pooled.shares += present / needed;
}

/** One arm's tallies: every future-needed handle, and those left when style vocabulary is taken out. */
export interface Measured {
  readonly all: Pooled;
  /** The needed handles without style vocabulary (`style-vocabulary.ts`); points with none left are left out. */
  readonly noStyle: Pooled;
}

export const emptyMeasured = (): Measured => ({ all: emptyPooled(), noStyle: emptyPooled() });

/** Count `needed` (and `needed` without style vocabulary) against one arm's `text`. */
export function addNeeded(measured: Measured, needed: readonly string[], text: string): void {
  addPoint(measured.all, countPresent(needed, text), needed.length);
  const kept = withoutStyleVocabulary(needed);
  addPoint(measured.noStyle, countPresent(kept, text), kept.length);
}

/** One arm, one data set, one budget: at the fixed cuts and over every turn. */
export interface TurnQualityRow {
  readonly dataSet: 'claude-code' | 'swe-agent';
  readonly budget: number;
  readonly arm: string;
  readonly atCuts: Pooled;
  readonly overTurns: Pooled;
  /** As `atCuts` / `overTurns`, style vocabulary left out of the needed handles. */
  readonly atCutsNoStyle: Pooled;
  readonly overTurnsNoStyle: Pooled;
}

/** The fixed cuts of `cut-quality.ts`, measured the same way (`replayToCut`, `render().text`). */
async function measureFixedCuts(
  name: 'claude-code' | 'swe-agent',
  transcripts: readonly BenchTranscript[],
  budget: number,
  counter: TokenCounter,
  window?: BenchWindowOptions,
): Promise<Map<string, Measured>> {
  const pooled = new Map<string, Measured>(TURN_ARMS.map((arm) => [arm, emptyMeasured()]));
  const trim = createLangChainTrimArm(counter);
  for (const cut of cutsOf(name, transcripts)) {
    const before = cut.messages.slice(0, cut.at);
    const needed = futureNeeded(cut.messages, cut.at);
    const ledger = (
      await replayToCut(cut.id, before, budget, counter, { session: { window: windowAt(window, budget) } })
    ).rendered.text;
    addNeeded(pooled.get(ARMS.ledger) as Measured, needed, ledger);
    addNeeded(pooled.get(ARMS.trim) as Measured, needed, await trim.render(before, budget));
  }
  return pooled;
}

/** Every turn of every transcript. */
async function measureTurns(
  transcripts: readonly BenchTranscript[],
  budget: number,
  counter: TokenCounter,
  log: (line: string) => void,
  window?: BenchWindowOptions,
): Promise<Map<string, Measured>> {
  const pooled = new Map<string, Measured>(TURN_ARMS.map((arm) => [arm, emptyMeasured()]));
  const trim = createLangChainTrimArm(counter);
  for (const [index, transcript] of transcripts.entries()) {
    const timeline = neededTimeline(transcript.messages);
    const started = Date.now();
    await replayLedgerTurns(
      transcript.id,
      transcript.messages,
      budget,
      counter,
      async ({ at, rendered }) => {
        const needed = neededAt(timeline, at);
        if (needed.length === 0) return;
        addNeeded(pooled.get(ARMS.ledger) as Measured, needed, rendered.text);
        addNeeded(
          pooled.get(ARMS.trim) as Measured,
          needed,
          await trim.render(transcript.messages.slice(0, at), budget),
        );
      },
      transcript.messages.length > 1000
        ? (done) => log(`  ${transcript.id} @${budget}: ${(done * 100).toFixed(0)}% of turns`)
        : undefined,
      window,
    );
    log(
      `  ${index + 1}/${transcripts.length} ${transcript.id} @${budget}: ${transcript.messages.length} messages, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return pooled;
}

const shareOf = (pooled: Pooled) => round(share(pooled.present, pooled.needed), 3);
const meanOf = (pooled: Pooled) => round(share(pooled.shares, pooled.points), 3);

/** The per-arm table. */
function resultTables(rows: readonly TurnQualityRow[]): ResultTable[] {
  return [
    {
      title: 'Future-needed handles in the window: at the fixed cuts and over every turn',
      columns: [
        'data set',
        'budget',
        'arm',
        'at the cuts (pooled)',
        'cuts',
        'over every turn (pooled)',
        'over every turn (mean of turns)',
        'turns',
        'handles needed over the turns',
        'at the cuts, CSS vocabulary left out (pooled)',
        'over every turn, CSS vocabulary left out (pooled)',
        'handles needed over the turns, CSS vocabulary left out',
      ],
      rows: rows.map((row) => [
        row.dataSet,
        row.budget,
        row.arm,
        shareOf(row.atCuts),
        row.atCuts.points,
        shareOf(row.overTurns),
        meanOf(row.overTurns),
        row.overTurns.points,
        row.overTurns.needed,
        shareOf(row.atCutsNoStyle),
        shareOf(row.overTurnsNoStyle),
        row.overTurnsNoStyle.needed,
      ]),
    },
  ];
}

/** The lead table: per data set and budget, each arm at the cuts, over every turn, and over every turn without CSS vocabulary. */
function leadTable(rows: readonly TurnQualityRow[]): ResultTable {
  return {
    title: 'Future-needed handles in the window, at the fixed cuts and averaged over every turn (pooled)',
    columns: [
      'data set',
      'budget',
      ...TURN_ARMS.flatMap((arm) => [
        `${arm} at the cuts`,
        `${arm} over every turn`,
        `${arm} over every turn, CSS vocabulary left out`,
      ]),
    ],
    rows: [...new Set(rows.map((row) => `${row.dataSet}|${row.budget}`))].map((key) => {
      const [dataSet, budget] = key.split('|') as [string, string];
      const of = (arm: string) =>
        rows.find((row) => row.dataSet === dataSet && String(row.budget) === budget && row.arm === arm);
      return [
        dataSet,
        Number(budget),
        ...TURN_ARMS.flatMap((arm) => {
          const row = of(arm);
          return row
            ? [shareOf(row.atCuts), shareOf(row.overTurns), shareOf(row.overTurnsNoStyle)]
            : [null, null, null];
        }),
      ];
    }),
  };
}

/** Run the over-every-turn quality benchmark on both agent data sets. */
export async function runTurnQualityBench(context: BenchContext): Promise<BenchResult> {
  const counter = createO200kCounter();
  const rows: TurnQualityRow[] = [];
  const notes: string[] = [];
  for (const name of ['swe-agent', 'claude-code'] as const) {
    const dataSet = await findDataSet(context.dataDir, name);
    if (dataSet.missing) {
      notes.push(`MISSING: ${dataSet.missing}`);
      continue;
    }
    let transcripts = await loadTranscripts(dataSet);
    if (context.quick) {
      if (name === 'claude-code') {
        notes.push('--quick: no Claude Code session.');
        continue;
      }
      notes.push(`--quick: the first 5 of ${transcripts.length} ${name} transcripts.`);
      transcripts = transcripts.slice(0, 5);
    }
    notes.push(`Data: ${dataSet.folder}, ${transcripts.length} transcript(s), each replayed on its own.`);
    for (const budget of TURN_BUDGETS) {
      context.log(`quality-turns: ${name} @${budget}: fixed cuts`);
      const cuts = await measureFixedCuts(name, transcripts, budget, counter, context.window);
      context.log(`quality-turns: ${name} @${budget}: every turn`);
      const turns = await measureTurns(transcripts, budget, counter, context.log, context.window);
      for (const arm of TURN_ARMS) {
        const [atCuts, overTurns] = [cuts.get(arm) as Measured, turns.get(arm) as Measured];
        rows.push({
          dataSet: name,
          budget,
          arm,
          atCuts: atCuts.all,
          overTurns: overTurns.all,
          atCutsNoStyle: atCuts.noStyle,
          overTurnsNoStyle: overTurns.noStyle,
        });
      }
    }
  }
  notes.push(
    'Fixed cuts: as in quality-claude-code / quality-swe-agent (a Claude Code session at its own compaction, a SWE-agent trajectory after 60% of its messages; replayToCut, render().text).',
    'Every turn: a prompt before each assistant turn (an assistant message after a non-assistant one) of the whole transcript; context-ledger appends what came since the last prompt and renders; trim is LangChain trimMessages over the messages so far. Points where no handle is future-needed are left out.',
    "Pooled: future-needed handles present over handles needed, summed over the points (cuts or turns). Mean: the unweighted mean of each point's own share.",
    "The yardstick (bench/quality/future-needed.ts, needed-timeline.ts) shares no code with the library's handle extractor.",
    "CSS vocabulary left out: the same measurement with style vocabulary taken out of the needed handles (bench/quality/style-vocabulary.ts, the benchmark's own rule, not the library's: CSS numbers with a unit such as 0.5rem or 60px, hex colours of 3, 4 or 6 digits, standard CSS property names such as font-size); points with no other handle needed are left out of it.",
  );
  const tables = resultTables(rows);
  const lead = leadTable(rows);
  return {
    ...resultBase(
      context,
      'quality-turns',
      'Future-needed handles in the window at the fixed cuts and over every turn',
    ),
    notes,
    tables,
    targets: [],
    lead,
    data: rows,
  };
}
