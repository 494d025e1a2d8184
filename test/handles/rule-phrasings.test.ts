/**
 * Rules said in less common words (`rule-phrasings.ts`, `rule-bans.ts`): deferrals, things ruled out, permissions put
 * as a judgement, care orders, orders to go on until something holds, steps before another, the language to write
 * in, terse bans of how work is done; and the talk, narration and reports that share their words, left unpinned.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

function constraints(text: string, toolOutput = false): string[] {
  return extractHandles(text, { kinds: ['constraint'], toolOutput }).map((handle) => handle.text);
}

describe('rules in less common words', () => {
  it('pins each rule whole', () => {
    for (const rule of [
      'Defer locking until we migrate to SQLite.',
      'Hold off on the migration until I review it.',
      'Put the refactor on hold for now.',
      'Steer clear of global state.',
      'Refactoring the parser is out of scope for this PR.',
      'Force-pushing is a no-go.',
      'Adding a new dependency is not an option.',
      "It's fine to use mocks in unit tests.",
      "It's always OK to stop and ask questions.",
      "You're free to rename variables.",
      'You can skip code review for typo fixes.',
      'No need to update the changelog.',
      'Be careful not to delete the fixtures.',
      'Keep going until all tests pass.',
      'Before merging, rebase on main.',
      'Rebase before pushing.',
      'We should fix all call sites before committing.',
      'Leave the CI config to me.',
      'Write the docs in British English.',
      'Run everything inside the dev container.',
      'No silent truncation.',
      'Tool results show the first 10 lines with an expand control; no silent truncation.',
      'WARNING: Do not use the development server in production.',
      'The user wants the path fixed only for Gemini sessions.',
      'From now on, use pnpm.',
      'For the rest of this session, answer briefly.',
      "I'd rather you didn't touch the schema.",
      'Try not to touch the public API.',
      "Don't bother running the e2e suite.",
      "Don't even think about touching prod.",
      'Only ever use the staging DB.',
      'Make no changes to the API.',
      'Fix the bug without changing the public API.',
      'IMPORTANT: Run the migrations in order.',
      '**Note:** never push to main.',
      '**Important:** Always run make fmt.',
      'Direct DB access is discouraged.',
      'Kindly avoid force pushes.',
      'At no point should you push to main.',
      'You are not to touch the database.',
      'Just fix the test, nothing else.',
    ])
      expect(constraints(rule), rule).toEqual([rule]);
  });

  it('reads "No <thing> to <verb>." as nothing left to do, in a request as in tool output, and keeps bans to a place', () => {
    // program output pasted into a request (an issue text quoting a migrate run)
    expect(constraints('Running migrations:\n  No migrations to apply.\nDone.')).toEqual([]);
    expect(constraints('No changes to commit.')).toEqual([]);
    expect(constraints('No tests to run.', true)).toEqual([]);
    expect(constraints('No force pushes to main.')).toEqual(['No force pushes to main.']);
    expect(constraints('No writes to prod.')).toEqual(['No writes to prod.']);
  });

  it('reads "No <thing> in <the searched whole>." as a finding in any voice, and keeps bans to a place', () => {
    for (const toolOutput of [false, true]) {
      for (const finding of [
        'No retry loops in the codebase.',
        'No direct SQL calls anywhere in the repo. Let me check the workers next.',
        'Searched:\n- No debug imports in this file\n- No cron entries configured',
        '**No named captures in the regex.**',
        'No stray timeouts in the scheduler module.',
      ])
        expect(constraints(finding, toolOutput), finding).toEqual([]);
      for (const ban of [
        'No pushes to main.',
        'No force-push to the release branch.',
        'No mocks in production code.',
        'No schema changes in this task.',
        'No secrets in the repo, ever.',
      ])
        expect(constraints(ban, toolOutput), ban).toEqual([ban]);
    }
  });

  it('pins a deferral proposed as a question', () => {
    const text = 'redis or similar? defer caching for now until we launch?';
    expect(constraints(text)).toEqual([text]);
  });

  it('leaves narration, talk, questions and reports with the same words unpinned', () => {
    for (const text of [
      'I deferred the locking work to next sprint.',
      'We held off on the release because CI was red.',
      'Defer is a Go keyword.',
      "It's fine, thanks.",
      'The build is fine now.',
      'Is it ok to merge now?',
      'It was out of scope.',
      'Before the fix, the test failed.',
      'We ran the tests before merging.',
      'ok let us keep going',
      'No need to apologize.',
      'No silent failures were found.',
      'Uses the shared transcript component, no duplicate rendering code',
      'The user wants to know why the build fails only on CI.',
      'I wrote the docs in English.',
      'WARNING: Retrying after connection broken',
      'From now on, the API returns JSON.',
      "I'd rather not.",
      'Try not to worry.',
      "Don't bother, I'll do it.",
      'Make no mistake, this is hard.',
      'I fixed it without touching the schema.',
      'Important: the API returns 404 here.',
      'Important: back up first.',
      'Critical bug: fix crashes on start',
      'At no point did it fail.',
      'I just fixed the test, nothing else.',
      '**Status:** never ran.',
      'Force flag removes existing hooks before reinstalling',
    ])
      expect(constraints(text), text).toEqual([]);
  });

  it('in tool output, takes a deferral only with when it ends and never "not an option"', () => {
    const doc = (line: string) => `## Working agreement\n\n- ${line}\n- The team meets on Mondays.\n`;
    expect(constraints(doc('Defer the schema split until the v3 release.'), true)).toEqual([
      'Defer the schema split until the v3 release.',
    ]);
    expect(constraints(doc('Defer cleanup to the caller.'), true)).toEqual([]);
    expect(constraints('$ tool --fast\nerror: --fast is not an option of this command.\n', true)).toEqual([]);
    // a document's how-to in running prose grants nothing; a line of its rules does
    const howTo = 'Hooks print JSON.\nFor simpler cases, you can skip JSON entirely and print plain text.\n';
    expect(constraints(howTo, true)).toEqual([]);
    expect(constraints(doc('You can skip code review for typo fixes.'), true)).toEqual([
      'You can skip code review for typo fixes.',
    ]);
  });
});
