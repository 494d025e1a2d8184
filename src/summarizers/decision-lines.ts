/**
 * The Decisions and current state lines of the extractive summary (issue 36, part 5), ranked so that a sentence that
 * decides something is never left out while status or narration is kept: first what settles a choice, then the state
 * the work reached, then the agent's reasoning aloud.
 */
import { NAMES_SOMETHING, afterReaction, isAnalysis, isFiller } from './narration.js';
import { decides, opensWithAction, ordersChoice } from './sentence-weight.js';
import type { QuietCap } from './line-choice.js';
import type { Candidate } from './task-lines.js';
import { words } from './word-overlap.js';

/** Forward-looking wording: a plan still ahead is a next step, not a decision (unless it carries a choice). */
export const NEXT_STEP = new RegExp(
  String.raw`^now\b|\bnext(?! to\b)|\b(then|I'll|I will|we'll|let me|let's|need to|needs to|going to|todo|remaining|still to|` +
    String.raw`plan to|will now)\b`,
  'i',
);
/**
 * The agent's order to itself ("Close ticket 5, commit, and continue.", "Add types to `store.ts`"): a step still
 * ahead told as an imperative, as much a next step as "I'll …". Not a label ("Fix: …"), and nothing that tells a state
 * reached after its first word ("Test updated to …", "Build passes.", "Lint clean now."): a noun may look like a verb.
 */
function ordersItself(text: string): boolean {
  const rest = text.replace(/^\W*\w+/, '');
  return opensWithAction(text) && !rest.startsWith(':') && !STATE_WORD.test(rest);
}
/** Words that tell a state reached: a verb's past or present tense, or how the work stands. */
const STATE_WORD = new RegExp(
  String.raw`\b(?:is|are|was|were|has|have|had|now|still|already|\w+ed|passes|fails|works|runs|builds|compiles|exists|` +
    String.raw`succeeds|done|complete|green|clean|ready|in place)\b`,
  'i',
);

/** Whether an assistant sentence tells a step still ahead: a plan ({@link NEXT_STEP}) or an order to itself. */
function isNextStep(text: string): boolean {
  return NEXT_STEP.test(text) || ordersItself(text);
}

