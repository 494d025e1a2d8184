/**
 * Rules the speaker lays on both ("let's not …", "let's … only"): a ban or a restriction said with "let's" binds the
 * listener like one said with "we"; a plan ("let's add …") and talk ("let's not worry") stay no rule.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

function constraints(text: string, toolOutput = false): string[] {
  return extractHandles(text, { kinds: ['constraint'], toolOutput }).map((handle) => handle.text);
}

describe('rules said with "let\'s"', () => {
  it.each([
    "let's not touch the billing schema",
    'Let us not merge before the review.',
    "ok so let's not rewrite the parser just yet",
  ])('pins the ban %j', (text) => {
    expect(constraints(text)).toEqual([text]);
  });

  it.each(["yeah let's do length only", "let's test on linux only", 'ok so we run the unit tests only'])(
    'pins the restriction %j',
    (text) => {
      expect(constraints(text)).toEqual([text]);
    },
  );

  it.each([
    // a plan and talk
    "let's add a retry to the client",
    "let's not worry about it",
    "Let's check only the first file",
    // a lead-in does not make a noun the verb of an order
    '- But `test.json` state (only ~3min old) blocked the check',
  ])('pins nothing in %j', (text) => {
    expect(constraints(text)).toEqual([]);
  });

  it('keeps a quoted document\'s "let\'s not" out of the rules', () => {
    expect(constraints("Let's not add a new dependency.", true)).toEqual([]);
  });
});
