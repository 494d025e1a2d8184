/**
 * Why future-needed handles (the `future-needed.ts` yardstick) are missing from (the agent's summary + the injected
 * hook context), one cause each, checked in this order:
 * - `notExtracted`: no handle stored before the boundary holds it (the extractor, `src/handles`, never made one);
 * - `notCandidate`: a stored handle holds it, but the hook never shows that kind (bare numbers, constraints that are
 *   not the user's);
 * - `cutByBudget`: a candidate holds it but was ranked below what the budget fits (`ranks`: the best holder's place);
 * - `shownNotVerbatim`: a shown candidate holds it, but the rendered text does not (folded into a near-duplicate).
 * `cap` counts the handles present when every candidate is shown: the most any ranking could reach.
 */
import type { HookContext } from '../../src/integrations/claude-code/hook-context.js';
import type { Handle } from '../../src/types.js';
import { countPresent } from './future-needed.js';

/** Counts of the missing handles by cause, and the ceiling. */
export interface HookMisses {
  readonly missing: number;
  readonly notExtracted: number;
  readonly notCandidate: number;
  readonly cutByBudget: number;
  readonly shownNotVerbatim: number;
  /** Places (0 = first) in the ranking of the best candidate holding each handle cut by the budget. */
  readonly ranks: readonly number[];
  /** Handles present in the summary + every candidate. */
  readonly cap: number;
}

/** Classify the future-needed handles missing from `summary` + `context.text` (`stored`: every handle before the boundary). */
export function hookMisses(
  needed: readonly string[],
  summary: string,
  context: Pick<HookContext, 'text' | 'shown' | 'ranked'>,
  stored: readonly Handle[],
): HookMisses {
  const shown = new Set(context.shown);
  const counts = { notExtracted: 0, notCandidate: 0, cutByBudget: 0, shownNotVerbatim: 0 };
  const ranks: number[] = [];
  const present = `${summary}\n${context.text}`;
  const missing = needed.filter((token) => !present.includes(token));
  for (const token of missing) {
    const rank = context.ranked.findIndex((handle) => handle.text.includes(token));
    if (rank < 0) {
      if (stored.some((handle) => handle.text.includes(token))) counts.notCandidate++;
      else counts.notExtracted++;
    } else if (context.ranked.some((handle) => shown.has(handle) && handle.text.includes(token))) {
      counts.shownNotVerbatim++;
    } else {
      counts.cutByBudget++;
      ranks.push(rank);
    }
  }
  const everything = `${summary}\n${context.ranked.map((handle) => handle.text).join('\n')}`;
  return { missing: missing.length, ...counts, ranks, cap: countPresent(needed, everything) };
}
