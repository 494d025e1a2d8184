/**
 * A pasted plan's title reaches the summary's Task: Claude Code's plan mode opens the user turn with "Implement the
 * following plan:" and the plan's name sits in its first Markdown heading.
 */
import { describe, expect, it } from 'vitest';
import { cleanSentences } from '../../src/summarizers/sentences.js';
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';

const options = { maxChars: 400, lowercaseStart: true, minLineWords: 2, leadIns: true } as const;
const plan =
  'Implement the following plan:\n\n# Plan: Restore Gemini sessions from checkpoints\n\n## Context\n' +
  'The restore path is wrong for Gemini.\n\n# A second heading is no title\n';

describe("a pasted plan's title", () => {
  it('is read from the first heading of the user text only, verbatim without its marks', () => {
    expect(cleanSentences(plan, options)).toEqual([
      'Implement the following plan:',
      'Plan: Restore Gemini sessions from checkpoints',
      'The restore path is wrong for Gemini.',
    ]);
    // not from an assistant's or a tool's text
    expect(cleanSentences(plan, { ...options, leadIns: false })).not.toContain(
      'Plan: Restore Gemini sessions from checkpoints',
    );
  });

  it('is a Task line of the summary', async () => {
    const counter = createO200kCounter();
    const result = await createExtractiveSummarizer().summarize({
      sessionId: 's',
      units: [{ role: 'user', text: plan, spanIds: ['sha256:a'], seq: 0, origin: 'original' }],
      handles: [],
      budgetTokens: 200,
      counter,
    });
    expect(result.summary).toContain('Plan: Restore Gemini sessions from checkpoints');
  });

  it('is kept before the lead-in that only introduces it when the Task has room for one line', async () => {
    const counter = createO200kCounter();
    const result = await createExtractiveSummarizer().summarize({
      sessionId: 's',
      units: [{ role: 'user', text: plan, spanIds: ['sha256:a'], seq: 0, origin: 'original' }],
      handles: [],
      budgetTokens: 25,
      counter,
    });
    expect(result.summary).toContain('Plan: Restore Gemini sessions from checkpoints');
    expect(result.summary).not.toContain('Implement the following plan:');
  });
});
