/**
 * The words that make a sentence worth judging as a rule (`constraints.ts`): the negations and restrictions that
 * anchor a prohibition (`TRIGGER`), and the words that can anchor a rule without a negation (`DIRECTIVE_TRIGGER`, see
 * `rule-directives.ts`). The pattern runs only from a word that may open a trigger (`trigger-words.ts`).
 */
import { LANGUAGES } from './rule-phrasings.js';
import { triggerWordAt } from './trigger-words.js';

const TRIGGER = new RegExp(
  '\\b(?:' +
    [
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
    ].join('|') +
    ')\\b' +
    // a compound such as `append-only`
    '|-only\\b',
  'i',
);
/**
 * Words that can anchor a rule without a negation (see `rule-directives.ts`): rule verbs, ask and approval
 * verbs, modals, universal and budget words, bans opening with "No".
 */
const DIRECTIVE_TRIGGER = new RegExp(
  '\\b(?:' +
    [
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
      '(?:is|are) fine',
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
    ].join('|') +
    ')\\b',
  'i',
);
/** Every trigger, global; group 1 holds a negation or restriction (`TRIGGER`). */
export const ANY_TRIGGER = new RegExp(`(${TRIGGER.source})|${DIRECTIVE_TRIGGER.source}`, 'gi');

/**
 * `ANY_TRIGGER.exec(text)` from its `lastIndex`, run only when a word that may start a trigger is left (see `trigger-words.ts`).
 */
export function nextTrigger(text: string): RegExpExecArray | null {
  const from = ANY_TRIGGER.lastIndex;
  const word = triggerWordAt(text, from);
  if (word === -1) {
    ANY_TRIGGER.lastIndex = 0;
    return null;
  }
  // `-only` starts one character before its word
  ANY_TRIGGER.lastIndex = Math.max(from, word - 1);
  return ANY_TRIGGER.exec(text);
}
