import { describe, expect, it } from 'vitest';
import { isPinned } from './rules-score.js';

/** `sentence` judged inside a tool output that lays it down as a list item of a document. */
function pinnedInList(sentence: string): boolean {
  return isPinned(sentence, `## Notes\n\n- ${sentence}\n- The service is written in Go.\n`);
}

/** `sentence` judged inside a tool output where it is a line of its own. */
function pinnedAlone(sentence: string): boolean {
  return isPinned(sentence, `## Notes\n\n${sentence}\nThe service is written in Go.\n`);
}

describe('sentences that describe with rule words are not rules; the rules beside them still are (issue 36 item 3)', () => {
  it('reads a command listing as documentation, and a path with an order as an order', () => {
    expect(isPinned('`npm run lint` — check every file for lint errors')).toBe(false);
    expect(isPinned('`--dry-run`: print the plan for each step and exit')).toBe(false);
    // the same shapes that say "always" / "must", or name a file, are orders
    expect(isPinned('`npm test` — always run it before pushing.')).toBe(true);
    expect(isPinned('`config/prod.yaml` — Keep the current values.')).toBe(true);
  });

  it('quotes an order after a file name and a dash from tool output', () => {
    expect(pinnedInList('`config/prod.yaml` — Keep the current values.')).toBe(true);
    // a quoted name as the subject still describes
    expect(pinnedInList('`retries` always defaults to 3 in every environment.')).toBe(false);
  });

  it('reads a "No …" line naming a thing by its state or its path as a report of what is not there', () => {
    expect(pinnedAlone('No pending migrations for the billing database.')).toBe(false);
    expect(pinnedAlone("No installed plugin with the name 'lint-extra'.")).toBe(false);
    expect(pinnedInList('No `dist/` directory with build artifacts')).toBe(false);
    expect(pinnedInList('No direct commits to the main branch.')).toBe(true);
    expect(pinnedInList('No new dependencies without a review from the platform team.')).toBe(true);
  });

  it('reads a change to make now as a plan step, a standing requirement as a rule', () => {
    expect(pinnedAlone('Each caller needs to be updated to pass the tenant id.')).toBe(false);
    expect(pinnedInList('All call sites need to be changed to the async API.')).toBe(false);
    expect(pinnedInList('Every endpoint needs to be documented in the API reference.')).toBe(true);
  });

  it('reads a component restricted to read-only operations as its design', () => {
    expect(pinnedAlone('Agents in plan mode are restricted to read-only operations.')).toBe(false);
    expect(pinnedAlone('Treat the reporting database as read-only.')).toBe(true);
    expect(pinnedAlone('You are restricted to read-only access on production.')).toBe(true);
  });

  it('reads a subject that does something "only" as a description, an order limited by "only" as a rule', () => {
    expect(pinnedInList('Build step writes artifacts to dist only')).toBe(false);
    expect(pinnedInList('Push hook runs lint on changed files only')).toBe(false);
    expect(pinnedInList('Run integration tests against staging only')).toBe(true);
    expect(pinnedInList('Run unit tests only on CI')).toBe(true);
    expect(pinnedInList('Deploy hotfixes from the release branch only')).toBe(true);
  });
});
