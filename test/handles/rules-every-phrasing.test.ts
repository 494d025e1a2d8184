/**
 * Rules in every phrasing (issue 36 item 3, fourth round): an order complete before the colon that leads into its list
 * or code, bans said as "stop doing", "nobody … without", a loud bold "NO", "X only, no Y" in a document, who alone
 * may do a thing, "it's mandatory", "is to be done", a wish ("I don't want you touching …"), what matters ("It's
 * important that you …"), "there should be no X in Y"; and what stays unpinned: lead-ins that leave their sentence open, the steps under a
 * proposal's heading, a setup step "before starting", a one-off change "instead of".
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

function constraints(text: string, toolOutput = false): string[] {
  return extractHandles(text, { kinds: ['constraint'], toolOutput }).map((handle) => handle.text);
}

describe('orders before a colon', () => {
  it('pins an order complete before its list or code', () => {
    const spec = 'Technical specs:\n- Keep the `create` action compatible with current callers:\n  - accept `:state`\n';
    expect(constraints(spec, true)).toEqual(['Keep the `create` action compatible with current callers:']);
    const guide = '### Panels\n\nUse `NewLazyPanel()` instead of `kite.NewPanel()`:\n\n```go\npanel := x()\n```\n';
    expect(constraints(guide, true)).toEqual(['Use `NewLazyPanel()` instead of `kite.NewPanel()`:']);
    expect(constraints('Prefer small modules over one large file:\n- a\n- b\n')).toEqual([
      'Prefer small modules over one large file:',
    ]);
  });

  it('drops a lead-in that leaves its sentence open or points at what follows', () => {
    for (const lead of [
      'Every reply should contain:',
      'You MUST run this exact script to finish:',
      'Do not change any of the following files:',
      'Keep it in the strategy package for now since:',
      'Run the checks below:',
      'Use the flag when:',
    ])
      expect(constraints(`${lead}\n- one\n- two\n`), lead).toEqual([]);
  });
});

describe('proposals are not rules', () => {
  it('leaves the steps under a proposal heading or label unpinned', () => {
    const ticket =
      '## Root Cause\n\nThe cache grows.\n\n## Proposed Solution\n\nRun the cleanup at safe points rather than at random:\n\n' +
      '- After a commit\n';
    expect(constraints(ticket, true)).toEqual([]);
    const summary = 'Implementation:\n1. Read the config\n2. Check for duplicates within each database\n';
    expect(constraints(summary, true)).toEqual([]);
    const notes = "=== Best approach ===\nWe should probably:\n- We shouldn't add the prefix twice\n";
    expect(constraints(notes, true)).toEqual([]);
    const plain =
      '## The Fix\n\nCreate a helper that checks the state before generating a new ID:\n\n```go\nx()\n```\n';
    expect(constraints(plain)).toEqual([]);
  });

  it('keeps the rules of a ticket section that says what to build', () => {
    const ticket = '## Solution\n- Tool results show the first 10 lines; no silent truncation.\n';
    expect(constraints(ticket, true)).toEqual(['Tool results show the first 10 lines; no silent truncation.']);
  });
});

describe('bans and limits in other words', () => {
  it('pins each', () => {
    for (const rule of [
      'Stop adding new dependencies to the core package.',
      'Nobody merges without a green build.',
      'No one deploys without a rollback plan.',
      "It's mandatory to pin dependency versions.",
      'Target Node 20 and nothing older.',
      'Fix the parser, not the tests.',
      'All commits are to be signed.',
      'Always squash before merging.',
      'Use UTC everywhere.',
      "I don't want you touching the billing code.",
      "I don't want any new dependencies.",
      'I want every function documented.',
      "It's important that you run the linter before pushing.",
      'It is essential to back up the database before migrating.',
      'There should be no network calls in unit tests.',
    ])
      expect(constraints(rule), rule).toEqual([rule]);
  });

  it('pins them in a document', () => {
    const doc = (line: string) => `# Agents guide\n\n- ${line}\n- The service is written in Go.\n`;
    for (const rule of [
      'Only the CLI package may import the config loader.',
      'It is required that all secrets live in the vault.',
      'Every new endpoint must have an integration test.',
      'Types only, no runtime change, no new exports',
      '**NO** debug mode',
    ])
      expect(constraints(doc(rule), true), rule).toEqual([rule]);
    expect(constraints('PR 1: parser types\n  → Types only, no runtime change\n')).toEqual([
      'Types only, no runtime change',
    ]);
  });

  it('leaves the narration, guesses and one-off changes with the same words unpinned', () => {
    for (const text of [
      'Export $PAYMENTS_DB_URL before starting.',
      'Change `readCommitted` to return the summary instead of the result.',
      'Now update the handlers to use `errors.As` instead of type switches.',
      'Stop worrying about the flaky test.',
      'Nobody merged anything without review last week, as far as I know? No.',
      'Nobody merged anything yesterday.',
      'The run must have failed halfway.',
      '# NO patterns',
      'This is to be expected.',
      'It is to be released next week.',
      "I don't want to lose the data.",
      'I need you to look at this log.',
      "It's important to stay calm.",
      'It is important to understand the cause.',
      'There should be no errors in the log now.',
    ])
      expect(constraints(text), text).toEqual([]);
    const doc = '# Notes\n\nEach run must have finished before the report was written.\n';
    expect(constraints(doc, true)).toEqual([]);
    expect(constraints('# Access\n\nOnly admins can see the billing page.\n', true)).toEqual([]);
  });
});
