/**
 * The words the constraint pattern runs from (`trigger-words.ts`): every trigger the pattern knows is found where it
 * starts, so no rule is lost for a word the list forgot; a text without one is never handed to the pattern.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { triggerWordAt } from '../../src/handles/trigger-words.js';

/** One text per trigger of `constraints.ts` (negations, restrictions, rule anchors), the trigger after `x `. */
const TRIGGERS = [
  'do not',
  "don't",
  'don’t',
  'never',
  "mustn't",
  'must not',
  'must',
  "shouldn't",
  'should not',
  'should never',
  'should at least',
  'shall not',
  'cannot',
  "can't",
  'can not',
  'may not',
  'read-only',
  'readonly',
  'only',
  'avoid',
  'forbidden',
  'prohibited',
  'disallowed',
  'not allowed',
  'not permitted',
  'under no circumstances',
  'no longer',
  'always',
  'sure',
  'ensure',
  'remember',
  'need',
  'needs',
  'require',
  'requires',
  'required',
  'mandatory',
  'off-limits',
  'off limits',
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
  'run it',
  'run this',
  'run that',
  'run them',
  'run the',
  'get Bo to',
  'have Bo sign',
  'have to',
  'wait for',
  'stop and',
  'pause and',
  'let Bo know',
  'seek',
  'approval',
  'approvals',
  'sign-off',
  'signoff',
  'go-ahead',
  'reviewer',
  'reviewers',
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
  'at no time',
  'at no point',
  'in no case',
  'defer',
  'postpone',
  'shelve',
  'hold',
  'steer',
  'out of scope',
  'off the table',
  'non-negotiable',
  'ok to',
  'okay for',
  'fine to',
  'acceptable to',
  'free to',
  'careful',
  'take care',
  'before',
  'everything inside',
  'without touching',
  'henceforth',
  'from here on',
  'for the rest of',
  'until further notice',
  'rather you',
  'rather not',
  'try not',
  'important:',
  'critical**:',
  'discouraged',
  'english',
];

describe('trigger words', () => {
  it('finds every trigger where it starts, in any case', () => {
    for (const trigger of TRIGGERS) {
      expect(triggerWordAt(`x ${trigger} y`, 0), trigger).toBe(2);
      expect(triggerWordAt(`x ${trigger.toUpperCase()} y`, 0), trigger).toBe(2);
    }
  });

  it('reads what must follow a word in any case, up to the end of the text, lower-casing what is not ASCII', () => {
    expect(triggerWordAt('x Run THe tests', 0)).toBe(2);
    expect(triggerWordAt('x run tx', 0)).toBe(-1);
    expect(triggerWordAt('x wait fo', 0)).toBe(-1);
    expect(triggerWordAt('x do', 0)).toBe(-1);
    expect(triggerWordAt('x can’t', 0)).toBe(2);
    // the Kelvin sign lower-cases to `k`
    expect(triggerWordAt('x without brea\u212Aing it', 0)).toBe(2);
    expect(triggerWordAt('x without bre\u00E4king it', 0)).toBe(-1);
  });

  it('finds `-only` at its word, one character after the dash', () => {
    expect(triggerWordAt('an append-only log', 0)).toBe(10);
  });

  it('finds nothing in a text without a trigger, nor inside a word, nor before `from`', () => {
    expect(triggerWordAt('Migration 0020_add_index passes.', 0)).toBe(-1);
    expect(triggerWordAt('check the form; run tests', 0)).toBe(-1);
    expect(triggerWordAt('knot', 0)).toBe(-1);
    expect(triggerWordAt('never say never', 1)).toBe(10);
  });

  it('leaves the rules found as before', () => {
    const rules = (text: string) => extractHandles(text, { kinds: ['constraint'] }).map((handle) => handle.text);
    expect(rules('Run the migration check for PAY-4820 again.')).toEqual([]);
    expect(rules('Keep the table append-only. Check with Ana before merging.')).toEqual([
      'Keep the table append-only.',
      'Check with Ana before merging.',
    ]);
  });
});
