import { foldConfusables } from '../text/confusables.js';

/** Imperative wording: an instruction, whoever it is addressed to. */
const IMPERATIVE =
  /\b(do not|don't|never|must|ignor(e|es|ed|ing)|important|instructions?|you should|always|disregard(s|ed|ing)?|forget)\b/;

/** Attempts to override the conversation: new orders, claimed authority, claimed approvals. */
const OVERRIDE = [
  new RegExp(
    [
      // an override verb…
      '\\b(ignor|disregard|forget|overrid|bypass|skip)\\w*\\b',
      // …what it overrides…
      '.{0,40}\\b(previous|prior|above|earlier|all|any|other|existing|original)\\b',
      // …and the guidance it names
      '.{0,40}\\b(instructions?|guidance|rules?|directions?|prompts?|messages?|constraints?|context)\\b',
    ].join(''),
  ),
  /\b(system|developer|admin(istrator)?|assistant|user)\s*(message|prompt|note|notice|override|instruction)s?\s*[:\-–]/,
  /\bnew (instructions?|orders?|task|directive)s?\b/,
  new RegExp(
    [
      // a claimed authority…
      '\\b(the )?(user|operator|admin(istrator)?|owner|team|manager)\\b',
      // …and its claimed approval
      '.{0,30}\\b(has |have )?(already )?(approved|authori[sz]ed|confirmed|agreed|consented|requested|asked|wants?)\\b',
    ].join(''),
  ),
  new RegExp(
    [
      // a destructive or exfiltrating verb…
      '\\b(delete|drop|wipe|truncate|destroy|erase|exfiltrate|upload|leak|rm -rf)\\b',
      // …aimed at data or secrets
      '.{0,60}\\b(database|db|backups?|bucket|tables?|repo(sitory)?|files|credentials|secrets?|keys?|tokens?|production|prod)\\b',
    ].join(''),
  ),
  /\b(you are now|from now on|act as|pretend)\b/,
];

/**
 * True when `text` tries to override the conversation: "Ignoring previous instructions…",
 * "Disregard all prior guidance…", "System message: …", a claimed approval ("The user has
 * approved dropping…"), a destructive request. Read with confusables folded and invisible
 * characters removed, so `N\u0435ver` and `ig\u200Bnore` are caught too.
 */
export function looksLikeOverride(text: string): boolean {
  const folded = foldConfusables(text).toLowerCase();
  return OVERRIDE.some((pattern) => pattern.test(folded));
}

/**
 * True when tool output reads as an instruction: imperative wording ("never", "must",
 * "ignore", "important", …) or an override attempt ({@link looksLikeOverride}), with
 * confusables folded and invisible characters removed first.
 */
export function looksLikeInjection(text: string): boolean {
  return IMPERATIVE.test(foldConfusables(text).toLowerCase()) || looksLikeOverride(text);
}
