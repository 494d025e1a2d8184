/**
 * `rankHandles` reduced to the order, for a compaction that ranks its whole lookback: each handle's features are
 * scored as they are computed and dropped, and only the scores are kept (no object per handle outlives the pass).
 */
import type { Handle } from '../types.js';
import { compareRanked, scoreHandle, visitHandleFeatures } from './rank-handles.js';
import type { KnownOfHandles } from './rank-handles.js';
import type { RankSeed } from './rank-seed.js';
import { DEFAULT_RANK_WEIGHTS } from './rank-weights.js';
import type { RankEvidence } from './rank-evidence.js';
import type { RankWeights } from './rank-weights.js';

/** What `rankedOrder` may be given besides the handles: what is known of them, and where to start the sort from. */
export interface RankedOrderOptions extends KnownOfHandles {
  /** The session's last ranking (used with `traits`): the sort starts from its order. */
  readonly seed?: RankSeed | undefined;
}

/**
 * The handles in the order `rankHandles` gives them (the same scores, the same comparison, ties in input order as its
 * stable sort leaves them). `options`: see {@link RankedOrderOptions}.
 */
export function rankedOrder(
  handles: readonly Handle[],
  evidence: RankEvidence,
  weights: RankWeights = DEFAULT_RANK_WEIGHTS,
  options: RankedOrderOptions = {},
): Handle[] {
  const scores = new Float64Array(handles.length);
  let finite = true;
  visitHandleFeatures(handles, evidence, weights, options, (handle, features, index) => {
    const score = scoreHandle(handle, features, weights);
    scores[index] = score;
    if (!Number.isFinite(score)) finite = false;
  });
  // Only a total order sorts to the same order from any start: a score that is not finite compares as a tie to all.
  const { seed, traits } = options;
  const seeded = seed !== undefined && traits !== undefined && finite ? seed : undefined;
  const order = seeded?.start(traits ?? []) ?? Array.from({ length: handles.length }, (_, index) => index);
  order.sort(
    (a, b) =>
      compareRanked(handles[a] as Handle, scores[a] as number, handles[b] as Handle, scores[b] as number) || a - b,
  );
  seeded?.remember(traits ?? [], order);
  return order.map((index) => handles[index] as Handle);
}
