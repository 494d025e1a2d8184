/**
 * Decisions lines that carry weight, continued (issue 36, item 5): more of what settles a choice is read as a
 * decision (the agent's "this way …" and "it's cleaner to …", a short "Postgres it is.", an order with "only", the
 * user's answer in a later turn), and the state lines that name nothing new take a few lines at most, after every
 * line that names something new. Each case failed before.
 */
import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import { SECTION_TITLES } from '../../src/summarizers/sections.js';
import { decides, ordersChoice, settlesInLaterTurn } from '../../src/summarizers/sentence-weight.js';
import type { SourceUnit } from '../../src/summarizers/summarizer.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';

const counter = createO200kCounter();

async function decisionLines(turns: readonly ['user' | 'assistant', string][], budget = 400) {
  const units: SourceUnit[] = turns.map(([role, text], index) => ({
    text,
    role,
    spanIds: [`sha256:reach-${index}`],
    seq: index,
    origin: 'original',
  }));
  const result = await createExtractiveSummarizer().summarize({
    sessionId: 'reach',
    units,
    budgetTokens: budget,
    handles: [],
    counter,
  });
  const lines = result.summary.split('\n');
  const start = lines.indexOf(SECTION_TITLES.decisions);
  if (start < 0) return [];
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => !line.startsWith('- '));
  return (end < 0 ? rest : rest.slice(0, end)).map((line) => line.slice(2));
}

describe('decisions in more phrasings', () => {
  it.each([
    'This way, a renamed column never breaks the nightly report.',
    "It's cleaner to keep the parser free of I/O.",
    'Safer to retry once than to fail the whole import.',
    'Cold starts get slower, but this is acceptable for a nightly job.',
    'The fix was pinning the resolver to the older major version.',
    'I should rename the option so it matches the docs.',
    'that covers it and we can just keep both flags',
  ])('reads "%s" as a decision', (sentence) => {
    expect(decides(sentence)).toBe(true);
  });

  it.each(['I should check the logs first.', 'The fix is working on staging.', 'We can use the REPL to try it.'])(
    'does not read "%s" as a decision',
    (sentence) => {
      expect(decides(sentence)).toBe(false);
    },
  );

  it('reads an order with "only" as a choice, whoever gives it', () => {
    expect(ordersChoice('Only deploy the worker on weekdays.')).toBe(true);
    expect(ordersChoice('Keep the retry budget where it is.')).toBe(true);
    expect(ordersChoice('Only three tests fail now.')).toBe(false);
  });

  it("shows the agent's order that settles a choice ahead of its state lines", async () => {
    const state = [
      'The importer in `stage_a.ts` now reads rows in batches.',
      'Parsing of quoted fields moved to `quote_reader.ts`.',
      'Memory use dropped to 40 MB on the 2 GB sample.',
      'The `--workers` flag defaults to 4 on every platform.',
      'Benchmarks in `bench/import.ts` show triple the throughput.',
      'Malformed lines are now counted in `stats.rejected` and skipped.',
    ];
    const lines = await decisionLines(
      [
        ['user', 'Speed up the CSV importer.'],
        ['assistant', [...state.slice(0, 3), 'Keep the row limit at ten thousand.', ...state.slice(3)].join(' ')],
      ],
      70,
    );
    expect(lines).toContain('Keep the row limit at ten thousand.');
  });

  it('keeps a short decision of short words, and a short chat line still fills none', async () => {
    const lines = await decisionLines([
      ['user', 'Pick a database for the audit log.'],
      ['assistant', 'Both Postgres and SQLite would do; the tests pass on both.'],
      ['user', 'Postgres it is.'],
      ['user', 'Ok, do it.'],
    ]);
    expect(lines).toContain('Postgres it is.');
    expect(lines).not.toContain('Ok, do it.');
  });
});

describe("the user's answer in a later turn", () => {
  it('settles something when it judges or picks, not when it only orders work', () => {
    expect(settlesInLaterTurn('yes, ideally both paths share one parser')).toBe(true);
    expect(settlesInLaterTurn('I think B) is better, it keeps the cache warm.')).toBe(true);
    expect(settlesInLaterTurn('yes, run the benchmarks')).toBe(false);
    expect(settlesInLaterTurn("ok, let's add it")).toBe(false);
    expect(settlesInLaterTurn('yes, but which one is faster?')).toBe(false);
  });

  it('is shown under Decisions when a later request follows it', async () => {
    const lines = await decisionLines([
      ['user', 'Make the exporter stream rows.'],
      ['assistant', 'The exporter can stream to a file or to the socket; both need one parser. Which do you want?'],
      ['user', 'yes, ideally both paths share one parser'],
      ['assistant', 'Both paths now share `RowParser` and the exporter tests pass.'],
      ['user', 'Now add a progress bar to the export command.'],
    ]);
    expect(lines).toContain('yes, ideally both paths share one parser');
  });
});

describe('state lines that name nothing new', () => {
  const chatter = [
    'The build is green again.',
    'Everything compiles cleanly now.',
    'The output matches what the old version printed.',
    'Nothing else in the module needed a change.',
    'The warnings from before are all gone.',
    'The docs already describe the new behaviour.',
  ];

  it('take a few lines at most, and never a decision or a line that names something new', async () => {
    const lines = await decisionLines([
      ['user', 'Move the report renderer into a worker.'],
      [
        'assistant',
        [...chatter, 'The renderer now runs in `report-worker.ts` on port 9400.', 'We went with a shared pool.'].join(
          ' ',
        ),
      ],
    ]);
    expect(lines.filter((line) => chatter.includes(line))).toHaveLength(3);
    expect(lines).toContain('The renderer now runs in `report-worker.ts` on port 9400.');
    expect(lines).toContain('We went with a shared pool.');
  });

  it('count as quiet when every name they carry is on another line already', async () => {
    const lines = await decisionLines([
      ['user', 'Move the report renderer into a worker.'],
      [
        'assistant',
        [
          ...chatter,
          'The renderer now runs in `report-worker.ts` on port 9400.',
          'So `report-worker.ts` is in place.',
        ].join(' '),
      ],
    ]);
    expect(lines).toContain('The renderer now runs in `report-worker.ts` on port 9400.');
    expect(lines.filter((line) => chatter.includes(line) || line.startsWith('So '))).toHaveLength(3);
  });
});
