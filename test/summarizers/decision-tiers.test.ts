/**
 * Decisions that carry weight (issue 36, item 5): a sentence that states a choice or a commitment is read as one in
 * more phrasings; the agent's talk about how the work goes fills no line; its reasoning aloud ranks below the state
 * reached and takes two lines at most; and a later ask that settles how the work is done is a decision, not the Task.
 */
import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import { isAnalysis } from '../../src/summarizers/narration.js';
import { SECTION_TITLES } from '../../src/summarizers/sections.js';
import { decides, isDecision, isProhibition, isSmallTalk } from '../../src/summarizers/sentence-weight.js';
import type { SourceUnit } from '../../src/summarizers/summarizer.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';

const counter = createO200kCounter();

async function sections(turns: readonly ['user' | 'assistant', string][], budget = 400) {
  const units: SourceUnit[] = turns.map(([role, text], index) => ({
    text,
    role,
    spanIds: [`sha256:tiers-${index}`],
    seq: index,
    origin: 'original',
  }));
  const result = await createExtractiveSummarizer().summarize({
    sessionId: 'tiers',
    units,
    budgetTokens: budget,
    handles: [],
    counter,
  });
  const lines: Record<'task' | 'decisions', string[]> = { task: [], decisions: [] };
  let current: 'task' | 'decisions' | undefined;
  for (const line of result.summary.split('\n')) {
    if (line === SECTION_TITLES.task) current = 'task';
    else if (line === SECTION_TITLES.decisions) current = 'decisions';
    else if (line.startsWith('- ') && current !== undefined) lines[current].push(line.slice(2));
    else current = undefined;
  }
  return lines;
}

describe('choices in more phrasings', () => {
  it.each([
    "We're not going to ship the Windows installer.",
    "I'd rather store the dates as ISO strings.",
    "Let's punt on the dark theme for this release.",
    'I kept the page size at fifty so the old links still work.',
    'The mobile app stays on the old endpoint.',
    'We ruled out the hosted queue.',
    'I prefer the tabbed layout.',
    'The former, please.',
    'Batching the writes is the way to go.',
    'The fix is to debounce the resize handler.',
    'Retrying inside the worker might be the safer option because the queue already dedupes.',
    'Using a ring buffer here because the consumer may lag.',
  ])('reads "%s" as a decision', (sentence) => {
    expect(decides(sentence)).toBe(true);
  });

  it.each(['I picked up the latest commit from main.', 'The first test fails on CI.', 'The error stays hidden.'])(
    'reads "%s" as no decision',
    (sentence) => {
      expect(decides(sentence)).toBe(false);
    },
  );

  it('reads an order after a lead word as a decision, and keeps "No new …" a prohibition', () => {
    expect(isDecision('Just use the default retry policy.')).toBe(true);
    expect(isDecision('Actually, keep the old route name.')).toBe(true);
    expect(isDecision('No, drop the CSV export.')).toBe(true);
    expect(isProhibition('No new endpoints in this change.')).toBe(true);
  });
});

describe("the agent's talk about how the work goes", () => {
  it.each(['That looks promising.', 'Sorry for the confusion.', 'Good catch!', 'I found the relevant file.'])(
    'reads "%s" as small talk',
    (sentence) => {
      expect(isSmallTalk(sentence)).toBe(true);
    },
  );

  it('still reads an order in the same words as an ask', () => {
    expect(isSmallTalk('Explain the code.')).toBe(false);
  });

  it('tells reasoning aloud from the state reached', () => {
    expect(isAnalysis('It seems the cache is never warmed before the first request.')).toBe(true);
    expect(isAnalysis('I notice that the handler swallows the timeout.')).toBe(true);
    expect(isAnalysis('The import is unused because the template still inlines the helper.')).toBe(true);
    expect(isAnalysis('All 40 ledger tests pass after the rename.')).toBe(false);
  });
});

describe('the Decisions lines', () => {
  const reasoning = [
    'It seems the scheduler reads the config twice on start.',
    'I think the retry counter is reset by the watchdog.',
    'The import is unused because the template still inlines the helper.',
    'Probably the queue drains before the flush runs.',
    'I notice that the handler swallows the timeout error.',
  ];

  it('holds two lines of reasoning aloud at most, however much room is left', async () => {
    const turns: ['user' | 'assistant', string][] = [
      ['user', 'Make the nightly sync survive a restart of the scheduler.'],
    ];
    for (const sentence of reasoning) turns.push(['assistant', sentence]);
    turns.push(['assistant', 'The sync job now resumes from its last cursor after a restart.']);
    const { decisions } = await sections(turns, 1000);
    expect(decisions).toContain('The sync job now resumes from its last cursor after a restart.');
    expect(decisions.filter((line) => reasoning.includes(line)).length).toBe(2);
  });

  it('weighs reasoning that names something (a symbol, a number, a quoted value) as a state, not held to two lines', async () => {
    const naming = [
      'It seems `loadConfig` runs twice on start.',
      'I think the retry counter resets after 30 seconds.',
      'Probably the parser treats "NO" as a column name.',
    ];
    const turns: ['user' | 'assistant', string][] = [
      ['user', 'Make the nightly sync survive a restart of the scheduler.'],
    ];
    for (const sentence of [...reasoning, ...naming]) turns.push(['assistant', sentence]);
    const { decisions } = await sections(turns, 1000);
    expect(naming.every((line) => decisions.includes(line))).toBe(true);
    expect(decisions.filter((line) => reasoning.includes(line)).length).toBe(2);
  });

  it('keeps a decision and the state reached before reasoning aloud when the budget is tight', async () => {
    const turns: ['user' | 'assistant', string][] = [
      ['user', 'Make the nightly sync survive a restart of the scheduler.'],
      ['assistant', 'I kept the cursor in the jobs table rather than in a file next to the binary.'],
      ['assistant', 'The sync job now resumes from its last cursor after a restart.'],
      ...reasoning.map((sentence): ['assistant', string] => ['assistant', sentence]),
    ];
    const { decisions } = await sections(turns, 90);
    expect(decisions.slice(0, 2)).toEqual([
      'I kept the cursor in the jobs table rather than in a file next to the binary.',
      'The sync job now resumes from its last cursor after a restart.',
    ]);
  });

  it('shows a later ask that settles how the work is done under Decisions, the opening request as the Task', async () => {
    const { task, decisions } = await sections([
      ['user', 'Add an export of the audit log to the admin page.'],
      ['assistant', 'The admin page now has an export button that writes the audit log as CSV.'],
      ['user', 'Make the export a background job instead of a blocking request.'],
    ]);
    expect(task).toEqual(['Add an export of the audit log to the admin page.']);
    expect(decisions).toContain('Make the export a background job instead of a blocking request.');
  });
});
