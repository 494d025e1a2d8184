/**
 * The rank order of the injected context's handles: `rankHandles` with the hook's weights, a bonus for a name the
 * agent's summary shares (`hook-context-summary.ts`), a command's answer (`hook-context-output.ts`) after all the
 * others.
 */
import { compareRanked, rankHandles } from '../../ranking/rank-handles.js';
import type { RankEvidence } from '../../ranking/rank-evidence.js';
import type { RankWeights } from '../../ranking/rank-weights.js';
import type { Handle } from '../../types.js';
import { namedBySummary } from './hook-context-summary.js';

/**
 * The candidates, most useful first: `rankHandles` with `weights`, plus `bonus` for each candidate that shares a
 * telling name with the agent's summary (`namedBySummary`); a command's answer (`answers`: a binding or URL only seen
 * in the output of a command, not in a file read) after all the others.
 */
export function rankCandidates(
  candidates: readonly Handle[],
  evidence: RankEvidence,
  summary: string,
  answers: ReadonlySet<Handle>,
  weights: RankWeights,
  bonus: number,
): Handle[] {
  const named = namedBySummary(candidates, summary);
  const ranked = rankHandles(candidates, evidence, weights)
    .map(({ handle, score }) => ({ handle, score: score + (named.has(handle) ? bonus : 0) }))
    .sort((a, b) => compareRanked(a.handle, a.score, b.handle, b.score))
    .map((entry) => entry.handle);
  return [...ranked.filter((handle) => !answers.has(handle)), ...ranked.filter((handle) => answers.has(handle))];
}
