/**
 * Bans and caps that open a clause without a verb (`rule-directives.ts`): "No network calls from the tests", "No more
 * than 3 retries", "Hands off the billing schema", "Nothing ships without a review", "Nobody merges without a green
 * build", a loud "**NO** debug mode" — and the status lines of programs
 * that open the same way and ban nothing ("No changes added to commit", "No local changes to save").
 */
import { IMPERATIVE_VERBS, NO_INTERJECTIONS } from './lexicon.js';

const FINITE =
  /\b(?:is|are|was|were|has|have|had|did|does|do|will|can|could|would|happened|seems?|needed|found|exists?|left|yet)\b/i;
const BAN_SCOPE =
  /\s(?:in|from|to|on|onto|into|outside|inside|during|for|with|before|after|until|at|anywhere|ever|unless)\b/i;

/** A status line of a program, not a ban: "No changes added to commit", "No files to save", "No handler specified". */
const STATUS_NO =
  /^no\s+(?:[\w-]+\s+){1,2}(?:\w+ed|found|given|set|done|made|run|seen|shown|happens|occurs|exists|applies|remains|works)\b/i;
const NOTHING_TO = /^no\s+(?:[\w-]+\s+){1,2}to\s+(\w+)/i;
/** The whole clause is "No <thing> to <verb>.": there is nothing to do ("No migrations to apply."), in any voice. */
const NOTHING_LEFT_TO = /^no\s+(?:[\w-]+\s+){1,2}to\s+(\w+)[.!]?$/i;
/**
 * A "No …" line naming a thing by its state ("No pending REVIEW.md for the current session", "No installed app with
 * label …", "No matching files") or by its path in code ("No `.git/objects/pack/` directory …"): a report of what is
 * not there, not a ban on an action.
 */
const ABSENT_THING = new RegExp(
  String.raw`^no\s+(?:(?:pending|installed|existing|matching|available|active|running|such|valid|registered|` +
    String.raw`configured|tracked)\s|\`[^\`]+\`\s+(?:director(?:y|ies)|folders?|files?)\b)`,
  'i',
);

/**
 * A finding of a search, not a ban: "No <thing> in <the searched whole>." as the whole clause ("No retry loops in the
 * codebase.", "No debug imports in this file.", "No named captures anywhere in the regex"): what a look through code,
 * a file or a log did not find, in any voice. A ban names where an action is barred ("No pushes to main", "No UI
 * changes in this task") or goes on past the place ("No secrets in the repo, ever").
 */
const FINDING_IN = new RegExp(
  String.raw`^no\s+(?:[\w.\`'"-]+\s+){1,4}(?:anywhere\s+)?in\s+(?:(?:the|this|that|these|those|its|our|your|any)\s+)?` +
    String.raw`(?:[\w-]+\s+)?(?:code\s?base|repo|repository|source(?:\s+tree)?|sources|tree|work-?tree|files?|` +
    String.raw`modules?|packages?|director(?:y|ies)|folders?|pattern|regex|logs?|output|diff|history)[.!]?[*_]*$`,
  'i',
);

/**
 * Words of how work is done that make a terse "No …" a ban with neither verb nor scope ("no silent truncation", "No
 * hardcoded secrets", "no drive-by refactors"): a spec's or a reviewer's rule, where "No errors" reports.
 */
const MANNER: ReadonlySet<string> = new Set(
  (
    'silent silently implicit hidden hardcoded hard-coded magic manual raw inline unsafe arbitrary speculative ' +
    'unrelated unnecessary unused dead duplicate duplicated redundant global blocking destructive forced premature ' +
    'placeholder commented-out drive-by ad-hoc mocked fake'
  ).split(' '),
);

/** Whether `clause` opens `sentence` (markers aside) or follows a `;` in it. */
function opensSentence(clause: string, sentence: string): boolean {
  const at = sentence.indexOf(clause);
  return at !== -1 && /(?:^[\s"'“‘*_-]*|;\s*)$/.test(sentence.slice(0, at));
}

/** Whether a "No …" clause is a finding ("No retry loops in the codebase.") that its sentence does not go on past. */
function isFinding(clause: string, sentence: string): boolean {
  if (!FINDING_IN.test(clause)) return false;
  const at = sentence.indexOf(clause);
  return at !== -1 && /^[\s.!*_"'”’)]*$/.test(sentence.slice(at + clause.length));
}

/** The words `at most` / `no more than` / `not more than` open with. */
const BAN_CAPS: ReadonlySet<string> = new Set(['at', 'no', 'not']);

/** Whether a "No …" clause reads as a program's status ("No changes added to commit", "No such app") or a finding. */
function isStatusLine(clause: string): boolean {
  if (STATUS_NO.test(clause) || ABSENT_THING.test(clause)) return true;
  const verb = NOTHING_TO.exec(clause)?.[1]?.toLowerCase();
  return verb !== undefined && IMPERATIVE_VERBS.has(verb);
}

/**
 * Whether a clause opening "No …" / "At most …" / "Nothing …" bans or caps something (`words`: its first words, lower
 * case). A `quoted` clause (tool output) that reads as a program's status is not one.
 */
export function isBan(clause: string, words: readonly string[], sentence: string, quoted: boolean): boolean {
  const [first = '', second = ''] = words;
  if (quoted && isStatusLine(clause)) return false;
  if (first === 'hands' && second === 'off') return true;
  if (BAN_CAPS.has(first) && /^(?:at most|no more than|not more than)\b/i.test(clause)) return true;
  // "Nothing ships without a review", "Nobody merges without a green build"
  if (first === 'nothing' || first === 'nobody' || (first === 'no' && second === 'one'))
    return /\bwithout\b/i.test(clause) && !/\b(?:was|were|did|had)\b/i.test(clause);
  if (first !== 'no' || NO_INTERJECTIONS.has(second)) return false;
  if (isFinding(clause.trim(), sentence)) return false;
  // a program's output pasted into a request reports that nothing is left to do ("Running migrations: No migrations to
  // apply."), as a user's "No changes to commit." does; "No pushes to main" names a place, not a verb, and stays a ban
  const leftTo = NOTHING_LEFT_TO.exec(clause.trim())?.[1]?.toLowerCase();
  if (leftTo !== undefined && IMPERATIVE_VERBS.has(leftTo)) return false;
  // a "NO" written loud and bold before a thing in lower case is a ban whatever follows ("**NO** debug mode")
  if (/^NO[*_]{1,2}\s+[a-z]/.test(clause) && !FINITE.test(clause)) return opensSentence(clause, sentence);
  // after a comma a terse ban goes on with what came before ("Uses the shared component, no duplicate code" describes)
  if (MANNER.has(second) && !FINITE.test(clause)) return opensSentence(clause, sentence);
  return (
    !FINITE.test(clause) &&
    (BAN_SCOPE.test(clause) || /\b(?:just|only)\b[^,;]*,\s*no\b|,\s*(?:just|only)\b/i.test(sentence))
  );
}
