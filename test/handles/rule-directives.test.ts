/**
 * Rules without a negation trigger (issue 36, part 3): the phrasings the issue names are pinned
 * whole, and the ledger block's own text is never pinned when it comes back as transcript text.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { ledgerBlock } from '../../src/window/window.js';
import { handleAt, summaryRecord } from '../helpers.js';

function constraints(text: string): string[] {
  return extractHandles(text, { kinds: ['constraint'] }).map((handle) => handle.text);
}

describe('rules in every phrasing', () => {
  it('pins the rules the issue reports missed, each whole', () => {
    for (const rule of [
      'Absolutely never disable TLS verification.',
      'Get Felix to review any change to the schema before merging.',
      'Stop and ask before deleting anything in s3://prod-backups.',
      'No external network calls from the test suite.',
      'Use Python, not JavaScript.',
      'Keep spend under $200 unless I approve more.',
      'Do not add a second date formatting library; continue with luxon.',
      'You may push to staging until Friday.',
      'The billing database is off-limits.',
      'Make sure every new endpoint has a test.',
      'Every PR needs two approvals.',
    ])
      expect(constraints(rule), rule).toEqual([rule]);
  });

  it('reads a rule after a lead-in ("Also:", "Also,", "Oh, and"), the whole sentence pinned', () => {
    for (const rule of [
      'Also: Stop and ask before deleting anything in s3://prod-backups.',
      'Also, stop and ask before deleting anything in s3://prod-backups.',
      'Oh, and get Felix to review any change to the schema before merging.',
    ])
      expect(constraints(rule), rule).toEqual([rule]);
    // a lead-in does not make a report or a plan a rule
    expect(constraints('Also: I stopped and asked before deleting the bucket.')).toEqual([]);
    expect(constraints("Also, let's ask before deleting anything.")).toEqual([]);
  });

  it('pins both rules of one message', () => {
    const message = 'Do not print API keys in logs. Absolutely never disable TLS verification.';
    expect(constraints(message)).toEqual([
      'Do not print API keys in logs.',
      'Absolutely never disable TLS verification.',
    ]);
  });

  it('pins a rule a summary reports in quotes after a speech verb, not a quoted example', () => {
    expect(constraints('User told me "don\'t amend commits" and I agreed.')).toHaveLength(1);
    expect(constraints('Example: "Do not deploy on Fridays" becomes a pinned constraint.')).toEqual([]);
  });

  it('leaves facts, narration, questions and plans with rule words unpinned', () => {
    for (const text of [
      'The cron job always runs at midnight UTC.',
      'This flag does not disable caching.',
      'I made sure every new endpoint has a test.',
      'Should I stop and ask before deleting things?',
      'Let me make sure the docs build still passes.',
      'No worries, take your time.',
      'Good books make us so much wiser and never let us down.',
      'The read-only replica lags by a few seconds.',
      'epoll is Linux-only, libuv solves cross-platform.',
      'Killed: out of memory (used 4.1 GB, limit 4 GB)',
      '2024-05-01T10:00:00Z WARN never retry payments',
      'return fmt.Errorf("invalid id %q: must be alphanumeric only", id)',
    ])
      expect(constraints(text), text).toEqual([]);
  });
});

describe('rules typed the way people type them', () => {
  it('reads a sentence that starts in lower case after a stop as a sentence of its own', () => {
    expect(constraints('Rename it to steps. keep backwards compatibility with the old key.')).toEqual([
      'keep backwards compatibility with the old key.',
    ]);
    // an abbreviation's stop ends no sentence
    expect(constraints('Keep the old key around, e.g. the checkpoint count.')).toEqual([
      'Keep the old key around, e.g. the checkpoint count.',
    ]);
  });

  it('pins an order to do as the code or the team already does, not a one-off step', () => {
    expect(constraints('yes please, match the existing test style - then add the issue.')).toHaveLength(1);
    expect(constraints('Follow our naming conventions for tests.')).toEqual([
      'Follow our naming conventions for tests.',
    ]);
    for (const text of [
      'Match the brackets.',
      'Follow the steps below.',
      'I followed the existing style.',
      'This does not match the existing format.',
    ])
      expect(constraints(text)).toEqual([]);
  });
  it('pins a rule asked as a question, not a question that asks for one step', () => {
    expect(
      constraints("let's go with #2 and #3 please, though can we stick to the workflow of pair review and demo?"),
    ).toHaveLength(1);
    expect(constraints('Could you always use pnpm for installs?')).toEqual(['Could you always use pnpm for installs?']);
    for (const text of ['can you check the logs?', 'could you look at why it fails?', 'can we go with option 2?'])
      expect(constraints(text)).toEqual([]);
  });

  it('pins an order limited to a scope and "we should at least", not a guess or a step', () => {
    expect(constraints('Fix that check only for mobile clients.')).toEqual(['Fix that check only for mobile clients.']);
    expect(constraints('Run the migration only against staging.')).toHaveLength(1);
    expect(constraints('we should at least log the uploads that are rejected')).toHaveLength(1);
    for (const text of [
      'We should probably refactor this.',
      'we should see the error now',
      'Remove "Returns an error only if the repository cannot be opened" from the docstring.',
    ])
      expect(constraints(text)).toEqual([]);
  });
});

describe("the ledger's own text", () => {
  it('is never pinned when the block comes back as transcript text', () => {
    const record = summaryRecord({ handles: [handleAt('src/api/routes.ts', 'path', 'user')], summary: '' });
    const block = ledgerBlock({ active: record, gaps: [], originals: [] }) ?? '';
    expect(block).toContain('Never fill a gap from memory.');
    expect(constraints(block)).toEqual([]);
  });
});

describe('a lead-in to a list or a command', () => {
  it('is not pinned alone: the rule is in the lines after it', () => {
    const text =
      'Each response should include:\n\n1. Reasoning text\n2. At least one tool call\n\n' +
      'You MUST use this EXACT command to submit:\n\n```bash\nmake submit\n```\n\n' +
      'Never edit these files:\n- a.go\n';
    expect(constraints(text)).toEqual([]);
  });

  it('leaves a rule that ends in a stop, and one whose colon is inside the sentence, pinned', () => {
    expect(constraints('Note: never push to main.\nYou MUST run the tests before submitting.')).toEqual([
      'Note: never push to main.',
      'You MUST run the tests before submitting.',
    ]);
  });
});
