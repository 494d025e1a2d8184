/**
 * `rankHandles` reduced to the order, for a compaction that ranks its whole lookback: each handle's features are
 * scored as they are computed and dropped, and only the scores are kept (no object per handle outlives the pass).
 */
import type { Handle } from '../types.js';
import { compareRanked, scoreHandle, visitHandleFeatures } from './rank-handles.js';
import { DEFAULT_RANK_WEIGHTS } from './rank-weights.js';
import type { RankEvidence } from './rank-evidence.js';
import type { RankWeights } from './rank-weights.js';

/**
 * The handles in the order `rankHandles` gives them (the same scores, the same comparison, the same stable sort of
 * the same input order). `identities`, when given, are the handles' `identityOf`, in their order.
 */
export function rankedOrder(
  handles: readonly Handle[],
  evidence: RankEvidence,
  weights: RankWeights = DEFAULT_RANK_WEIGHTS,
  identities?: readonly string[],
): Handle[] {
  const scores = new Float64Array(handles.length);
  visitHandleFeatures(handles, evidence, weights, identities, (handle, features, index) => {
    scores[index] = scoreHandle(handle, features, weights);
  });
  const order = Array.from({ length: handles.length }, (_, index) => index);
  order.sort((a, b) =>
    compareRanked(handles[a] as Handle, scores[a] as number, handles[b] as Handle, scores[b] as number),
  );
  return order.map((index) => handles[index] as Handle);
}
