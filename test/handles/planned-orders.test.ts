import { describe, expect, it } from 'vitest';
import { isPinned } from './rules-score.js';

describe('a request to plan an order carries the order (issue 36 item 3)', () => {
  it('pins the order a plan is asked for when it is a rule', () => {
    expect(isPinned('Make a plan to fix that check only for mobile clients')).toBe(true);
    expect(isPinned('Draft a plan to use Postgres, not MySQL, for the new service.')).toBe(true);
    expect(isPinned('Yeah, write a plan to run the backfill only in staging.')).toBe(true);
  });

  it('does not pin a request to plan a step', () => {
    expect(isPinned('Make a plan to fix the flaky login test.')).toBe(false);
    expect(isPinned('Write a plan to speed up the import job.')).toBe(false);
  });
});
