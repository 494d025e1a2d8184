import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createApproximateCounter, createO200kCounter } from '../../src/tokens/token-counter.js';
import { atLeast, atMost } from '../../bench/bench-result.js';
import { parseBenchArguments } from '../../bench/cli-args.js';
import { renderReport } from '../../bench/results-markdown.js';
import { createAiSdkPruneArm, createLangChainTrimArm } from '../../bench/quality/baseline-arms.js';
import { createBm25Index } from '../../bench/quality/bm25.js';
import { measureGapHonesty } from '../../bench/quality/gap-honesty.js';
import { replayLedger } from '../../bench/quality/ledger-replay.js';
import { recallAt } from '../../bench/quality/locomo-recall.js';
import {
  LEDGER,
  SUMMARY_ONLY,
  createPointEvaluator,
  createTallies,
  tallyShare,
} from '../../bench/quality/point-metrics.js';
import { handleTimeline, messageHandles } from '../../bench/quality/transcript-handles.js';
import { createBenchContext } from '../../bench/bench-context.js';
import { runLocomoQuality } from '../../bench/quality/locomo-recall.js';

const REPLICA = 'db-replica-07.internal';
const CONSTRAINT = `Do not write to the read-only replica ${REPLICA} under any circumstances.`;

/** A deployment session: the replica host and a constraint early, 40 filler turns, then the agent needs the host again. */
function fixture(): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [
    { role: 'user', content: `Deploy the billing service to eu-west-2b. ${CONSTRAINT}` },
  ];
  for (let turn = 0; turn < 40; turn++) {
    messages.push({
      role: 'assistant',
      content: `Step ${turn}: checking the build logs for the billing service, everything looks normal so far and the tests keep passing.`,
      toolCalls: [
        { id: `call_${turn}`, name: 'bash', arguments: JSON.stringify({ command: `cat logs/build-${turn}.log` }) },
      ],
    });
    messages.push({
      role: 'tool',
      toolCallId: `call_${turn}`,
      content: `build ${turn} ok: compiled 120 modules, 0 warnings, artifacts stored in the usual place after a long and uneventful run.`,
    });
  }
  messages.push({
    role: 'assistant',
    content: `Now I will make sure nothing points at ${REPLICA} before the migration.`,
  });
  return messages;
}

describe('quality metrics on a fixture transcript', () => {
  const counter = createO200kCounter();
  const messages = fixture();
  const budget = 1000;

  it('finds the future-needed handle and the user constraint', () => {
    const timeline = handleTimeline(messageHandles(messages));
    expect(timeline.futureNeeded(messages.length - 1)).toContain(REPLICA);
    expect(timeline.futureNeeded(messages.length)).toEqual([]);
    expect(timeline.constraintsBefore(1)).toEqual([CONSTRAINT]);
  });

  it('trim drops the early handle and constraint; context-ledger keeps both', async () => {
    const timeline = handleTimeline(messageHandles(messages));
    const tallies = createTallies();
    const arms = [createLangChainTrimArm(counter), createAiSdkPruneArm(counter)];
    const evaluator = createPointEvaluator({ messages, timeline, budget, arms, tallies });
    const at = messages.length - 1;
    const { session } = await replayLedger('fixture', messages, {
      budget,
      every: 0,
      counter,
      forcedPoints: [at],
      onPoint: (point) => (point.at === at ? evaluator.evaluate(point) : Promise.resolve()),
    });
    expect(session.records().filter((record) => record.type === 'summary').length).toBeGreaterThan(0);
    const trimmed = await arms[0]?.render(messages.slice(0, at), budget);
    expect(trimmed).not.toContain(REPLICA);
    expect(tallyShare(tallies.needed.get(LEDGER))).toBe(1);
    expect(tallyShare(tallies.needed.get(arms[0]?.name ?? ''))).toBeLessThan(1);
    expect(tallyShare(tallies.needed.get(arms[1]?.name ?? ''))).toBeLessThan(1);
    expect(tallyShare(tallies.neededViaRecall)).toBe(1);
    expect(tallyShare(tallies.constraints.get(LEDGER))).toBe(1);
    expect(tallyShare(tallies.constraints.get(arms[0]?.name ?? ''))).toBe(0);
    expect(tallies.constraints.get(SUMMARY_ONLY)?.total).toBe(1);
  });

  it('records handle survival by generation for context-ledger and summary-only', async () => {
    const timeline = handleTimeline(messageHandles(messages));
    const tallies = createTallies();
    const evaluator = createPointEvaluator({ messages, timeline, budget, arms: [], tallies });
    await replayLedger('fixture', messages, {
      budget,
      every: 0,
      counter,
      onPoint: (point) => evaluator.evaluate(point),
    });
    const ledgerFirst = tallies.survival.get(`${LEDGER} (window + checkpoint)`)?.[0];
    expect(ledgerFirst?.total).toBeGreaterThan(0);
    expect(ledgerFirst?.hit).toBe(ledgerFirst?.total);
    expect(tallies.survival.get(SUMMARY_ONLY)?.[0]?.total).toBe(ledgerFirst?.total);
  });

  it('reports every recall of an unstored handle as a gap', async () => {
    const result = await measureGapHonesty(
      [
        {
          id: 'fixture',
          messages: [messages[0] as TranscriptMessage, ...messages.slice(1, 4), ...messages.slice(-1)],
          compactions: [
            { atMessage: 4, summary: 'The user asked for a deployment.', summarizer: { name: 'test', version: '1' } },
          ],
        },
      ],
      createApproximateCounter(),
    );
    expect(result.total).toBeGreaterThan(0);
    expect(result.share).toBe(1);
  });
});

