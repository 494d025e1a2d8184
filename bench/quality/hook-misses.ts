/**
 * Why future-needed handles (the `future-needed.ts` yardstick) are missing from (the agent's summary + the injected
 * hook context), one cause each, checked in this order:
 * - `notExtracted`: no handle stored before the boundary holds it (the extractor, `src/handles`, never made one);
 * - `notCandidate`: a stored handle holds it, but the hook never shows that kind (bare numbers, constraints that are
 *   not the user's);
 * - `cutByBudget`: a candidate holds it but was ranked below what the budget fits (`ranks`: the best holder's place);
 *   of those, `skippedForSize` were ranked above the last handle shown (the fit passed them over for their length);
 * - `shownNotVerbatim`: a shown candidate holds it, but the rendered text does not (folded into a near-duplicate).
 * `cap` counts the handles present when every candidate is shown: the most any ranking could reach.
 * `compounds` counts the missing handles that are words joined by `-` or `/` with no digit, `_` or `.` (`as-is`,
 * `pre-existing`, `before/after`): the yardstick takes them (an inner separator), while the extractor leaves them to
 * prose unless they are quoted whole; they are counted apart so a reader sees how much of a miss is English.
 */
import type { HookContext } from '../../src/integrations/claude-code/hook-context.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { Handle } from '../../src/types.js';
import { agentWritten, argumentStrings, countPresent, identifierTokens } from './future-needed.js';

/** Words joined by `-` or `/`, letters only: `as-is`, `Best-effort`, `before/after`. */
const LETTER_COMPOUND = /^[A-Za-z]+(?:[-/][A-Za-z]+)+$/;

/** Whether a yardstick token is a letter-only compound (`as-is`, `pre-existing`, `before/after`). */
export function isLetterCompound(token: string): boolean {
  return LETTER_COMPOUND.test(token);
}

/** Counts of the missing handles by cause, and the ceiling. */
export interface HookMisses {
  readonly missing: number;
  readonly notExtracted: number;
  readonly notCandidate: number;
  readonly cutByBudget: number;
  /** Of `cutByBudget`: ranked above the last shown handle, passed over by the fit for its length. */
  readonly skippedForSize: number;
  /** Missing handles that are letter-only compounds (`as-is`, `before/after`), whatever the cause. */
  readonly compounds: number;
  readonly shownNotVerbatim: number;
  /** Places (0 = first) in the ranking of the best candidate holding each handle cut by the budget. */
  readonly ranks: readonly number[];
  /** Handles present in the summary + every candidate. */
  readonly cap: number;
  /** Handles present with more room, one count per factor of {@link ROOM_FACTORS} (`presentWithRoom`). */
  readonly room: readonly number[];
}

/** Why one future-needed handle is missing (the causes of {@link HookMisses}, checked in that order). */
export type MissCause = 'not extracted' | 'not a candidate' | 'cut by the budget' | 'shown, not verbatim';

/** The cause of each handle of `missing`, and the ranking place of its best holder when it has one. */
export function missCauses(
  missing: readonly string[],
  context: Pick<HookContext, 'shown' | 'ranked'>,
  stored: readonly Handle[],
): Map<string, { cause: MissCause; rank?: number }> {
  const shown = new Set(context.shown);
  const causes = new Map<string, { cause: MissCause; rank?: number }>();
  for (const token of missing) {
    const rank = context.ranked.findIndex((handle) => handle.text.includes(token));
    if (rank < 0) {
      const stored_ = stored.some((handle) => handle.text.includes(token));
      causes.set(token, { cause: stored_ ? 'not a candidate' : 'not extracted' });
    } else if (context.ranked.some((handle) => shown.has(handle) && handle.text.includes(token))) {
      causes.set(token, { cause: 'shown, not verbatim', rank });
    } else causes.set(token, { cause: 'cut by the budget', rank });
  }
  return causes;
}

