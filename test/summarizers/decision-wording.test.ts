/**
 * Decisions in more phrasings, filler in more phrasings, and the user's unpunctuated lower-case asks (issue 36, part 5):
 * each case failed before the summarizer read it this way.
 */
import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import { SECTION_TITLES } from '../../src/summarizers/sections.js';
import { decides, isDecision, isSmallTalk } from '../../src/summarizers/sentence-weight.js';
import { cleanSentences } from '../../src/summarizers/sentences.js';
import { taskCandidates } from '../../src/summarizers/task-lines.js';
import type { Candidate } from '../../src/summarizers/task-lines.js';
import type { SourceUnit } from '../../src/summarizers/summarizer.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';

const counter = createO200kCounter();

async function summary(
  turns: readonly ['user' | 'assistant', string][],
  pinned: readonly string[] = [],
): Promise<string> {
  const units: SourceUnit[] = turns.map(([role, text], index) => ({
    text,
    role,
    spanIds: [`sha256:wording-${index}`],
    seq: index,
    origin: 'original',
  }));
  const result = await createExtractiveSummarizer().summarize({
    sessionId: 'wording',
    units,
    budgetTokens: 400,
    handles: pinned.map((text) => ({
      kind: 'constraint' as const,
      text,
      key: text.toLowerCase(),
      start: 0,
      end: text.length,
      spanId: 'sha256:wording-0',
      seq: 0,
      role: 'user' as const,
      tokens: counter.count(text),
    })),
    counter,
  });
  return result.summary;
}

/** The `- ` lines under one section title. */
function linesOf(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  if (start < 0) return [];
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => !line.startsWith('- '));
  return (end < 0 ? rest : rest.slice(0, end)).map((line) => line.slice(2));
}

describe('decisions in any phrasing', () => {
  it('reads rejections, going-on choices, prohibitions and picked options as decisions', () => {
    for (const text of [
      "Let's not add a second cache layer.",
      "We're switching to the hosted queue.",
      "I'm keeping the legacy flag name for now.",
      'Hold off on the iOS release.',
      "Don't add retries to the webhook sender.",
      'No more schema changes this week.',
      'Okay, then go with the smaller image.',
      'Option C then.',
      'Leave the export format alone.',
      'Better to block the deploy than to ship a broken build.',
      "We'll defer the billing rewrite to Q3.",
    ])
      expect(isDecision(text) || decides(text), text).toBe(true);
    // a go-ahead without an object decides nothing
    for (const text of ['Sure, go for it.', "Don't worry about it.", 'What option do we have?'])
      expect(isDecision(text) && decides(text), text).toBe(false);
    expect(isSmallTalk('Sure, go for it.')).toBe(true);
  });

  it('reads talk about the work as small talk', () => {
    for (const text of [
      'Picking up where I left off.',
      'Nice, carry on with the rest.',
      'Good, that is what I expected.',
      'I can clearly see the issue.',
      'Ready for feedback.',
    ])
      expect(isSmallTalk(text), text).toBe(true);
    expect(isSmallTalk('Pick the larger instance.')).toBe(false);
  });

  it("puts the user's decision on Decisions and keeps the request as the Task", async () => {
    const text = await summary([
      ['user', 'Thanks. Port the billing exporter to the new queue.'],
      ['assistant', 'The exporter now publishes to the queue and its tests pass.'],
      ['user', "We're dropping the CSV output."],
      ['user', 'Hold off on the retry policy.'],
      ['user', 'Much appreciated, carry on with the rest.'],
    ]);
    expect(linesOf(text, SECTION_TITLES.task)).toEqual(['Port the billing exporter to the new queue.']);
    expect(linesOf(text, SECTION_TITLES.decisions)).toEqual(
      expect.arrayContaining(["We're dropping the CSV output.", 'Hold off on the retry policy.']),
    );
    expect(text).not.toContain('carry on with the rest');
  });

  it('gives a rule the ledger pins no Decisions line, and ranks it last in its request', async () => {
    const turns: ['user' | 'assistant', string][] = [
      ['user', 'Do not change the public API. Speed up the thumbnail cache.'],
      ['assistant', 'The cache now keeps decoded images and its tests pass.'],
      ['user', "Don't add a second cache layer."],
      ['user', 'Never log the signing key.'],
    ];
    const unpinned = await summary(turns);
    expect(linesOf(unpinned, SECTION_TITLES.decisions)).toEqual(
      expect.arrayContaining(["Don't add a second cache layer.", 'Never log the signing key.']),
    );
    const text = await summary(turns, ['Do not change the public API.', 'Never log the signing key.']);
    expect(linesOf(text, SECTION_TITLES.decisions)).toContain("Don't add a second cache layer.");
    expect(linesOf(text, SECTION_TITLES.decisions)).not.toContain('Never log the signing key.');
    expect(linesOf(text, SECTION_TITLES.task)).toContain('Speed up the thumbnail cache.');
  });

  it('keeps a status line that says "next to" among Decisions, not Next steps', async () => {
    const text = await summary([
      ['user', 'Write a checksum with the nightly export.'],
      ['assistant', 'The export job now writes `export.sha256` next to the archive.'],
      ['assistant', 'The export tests pass.'],
    ]);
    expect(linesOf(text, SECTION_TITLES.decisions)).toContain(
      'The export job now writes `export.sha256` next to the archive.',
    );
  });
});

describe('Task candidates', () => {
  it("take a rule the ledger pins after the request's other sentences", () => {
    const candidate = (order: number, text: string): Candidate => ({ order, unit: 0, text, spanIds: [] });
    const task = [
      candidate(0, 'Always run the linter before pushing.'),
      candidate(1, 'Your tests must pass on Node 20.'),
      candidate(2, 'Speed up the thumbnail cache.'),
      candidate(3, 'The cache is slow on cold starts.'),
    ];
    const pinned = new Set(['Always run the linter before pushing.', 'Your tests must pass on Node 20.']);
    expect(taskCandidates(task, pinned).map((line) => line.text)).toEqual([
      'Speed up the thumbnail cache.',
      'The cache is slow on cold starts.',
      'Always run the linter before pushing.',
    ]);
    expect(taskCandidates(task).map((line) => line.text)).not.toContain('The cache is slow on cold starts.');
  });
});

describe("the user's own lower-case words", () => {
  it('keeps an unpunctuated lower-case ask that follows a sentence', () => {
    const options = { maxChars: 400, lowercaseStart: true, minLineWords: 2, leadIns: true };
    expect(cleanSentences('Awesome, thanks! could you make the bar show an ETA', options)).toContain(
      'could you make the bar show an ETA',
    );
    // an assistant's text still needs a capital and closing punctuation
    const agent = { maxChars: 400, lowercaseStart: false, minLineWords: 4 };
    expect(cleanSentences('Awesome, thanks! could you make the bar show an ETA', agent)).toEqual([]);
  });
});
