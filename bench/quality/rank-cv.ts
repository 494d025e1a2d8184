/**
 * Leave-one-session-out cross-validation of ranking weights: with `n` sessions, each one is held
 * out in turn, the weights are fit on the other `n − 1` (the candidate with the best mean share
 * there) and scored on the held-out session. The mean held-out share is the honest figure of a
 * fitted ranking; it is reported next to the default weights' held-out share (the first candidate).
 *
 * Each session is a function `(weights) => share` (e.g. {@link cutScorers}: the share of
 * future-needed handles in the window at the session's cut), evaluated once per candidate.
 */
import type { TokenCounter } from '../../src/index.js';
import type { Cut } from './cut-quality.js';
import { countPresent, futureNeeded } from './future-needed.js';
import { replayToCut } from './public-replay.js';
import type { ReplayOptions } from './public-replay.js';

/** One session of the cross-validation. */
export interface CvSession<Weights> {
  /** Session id. */
  readonly id: string;
  /** The session's share (0..1) under `weights`. */
  score(weights: Weights): number | Promise<number>;
}

/** One held-out session. */
export interface CvFold<Weights> {
  /** The held-out session. */
  readonly heldOut: string;
  /** Index (in the candidates) of the weights fit on the other sessions. */
  readonly candidate: number;
  /** Those weights. */
  readonly weights: Weights;
  /** Their mean share on the training sessions. */
  readonly trainShare: number;
  /** Their share on the held-out session. */
  readonly heldOutShare: number;
  /** The default weights' (first candidate's) share on the held-out session. */
  readonly defaultShare: number;
}

/** The outcome of {@link leaveOneSessionOut}. */
export interface CvResult<Weights> {
  /** One fold per session. */
  readonly folds: readonly CvFold<Weights>[];
  /** Mean held-out share of the fitted weights. */
  readonly meanHeldOut: number;
  /** Mean held-out share of the default weights. */
  readonly meanDefault: number;
  /** Share of every session under every candidate: `scores[session][candidate]`. */
  readonly scores: readonly (readonly number[])[];
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * Cross-validate `candidates` (the first is the default) over `sessions`, leaving one session out
 * at a time. Ties in training share go to the earlier candidate. Needs at least 2 sessions and 1 candidate.
 */
export async function leaveOneSessionOut<Weights>(
  sessions: readonly CvSession<Weights>[],
  candidates: readonly Weights[],
): Promise<CvResult<Weights>> {
  if (sessions.length < 2)
    throw new Error(
      `leave-one-session-out needs at least 2 sessions, got ${sessions.length}: add sessions to the data set`,
    );
  if (candidates.length === 0)
    throw new Error('leave-one-session-out needs at least 1 candidate weights object: pass the default weights first');
  const scores: number[][] = [];
  for (const session of sessions) {
    const row: number[] = [];
    for (const weights of candidates) row.push(await session.score(weights));
    scores.push(row);
  }
  const folds: CvFold<Weights>[] = sessions.map((session, heldOut) => {
    let best = 0;
    let bestShare = Number.NEGATIVE_INFINITY;
    candidates.forEach((_, candidate) => {
      const train = mean(scores.filter((_, index) => index !== heldOut).map((row) => row[candidate] ?? 0));
      if (train > bestShare) {
        best = candidate;
        bestShare = train;
      }
    });
    const row = scores[heldOut] ?? [];
    return {
      heldOut: session.id,
      candidate: best,
      weights: candidates[best] as Weights,
      trainShare: bestShare,
      heldOutShare: row[best] ?? 0,
      defaultShare: row[0] ?? 0,
    };
  });
  return {
    folds,
    meanHeldOut: mean(folds.map((fold) => fold.heldOutShare)),
    meanDefault: mean(folds.map((fold) => fold.defaultShare)),
    scores,
  };
}

/**
 * Candidates around `base`: `base` itself first, then `base` with one numeric field at a time
 * multiplied by each of `factors` (a coordinate grid; non-numeric fields are kept as they are).
 */
export function coordinateCandidates<Weights extends object>(
  base: Weights,
  factors: readonly number[] = [0.5, 2],
): Weights[] {
  const candidates: Weights[] = [base];
  for (const [key, value] of Object.entries(base)) {
    if (typeof value !== 'number') continue;
    for (const factor of factors) candidates.push({ ...base, [key]: value * factor });
  }
  return candidates;
}

/**
 * Each cut as a cross-validation session: the share of its future-needed handles verbatim in
 * context-ledger's window at `budget`, replayed with the options `optionsFor(weights)` gives.
 * Cuts with no future-needed handle have nothing to score and are left out.
 */
export function cutScorers<Weights>(
  cuts: readonly Cut[],
  budget: number,
  counter: TokenCounter,
  optionsFor: (weights: Weights) => ReplayOptions,
): CvSession<Weights>[] {
  const scored = cuts
    .map((cut) => ({ cut, needed: futureNeeded(cut.messages, cut.at) }))
    .filter(({ needed }) => needed.length > 0);
  return scored.map(({ cut, needed }) => {
    return {
      id: cut.id,
      async score(weights: Weights) {
        const replayed = await replayToCut(cut.id, cut.messages.slice(0, cut.at), budget, counter, optionsFor(weights));
        return countPresent(needed, replayed.rendered.text) / needed.length;
      },
    };
  });
}