/** Classify the future-needed handles missing from `summary` + `context.text` (`stored`: every handle before the boundary). */
export function hookMisses(
  needed: readonly string[],
  summary: string,
  context: Pick<HookContext, 'text' | 'shown' | 'ranked'>,
  stored: readonly Handle[],
): HookMisses {
  const shown = new Set(context.shown);
  const counts = { notExtracted: 0, notCandidate: 0, cutByBudget: 0, skippedForSize: 0, shownNotVerbatim: 0 };
  const lastShown = context.ranked.reduce((last, handle, index) => (shown.has(handle) ? index : last), -1);
  const ranks: number[] = [];
  const present = `${summary}\n${context.text}`;
  const missing = needed.filter((token) => !present.includes(token));
  for (const { cause, rank } of missCauses(missing, context, stored).values()) {
    if (cause === 'not extracted') counts.notExtracted++;
    else if (cause === 'not a candidate') counts.notCandidate++;
    else if (cause === 'shown, not verbatim') counts.shownNotVerbatim++;
    else {
      counts.cutByBudget++;
      if (rank !== undefined && rank < lastShown) counts.skippedForSize++;
      ranks.push(rank ?? -1);
    }
  }
  const everything = `${summary}\n${context.ranked.map((handle) => handle.text).join('\n')}`;
  const compounds = missing.filter(isLetterCompound).length;
  const room = ROOM_FACTORS.map((factor) => presentWithRoom(needed, summary, context, factor));
  return { missing: missing.length, ...counts, compounds, ranks, cap: countPresent(needed, everything), room };
}

/** Factors of the shown handles' characters at which {@link presentWithRoom} is measured. */
export const ROOM_FACTORS = [1, 1.5, 2, 3] as const;

/**
 * What more room would buy with today's candidates and ranking: the future-needed handles present in `summary` plus
 * the ranked candidates taken in rank order while their characters (each text and a separator) fit `factor` times the
 * characters of the shown ones. Group labels and the folding of near-duplicates are not modelled: at factor 1 this is
 * close to, not equal to, the score.
 */
export function presentWithRoom(
  needed: readonly string[],
  summary: string,
  context: Pick<HookContext, 'shown' | 'ranked'>,
  factor: number,
): number {
  const room = factor * context.shown.reduce((sum, handle) => sum + handle.text.length + 1, 0);
  const texts = [summary];
  let used = 0;
  for (const handle of context.ranked) {
    const cost = handle.text.length + 1;
    if (used + cost > room) continue;
    used += cost;
    texts.push(handle.text);
  }
  return countPresent(needed, texts.join('\n'));
}

/** A `sed -n` print range's end (`260p` of `sed -n '1,260p' f`): the yardstick takes it (a digit), no extractor does. */
const SED_RANGE = /^\d+p$/;

/** What kind of token a missing handle is, for the dump: a letter-only compound, a sed print range, or a name. */
export function missClass(token: string): 'letter-only compound' | 'sed print range' | 'name' {
  if (isLetterCompound(token)) return 'letter-only compound';
  return SED_RANGE.test(token) ? 'sed print range' : 'name';
}

/**
 * Where `token` was said in `messages` (those before the compaction): how many messages of each source hold it
 * (`user`, `harness` for user turns the person did not type, `system`, `assistant text`, `tool call` for the agent's
 * call arguments, `tool output`), written as `tool output 3, tool call 1`.
 */
export function whereSaid(token: string, messages: readonly TranscriptMessage[]): string {
  const counts = new Map<string, number>();
  const add = (where: string) => counts.set(where, (counts.get(where) ?? 0) + 1);
  for (const message of messages) {
    if (message.role === 'tool') {
      if (message.content.includes(token)) add('tool output');
    } else if (message.role === 'assistant') {
      if (message.content.includes(token)) add('assistant text');
      const inCall = (call: { name: string; arguments: string }) =>
        call.arguments.includes(token) || argumentStrings(call.arguments).some((value) => value.includes(token));
      if ((message.toolCalls ?? []).some(inCall)) add('tool call');
    } else if (message.content.includes(token)) add(message.source ?? message.role);
  }
  return [...counts].map(([where, count]) => `${where} ${count}`).join(', ') || 'nowhere verbatim';
}

/**
 * The handles of `missing` the agent had in view again after the compaction before it first wrote them: a message of
 * `after` (the messages from the compaction up to the next one) that is not the agent's own (a tool result, the user's
 * or the harness's words) holds the handle before the first assistant message that writes it (the yardstick's use:
 * one of its tokens in the agent's text or call arguments). The agent read them again (a file, a command's output)
 * instead of from the injected context. A diagnostic beside the score: the score counts them as missing.
 */
export function readAgainBeforeUse(missing: readonly string[], after: readonly TranscriptMessage[]): string[] {
  const pending = new Set(missing);
  const found: string[] = [];
  for (const message of after) {
    if (pending.size === 0) break;
    if (message.role === 'assistant') {
      const used = new Set(agentWritten(message).flatMap(identifierTokens));
      for (const token of pending) if (used.has(token)) pending.delete(token);
      continue;
    }
    for (const token of pending)
      if (message.content.includes(token)) {
        found.push(token);
        pending.delete(token);
      }
  }
  return found;
}
