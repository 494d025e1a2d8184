/**
 * The words a constraint trigger (`constraints.ts`: a negation, a restriction or a rule's anchor word) can open with,
 * and what must follow a word that opens only longer triggers: a text holds a trigger at an offset only where one of
 * these starts. Finding them costs a scan of the text's letters; running the trigger pattern (a long alternation)
 * costs compiling it first, more than a short text's whole extraction, so the pattern runs only from such a word.
 */

import { LANGUAGES } from './rule-phrasings.js';

/** A trigger word that opens a trigger by itself. */
const ALONE: readonly string[] = [];
const SPACE = [' '];
const APOSTROPHE = ["'", '’'];

/**
 * The first ASCII word (letters only, lower case) of every alternative of the trigger patterns in every form it takes
 * ("don't" opens with `don`, "read-only" with `read` or `readonly`, "-only" with `only`), with what must follow it
 * (lower case; any of them) when it opens no trigger by itself.
 */
const TRIGGER_WORDS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  // negations and restrictions
  ['do', [' not']],
  ['don', APOSTROPHE],
  ['never', ALONE],
  ['must', ALONE],
  ['mustn', APOSTROPHE],
  ['should', [' not', ' never', ' at least']],
  ['shouldn', APOSTROPHE],
  ['shall', [' not']],
  ['cannot', ALONE],
  ['can', [...APOSTROPHE, ' not']],
  ['may', ALONE],
  ['read', ['-']],
  ['readonly', ALONE],
  ['only', ALONE],
  ['avoid', ALONE],
  ['forbidden', ALONE],
  ['prohibited', ALONE],
  ['disallowed', ALONE],
  ['not', ALONE],
  ['under', [' no circumstances']],
  ['no', ALONE],
  // rule anchors: rule verbs, ask and approval words, modals, universal and budget words
  ...[
    'always sure ensure remember need needs require requires required mandatory keep stay stick refrain limit restrict',
    'confine cap prefer leave continue ask confirm ping consult seek approval approvals signoff reviewer reviewers',
    'permission allowed permitted every whenever each nothing told said asked feedback match follow mirror adhere conform',
    // less common phrasings (`rule-phrasings.ts`)
    'defer postpone shelve hold steer careful before henceforth discouraged',
    LANGUAGES,
  ]
    .join(' ')
    .split(' ')
    .map((word): [string, readonly string[]] => [word, ALONE]),
  ['off', ['-', ' ']],
  ['go', [' on', '-ahead']],
  ['carry', [' on']],
  ['check', [' with']],
  ['talk', [' to']],
  ['run', [' it', ' th']],
  ['get', SPACE],
  ['have', SPACE],
  ['let', SPACE],
  ['wait', [' for']],
  ['stop', [' and']],
  ['pause', [' and']],
  ['sign', ['-']],
  ['you', [' can']],
  ['feel', [' free']],
  ['is', [' fine']],
  ['are', [' fine']],
  ['all', [' new', ' future']],
  ['for', [' all', ' the rest of']],
  ['from', [' now on', ' here on']],
  ['going', [' forward']],
  ['at', [' most', ' no time', ' no point']],
  ['more', [' than']],
  ['up', [' to']],
  ['in', [' no case']],
  ['rather', [' than', ' you', ' we', ' not']],
  ['instead', [' of']],
  ['hands', [' off']],
  ['out', [' of scope']],
  ['non', ['-negotiable']],
  ['take', [' care']],
  ['try', [' not', ' hard not']],
  ['ok', [' to', ' for']],
  ['okay', [' to', ' for']],
  ['fine', [' to', ' for']],
  ['acceptable', [' to', ' for']],
  ['free', [' to']],
  ['everything', [' inside', ' within', ' through', ' via', ' in', ' only']],
  [
    'without',
    [' touching', ' changing', ' modifying', ' breaking', ' editing', ' deleting', ' rewriting', ' renaming'],
  ],
  ['important', [':', '*:', '**:']],
  ['critical', [':', '*:', '**:']],
  ['until', [' further notice']],
]);

/** Letters of the longest word of {@link TRIGGER_WORDS}: a longer run of letters is none of them. */
const LONGEST = Math.max(...[...TRIGGER_WORDS.keys()].map((word) => word.length));

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether the run of letters `[start, end)` of `text` may open a trigger. */
function opensTrigger(text: string, start: number, end: number): boolean {
  if (end - start > LONGEST) return false;
  const next = TRIGGER_WORDS.get(text.slice(start, end).toLowerCase());
  if (next === undefined) return false;
  if (next.length === 0) return true;
  const after = text.slice(end, end + 17).toLowerCase();
  return next.some((words) => after.startsWith(words));
}

/**
 * The offset of the first run of ASCII letters at or after `from` (a whole run: not preceded by a letter) that may
 * open a trigger ({@link TRIGGER_WORDS}, in any case), or -1. No trigger starts before it: a trigger opens a word
 * (after `\b`) or is `-only`, one character before the run `only`.
 */
export function triggerWordAt(text: string, from: number): number {
  let index = from;
  while (index < text.length && index > 0 && isLetter(text.charCodeAt(index)) && isLetter(text.charCodeAt(index - 1)))
    index++;
  while (index < text.length) {
    if (!isLetter(text.charCodeAt(index))) {
      index++;
      continue;
    }
    let end = index + 1;
    while (end < text.length && isLetter(text.charCodeAt(end))) end++;
    if (opensTrigger(text, index, end)) return index;
    index = end;
  }
  return -1;
}