/** Wording of a result: what was found, changed, fixed, passes or fails. */
const RESULT = new RegExp(
  String.raw`\b(root cause|the (issue|problem|bug|fix)|found|implement|added|created|updated|changed|replaced|fixed|` +
    String.raw`works|pass|fail|done|complete)\w*`,
  'i',
);
/** An option the agent offers ("B) Mark the feature complete"): a choice left to the user, not a decision. */
const OPTION = /^\(?[A-Ha-h1-9]\)\s/;
/** Narration of the next tool call ("Let me check …", "Perfect!"): weighed low. */
const NARRATION = /^(now|let me|let's|good|great|perfect|excellent|okay|ok)\b/i;
/** Wording of a choice or a rejection: a plan sentence that carries it is still a decision. */
const CHOICE =
  /\b(decid\w*|chose|choose|chosen|instead|rather than|because|so that|root cause|rejected|won't|will not|not going to|switch(ed)? to)\b/i;

/** Lines of reasoning aloud the Decisions may hold at most, however much room is left: they decide nothing. */
const MAX_ANALYSIS_LINES = 2;

/**
 * Lines of state the Decisions may hold at most that carry nothing new: they name nothing (no code, path, number or
 * quoted value) or only what the summary's lines chosen before them name already ("Good, the build is green again.",
 * "`parse` is still used in `cli.ts`." after a line naming both). A decision is never one of them. They wait until
 * every other line had its turn (`line-choice.ts`): a line naming something new is never left out for one of them.
 * A reaction to the output just read ("Expected — the `Parser` class is not written yet.") is one of them too, whatever
 * it names: it tells a moment already past.
 */
const MAX_QUIET_LINES = 3;
/** What a line names: a code-ish token (see `NAMES_SOMETHING`), a number of three characters or more, a quoted value. */
const NAMED = new RegExp(String.raw`${NAMES_SOMETHING.source}|\b\d[\w.:-]{2,}|"[^"\n]{2,}"`, 'g');

/** Whether a line names nothing `shown` does not name already. */
function namesNothingNew(text: string, shown: string): boolean {
  for (const match of text.matchAll(NAMED)) if (!shown.includes(match[0].replace(/^`|`$/g, ''))) return false;
  return true;
}

/** How a Decisions candidate ranks: a decision, then a state reached, then reasoning aloud. */
const TIER = { decision: 2, state: 1, analysis: 0 } as const;

function tierOf(candidate: Candidate, fromUser: ReadonlySet<Candidate>): number {
  if (fromUser.has(candidate) || decides(candidate.text) || ordersChoice(candidate.text)) return TIER.decision;
  // reasoning that names something (a path, a symbol, a number, a quoted value) carries it into the window: a state
  const names = NAMES_SOMETHING.test(candidate.text) || /[\d"]/.test(candidate.text);
  // a reaction to the output just read ("Expected — the `Parser` class is not written yet.") tells a passing moment
  if (afterReaction(candidate.text) !== undefined) return TIER.analysis;
  return isAnalysis(candidate.text) && !names ? TIER.analysis : TIER.state;
}

/**
 * Decision candidates ranked best first: every sentence that settles a choice in so many words ("We'll use …", "Let's
 * go with …", "instead of …", "I kept …") and the user's orders that settle one ("Keep the v1 API."); then the
 * assistant's sentences that tell the state reached ("All 40 tests pass.", "`parse` now rejects empty names."); then
 * its reasoning aloud that names nothing ("It looks like …", "I think …", "… because …"), {@link MAX_ANALYSIS_LINES}
 * at most. Within each tier by word weight, recency, choice wording ("instead", "because") above result wording
 * ("fixed", "pass"), and whether they name something. Filler, small talk, questions and the options offered to the
 * user ("B) Close out the PR") are left out, and so is a plan ("I'll add …") without a choice in it: a plan still
 * ahead is a next step, one already carried out is told by the files changed and the state that followed. With the
 * lines, the cap on the state lines that carry nothing new ({@link MAX_QUIET_LINES}).
 */
export function rankedDecisions(
  all: readonly Candidate[],
  userDecisions: readonly Candidate[],
): { lines: Candidate[]; quietCap: QuietCap } {
  const assistant = all.filter(
    (candidate) =>
      !isFiller(candidate.text) &&
      !/\?\s*$/.test(candidate.text) &&
      !OPTION.test(candidate.text) &&
      (!isNextStep(candidate.text) ||
        CHOICE.test(candidate.text) ||
        decides(candidate.text) ||
        ordersChoice(candidate.text)),
  );
  const candidates = [...assistant, ...userDecisions];
  const frequency = new Map<string, number>();
  for (const candidate of candidates)
    for (const word of new Set(words(candidate.text))) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const last = Math.max(1, ...candidates.map((candidate) => candidate.order));
  const fromUser = new Set(userDecisions);
  const scored = candidates.map((candidate) => {
    const candidateWords = words(candidate.text);
    const weight =
      candidateWords.reduce((sum, word) => sum + Math.log(1 + (frequency.get(word) ?? 0)), 0) /
      Math.sqrt(1 + candidateWords.length);
    const recency = 1 + candidate.order / last;
    const narration = NARRATION.test(candidate.text) ? 0.5 : 1;
    const wording = CHOICE.test(candidate.text) ? 2 : RESULT.test(candidate.text) ? 1.4 : 1;
    const names = NAMES_SOMETHING.test(candidate.text) ? 1.3 : 1;
    return { candidate, tier: tierOf(candidate, fromUser), score: weight * recency * narration * wording * names };
  });
  const ranked = scored.sort((a, b) => b.tier - a.tier || b.score - a.score || a.candidate.order - b.candidate.order);
  const analysis = ranked.filter((entry) => entry.tier === TIER.analysis).slice(MAX_ANALYSIS_LINES);
  const deciding = new Set(ranked.filter((entry) => entry.tier === TIER.decision).map((entry) => entry.candidate));
  return {
    lines: ranked.filter((entry) => !analysis.includes(entry)).map((entry) => entry.candidate),
    quietCap: {
      quiet: (candidate, shown) =>
        !deciding.has(candidate) &&
        (afterReaction(candidate.text) !== undefined || namesNothingNew(candidate.text, shown)),
      max: MAX_QUIET_LINES,
    },
  };
}
