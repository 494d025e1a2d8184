/**
 * `npm run bench rank-cv`: leave-one-session-out cross-validation (`rank-cv.ts`) of the window's
 * shares of the budget — recent turns kept, handle index, summary prose — as stand-in weights,
 * through the public session options only. Each session's score is the share of its
 * future-needed handles in context-ledger's window at its cut, at 8k tokens. Candidates: the
 * library defaults first, then each share halved and raised by half. The held-out mean of the
 * fitted shares against the defaults' says whether tuning on n − 1 sessions carries over.
 */
import { createO200kCounter } from '../../src/index.js';
import { round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import { cutsOf } from './cut-quality.js';
import { coordinateCandidates, cutScorers, leaveOneSessionOut } from './rank-cv.js';
import type { ReplayOptions } from './public-replay.js';

/** Shares of the budget given to each part of the window (the library's defaults). */
export interface WindowShares {
  readonly keepRecent: number;
  readonly handleIndex: number;
  readonly summary: number;
}

/** The library defaults (`resolveWindowConfig`): 25% recent turns, 20% handle index, 10% summary. */
export const DEFAULT_SHARES: WindowShares = { keepRecent: 0.25, handleIndex: 0.2, summary: 0.1 };

const BUDGET = 8000;

/** Session options of `shares` at `budget`. */
export function sharesOptions(shares: WindowShares, budget: number): ReplayOptions {
  const tokens = (share: number) => Math.max(1, Math.floor(budget * share));
  return {
    session: {
      window: {
        keepRecentTokens: tokens(shares.keepRecent),
        handleBudgetTokens: tokens(shares.handleIndex),
        summaryBudgetTokens: tokens(shares.summary),
      },
    },
  };
}

function describe(shares: WindowShares): string {
  const show = (value: number) => Number(value.toFixed(3));
  return `recent ${show(shares.keepRecent)}, index ${show(shares.handleIndex)}, summary ${show(shares.summary)}`;
}

/** Run the cross-validation on both agent data sets. */
export async function runRankCv(context: BenchContext): Promise<BenchResult> {
  const base = {
    name: 'rank-cv',
    title: 'Leave-one-session-out cross-validation of the window shares',
    date: new Date().toISOString(),
    quick: context.quick,
    machine: context.machine,
  };
  const counter = createO200kCounter();
  const candidates = coordinateCandidates(DEFAULT_SHARES, [0.5, 1.5]);
  const notes: string[] = [
    `Budget ${BUDGET}; ${candidates.length} candidates: ${candidates.map(describe).join('; ')}.`,
  ];
  const rows: (string | number | null)[][] = [];
  const foldRows: (string | number | null)[][] = [];
  for (const name of ['claude-code', 'swe-agent'] as const) {
    const dataSet = await findDataSet(context.dataDir, name);
    if (dataSet.missing) {
      notes.push(`MISSING: ${dataSet.missing}; not measured.`);
      continue;
    }
    let cuts = cutsOf(name, await loadTranscripts(dataSet));
    if (context.quick && cuts.length > 10) {
      notes.push(`--quick: only the first 10 of ${cuts.length} ${name} transcripts.`);
      cuts = cuts.slice(0, 10);
    }
    const sessions = cutScorers<WindowShares>(cuts, BUDGET, counter, (shares) => sharesOptions(shares, BUDGET));
    if (sessions.length < 2) {
      notes.push(`${name}: ${sessions.length} session(s) with future-needed handles; leave-one-out needs 2.`);
      continue;
    }
    context.log(`rank-cv ${name}: ${sessions.length} sessions x ${candidates.length} candidates`);
    const result = await leaveOneSessionOut(sessions, candidates);
    const picked = new Map<number, number>();
    for (const fold of result.folds) picked.set(fold.candidate, (picked.get(fold.candidate) ?? 0) + 1);
    const mostPicked = [...picked.entries()].sort((a, b) => b[1] - a[1])[0];
    rows.push([
      name,
      sessions.length,
      round(result.meanDefault, 3),
      round(result.meanHeldOut, 3),
      mostPicked ? `${describe(candidates[mostPicked[0]] ?? DEFAULT_SHARES)} (${mostPicked[1]} folds)` : null,
    ]);
    for (const fold of result.folds)
      foldRows.push([
        name,
        fold.heldOut,
        describe(fold.weights),
        round(fold.trainShare, 3),
        round(fold.heldOutShare, 3),
        round(fold.defaultShare, 3),
      ]);
  }
  return {
    ...base,
    notes,
    targets: [],
    tables: [
      {
        title: 'Held-out share of future-needed handles in the window: defaults vs shares fit on the other sessions',
        columns: ['data set', 'sessions', 'defaults (held out)', 'fitted (held out)', 'most often fitted'],
        rows,
        notes: [
          "Means over sessions of each session's share (macro-average), so they differ from the pooled shares of quality-*.",
        ],
      },
      {
        title: 'Folds',
        columns: ['data set', 'held out', 'fitted shares', 'train mean', 'held-out share', 'defaults on held-out'],
        rows: foldRows,
      },
    ],
  };
}
