/**
 * Descriptions are not rules (issue 36, part 3: precision): a negation that says what something does or cannot do,
 * or a comment line of pasted code, is not pinned; the same words addressed to the reader still are.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

function constraints(text: string): string[] {
  return extractHandles(text, { kinds: ['constraint'] }).map((handle) => handle.text);
}

describe('descriptions beside rules', () => {
  it('does not pin "never" before a third-person verb or a participle', () => {
    for (const text of [
      '- Never returns an error (falls back to a fresh token).',
      'Never crashes on empty input, as far as the fuzzer shows.',
      'Never seen this warning on the staging cluster before.',
      'Never been deployed outside the lab.',
    ])
      expect(constraints(text), text).toEqual([]);
  });

  it('still pins "never" before a base verb, including base verbs ending in s', () => {
    for (const rule of [
      'Never return an error from the webhook handler.',
      'Never pass secrets on the command line.',
      'Never focus the search box on page load.',
    ])
      expect(constraints(rule), rule).toEqual([rule]);
  });

  it('does not pin a conjoined prohibition whose clause has a third-person subject', () => {
    for (const text of [
      'All workers read the queue but do not write to it.',
      'They query the replica and never touch the primary.',
    ])
      expect(constraints(text), text).toEqual([]);
    for (const rule of ['Read the queue but do not write to it.', 'We query the replica and never touch the primary.'])
      expect(constraints(rule), rule).toEqual([rule]);
  });

  it('does not pin what cannot happen ("X can never match"), but pins "you can never"', () => {
    expect(constraints('The pattern can never match an empty line.')).toEqual([]);
    expect(constraints('You can never push to main without a review.')).toEqual([
      'You can never push to main without a review.',
    ]);
  });

  it('does not pin a `//` comment line pasted into a message unless it is written loud', () => {
    expect(constraints("Here is the helper:\n// don't cache the token here\nreturn token")).toEqual([]);
    expect(constraints('Keep this header:\n// DO NOT EDIT by hand, it is generated')).toEqual([
      'DO NOT EDIT by hand, it is generated',
    ]);
  });

  it("reads a pinned line of the ledger's own block without its label: the rule alone, never the label", () => {
    expect(constraints('- [user instruction] Never push to main without review.')).toEqual([
      'Never push to main without review.',
    ]);
  });
});
