/**
 * The words that make a sentence worth judging as a rule (`constraints.ts`): the negations and restrictions that
 * anchor a prohibition ({@link NEGATIONS}), and the words that can anchor a rule without a negation
 * ({@link ANCHORS}, see `rule-directives.ts`). The patterns run only from a word that may open a trigger
 * (`trigger-words.ts`), and only the alternatives that open with that word's letter: a hook process (a new process
 * after every answer) compiles the patterns it runs, and the whole alternation, case-insensitive, costs several
 * milliseconds to compile, more than a short text's whole extraction.
 */
import { LANGUAGES } from './rule-phrasings.js';
import { triggerWordAt } from './trigger-words.js';

/**
 * Negations and restrictions, in the order they are tried; each opens with a letter. A compound such as
 * `append-only` is one more (`-only`, {@link COMPOUND_ONLY}).
 */
export const NEGATIONS: readonly string[] = [
  // negations and modal prohibitions
  'do not',
  "don['’]t",
  'never',
  "must(?:n['’]t| not| never)",
  "should(?:n['’]t| not| never)",
  'shall not',
  'cannot',
  "can['’]t",
  'can not',
  'may not',
  // restrictions and bans
  'read-?only',
  'only',
  'avoid',
  'forbidden',
  'prohibited',
  'disallowed',
  'not (?:allowed|permitted)',
  'under no circumstances',
  'at no (?:time|point)',
  'in no case',
  'no longer',
];
/**
 * Words that can anchor a rule without a negation (see `rule-directives.ts`): rule verbs, ask and approval
 * verbs, modals, universal and budget words, bans opening with "No". Tried after {@link NEGATIONS}; each opens with a
 * letter.
 */
export const ANCHORS: readonly string[] = [
  'always',
  'sure',
  'ensure',
  'remember',
  'must',
  'needs?',
  'requires?',
  'required',
  'mandatory',
  'off[- ]limits',
  'keep',
  'stay',
  'stick',
  'refrain',
  'limit',
  'restrict',
  'confine',
  'cap',
  'prefer',
  'leave',
  'continue',
  'go on',
  'carry on',
  'ask',
  'check with',
  'confirm',
  'talk to',
  'ping',
  'consult',
  'run (?:it|this|that|them|the)',
  'get \\w+ to',
  'have \\w+ (?:sign|review|approve|check)',
  'have to',
  'should at least',
  'wait for',
  'stop and',
  'stop [a-z]+ing',
  'nobody',
  'want (?:you|every|each|all)',
  'important (?:that|to|for)',
  'essential',
  'crucial',
  'vital',
  'everywhere',
  'throughout',
  'to be [a-z]+(?:ed|en|wn)',
  'pause and',
  'let \\w+ know',
  'seek',
  'approvals?',
  'sign-?off',
  'go-ahead',
  'reviewers?',
  'permission',
  'may',
  'you can',
  'allowed',
  'permitted',
  'feel free',
  'is fine',
  'are fine',
  'every',
  'whenever',
  'each',
  'all new',
  'all future',
  'for all',
  'from now on',
  'going forward',
  'at most',
  'more than',
  'up to',
  'rather than',
  'instead of',
  'not',
  'no',
  'nothing',
  'hands off',
  'told',
  'said',
  'asked',
  'feedback',
  'match',
  'follow',
  'mirror',
  'adhere',
  'conform',
  // less common phrasings (`rule-phrasings.ts`)
  'defer',
  'postpone',
  'shelve',
  'hold',
  'steer',
  'out of scope',
  'off the table',
  'non-negotiable',
  'ok(?:ay)? (?:to|for)',
  'fine (?:to|for)',
  'acceptable (?:to|for)',
  'free to',
  'careful',
  'take care',
  'before',
  'everything (?:inside|within|through|via|in|only)',
  'without (?:touching|changing|modifying|breaking|editing|deleting|rewriting|renaming)',
  'henceforth',
  'from here on',
  'for the rest of',
  'until further notice',
  'rather (?:you|we|not)',
  'try (?:hard )?not',
  'important\\*{0,2}:',
  'critical\\*{0,2}:',
  'discouraged',
  ...LANGUAGES.split(' '),
];

/** `-only` closing a compound (`append-only`): a negation, tried at the dash before the word `only`. */
const COMPOUND_ONLY = /(-only)\b/iy;

/** The alternatives of `words` that open with `letter` (lower case), as one alternation. */
function opening(words: readonly string[], letter: string): string {
  return words.filter((word) => word.charAt(0).toLowerCase() === letter).join('|');
}

/**
 * The trigger pattern for the words opening with `letter` (lower case), sticky: the negations in group 1, then the
 * anchors. At a word opening with that letter it matches what the whole alternation of every trigger would: the
 * alternatives left out cannot match there, and those kept are tried in the same order.
 */
function letterPattern(letter: string): RegExp {
  const negations = opening(NEGATIONS, letter);
  const anchors = opening(ANCHORS, letter);
  const parts: string[] = [];
  if (negations !== '') parts.push(`(\\b(?:${negations})\\b)`);
  if (anchors !== '') parts.push(`\\b(?:${anchors})\\b`);
  return new RegExp(parts.length === 0 ? '(?!)' : parts.join('|'), 'iy');
}

/** {@link letterPattern} by letter (`a` at 0), each built and compiled when a text first needs it. */
const LETTER_PATTERNS: (RegExp | undefined)[] = new Array<RegExp | undefined>(26).fill(undefined);

/**
 * Where {@link nextTrigger} goes on from, as a global pattern's `lastIndex`: the end of the trigger it returned last,
 * 0 once it found none. Set it to 0 before a new text, or further on to skip a part of the text.
 */
export const triggerScan = { lastIndex: 0 };

/** The trigger at `word` (a word `trigger-words.ts` found) or at the dash right before it, from `from` on. */
function triggerAt(text: string, word: number, from: number): RegExpExecArray | null {
  if (word - 1 >= from && text.charCodeAt(word - 1) === 45) {
    COMPOUND_ONLY.lastIndex = word - 1;
    const compound = COMPOUND_ONLY.exec(text);
    if (compound !== null) return compound;
  }
  const letter = (text.charCodeAt(word) | 32) - 97;
  const pattern = (LETTER_PATTERNS[letter] ??= letterPattern(String.fromCharCode(97 + letter)));
  pattern.lastIndex = word;
  return pattern.exec(text);
}

/**
 * The next trigger of `text` from `triggerScan.lastIndex` (see the module comment), group 1 holding a negation or
 * restriction: the match a global pattern of every trigger would return from there. Tried only where a word that may
 * start one is (see `trigger-words.ts`; `-only` starts one character before its word).
 */
export function nextTrigger(text: string): RegExpExecArray | null {
  const from = triggerScan.lastIndex;
  for (let word = triggerWordAt(text, from); word !== -1; word = triggerWordAt(text, word + 1)) {
    const match = triggerAt(text, word, from);
    if (match === null) continue;
    triggerScan.lastIndex = match.index + match[0].length;
    return match;
  }
  triggerScan.lastIndex = 0;
  return null;
}