describe('retrieval and reporting helpers', () => {
  it('BM25 ranks the turn sharing rare terms first, and recall@k counts evidence', () => {
    const index = createBm25Index([
      { label: 'D1:1', text: 'We went hiking in the mountains last weekend.' },
      { label: 'D1:2', text: 'I adopted a greyhound named Pixel from the shelter.' },
      { label: 'D1:3', text: 'The weekend was sunny and we went to the beach.' },
    ]);
    expect(index.search('What is the name of the greyhound?', 1)).toEqual(['D1:2']);
    expect(recallAt(['D1:2', 'D1:1'], ['D1:2', 'D1:3'])).toBe(0.5);
  });

  it('says by how much a target is missed, and never turns "not measured" into a zero', () => {
    expect(atLeast('x', 0.8, 0.95)).toMatchObject({ met: false, by: expect.stringContaining('0.150 below') });
    expect(atMost('y', 3, 1.5)).toMatchObject({ met: false, by: expect.stringContaining('2.00x') });
    expect(atLeast('z', null, 1)).toMatchObject({ met: null, measured: null });
    const markdown = renderReport([
      {
        name: 'n',
        title: 'T',
        date: '2025-01-01T00:00:00Z',
        quick: true,
        machine: { cpu: 'c', cores: 2, memoryGiB: 1, os: 'linux', node: 'v20' },
        notes: [],
        tables: [{ title: 'tt', columns: ['a'], rows: [[1.23456]] }],
        targets: [atLeast('x', 0.8, 0.95)],
      },
    ]);
    expect(markdown).toContain('| 1.235 |');
    expect(markdown).toContain('MISSED');
  });

  it('parses the runner arguments', () => {
    const args = parseBenchArguments(
      ['--only', 'speed-ingest,quality-locomo', '--quick', '--data', 'elsewhere'],
      '/work/x',
    );
    expect(args).toMatchObject({ only: ['speed-ingest', 'quality-locomo'], quick: true, dataDir: '/work/x/elsewhere' });
    expect(() => parseBenchArguments(['--bogus'])).toThrow(/unknown argument/);
    // Results kept in another folder report there: the recorded bench/RESULTS.md is rebuilt only from bench/results.
    expect(parseBenchArguments(['real-replay', '--out', '/tmp/elsewhere'], '/work/x')).toMatchObject({
      reportFile: '/tmp/elsewhere/RESULTS.md',
      readmeFile: undefined,
    });
    expect(parseBenchArguments(['real-replay'], '/work/x').reportFile).toBe('/work/x/bench/RESULTS.md');
  });

  it('says a missing data set is missing instead of reporting numbers', async () => {
    const tempDir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
    try {
      const result = await runLocomoQuality(
        createBenchContext({ dataDir: join(tempDir, 'nowhere'), tempDir, log: () => undefined }),
      );
      expect(result.notes[0]).toMatch(/^MISSING/);
      expect(result.tables).toEqual([]);
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
  });
});
