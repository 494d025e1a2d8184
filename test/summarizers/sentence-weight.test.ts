import { describe, expect, it } from 'vitest';
import { decides, isAsk, isDecision, isSmallTalk } from '../../src/summarizers/sentence-weight.js';

describe('what a summary sentence carries', () => {
  it('reads acknowledgements, courtesy and go-aheads as small talk, and nothing that names something', () => {
    for (const text of ['Sounds good.', 'Thanks!', 'Anything else pressing?', 'Continuing with the plan.', 'Go ahead.'])
      expect(isSmallTalk(text), text).toBe(true);
    for (const text of [
      'Sounds good, but keep the 429 body.',
      'Go with the second option.',
      'All 214 tests pass.',
      'Fix `parse_rows` next.',
      'The limiter is wired into the router.',
    ])
      expect(isSmallTalk(text), text).toBe(false);
  });

  it('reads asks: imperatives, requests, lead-ins and questions', () => {
    for (const text of [
      'Add rate limiting to the search endpoint.',
      'Can you add pagination?',
      'I need the PDFs to include the VAT number.',
      'Implement the following plan:',
    ])
      expect(isAsk(text), text).toBe(true);
    expect(isAsk('The cron host is being retired in May.')).toBe(false);
  });

  it('reads decisions, and tells an ask that decides from a decision', () => {
    for (const text of [
      "Let's go with Redis for the counters.",
      "We'll use a token bucket instead of a global counter.",
      'Decided: the limit is 60 requests per minute.',
      'We chose Lua scripts so the check is atomic.',
    ])
      expect(decides(text), text).toBe(true);
    expect(decides("I'll remove the debug print.")).toBe(false);
    expect(decides('Should we use Redis?')).toBe(false);
    expect(isDecision('Drop the IP-based fallback.')).toBe(true);
    expect(isDecision('Make the importer stream rows instead of loading the whole file.')).toBe(false);
  });
});
