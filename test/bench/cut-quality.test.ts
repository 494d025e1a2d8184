import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { QUICK_OUT, parseBenchArguments } from '../../bench/cli-args.js';
import { selectBenchmarks } from '../../bench/registry.js';
import { ARMS, CUT_BUDGETS, cutsOf, inWindowTarget, measureCuts } from '../../bench/quality/cut-quality.js';
import { replayToCut, shownIndexHandles, withoutHandleIndex } from '../../bench/quality/public-replay.js';

const HOST = 'db-replica-07.internal';

function transcript(): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [
    { role: 'user', content: `Migrate the billing schema; the replica is ${HOST}.` },
  ];
  for (let turn = 0; turn < 40; turn++) {
    messages.push({
      role: 'assistant',
      content: `Step ${turn}: reading the logs, nothing unusual in this part of the long build output.`,
      toolCalls: [
        { id: `call_${turn}`, name: 'bash', arguments: JSON.stringify({ command: `cat logs/build-${turn}.log` }) },
      ],
    });
    messages.push({
      role: 'tool',
      toolCallId: `call_${turn}`,
      content: `build ${turn} ok: compiled 120 modules with no warnings after a long and uneventful run of the pipeline.`,
    });
  }
  messages.push({ role: 'assistant', content: `Now checking that nothing points at ${HOST}.` });
  return messages;
}

describe('in-window targets', () => {
  it('are the ones of issue 11: Claude Code 0.75 / 0.90, SWE-agent 0.95 / 0.98 at 4k / 8k', () => {
    expect([4000, 8000].map((budget) => inWindowTarget('claude-code', budget as 4000 | 8000))).toEqual([0.75, 0.9]);
    expect([4000, 8000].map((budget) => inWindowTarget('swe-agent', budget as 4000 | 8000))).toEqual([0.95, 0.98]);
    for (const budget of CUT_BUDGETS) expect(inWindowTarget('swe-agent', budget)).toBeGreaterThan(0.9);
  });
});

describe('cut points', () => {
  const messages = transcript();
  it('cuts a Claude Code session at its own compaction and a SWE-agent trajectory at 60%', () => {
    const compactions = [{ atMessage: 30, summary: 'own summary', summarizer: { name: 'claude-code', version: '2' } }];
    expect(
      cutsOf('claude-code', [
        { id: 'a', messages, compactions },
        { id: 'b', messages, compactions: [] },
      ]),
    ).toEqual([{ id: 'a', messages, at: 30, ownSummary: 'own summary' }]);
    expect(cutsOf('swe-agent', [{ id: 'c', messages, compactions }])[0]).toMatchObject({
      at: Math.floor(messages.length * 0.6),
      ownSummary: undefined,
    });
  });

  it('the ledger keeps the early host in the window where trim has dropped it', async () => {
    const counter = createO200kCounter();
    const cut = {
      id: 's',
      messages,
      at: messages.length - 1,
      ownSummary: 'The user wants the billing schema migrated.',
    };
    const measure = await measureCuts([cut], 1000, counter, () => undefined);
    expect(measure.arms.get(ARMS.ledger)).toMatchObject({ present: 1, needed: 1 });
    expect(measure.arms.get(ARMS.trim)).toMatchObject({ present: 0, needed: 1 });
    expect(measure.arms.get(ARMS.ownSummaryAlone)).toMatchObject({ present: 0, needed: 1 });
    expect(measure.viaRecall).toEqual({ hit: 1, total: 1 });
    expect(measure.gaps).toEqual({ cutsWithGaps: 0, gapsListed: 0, cuts: 1 });
  });

  it('the summary-without-index arm keeps the summary prose and drops the index', async () => {
    const replayed = await replayToCut('s', messages.slice(0, -1), 1000, createO200kCounter());
    const summary = replayed.session.activeRecord()?.summary ?? '';
    expect(summary.length).toBeGreaterThan(0);
    const text = withoutHandleIndex(replayed);
    expect(text).toContain(`Summary: ${summary}`);
    expect(shownIndexHandles(replayed)).toContain(HOST);
    expect(text.includes(HOST)).toBe(
      summary.includes(HOST) ||
        replayed.rendered.messages.some((message) => message.source === 'original' && message.content.includes(HOST)),
    );
  });
});

describe('runner selection', () => {
  it('a name selects itself and its NAME-* group; nothing selects all', () => {
    const names = ['quality-claude-code', 'quality-swe-agent', 'speed-ingest', 'handles-quality'];
    expect(selectBenchmarks(names, ['quality'])).toEqual(['quality-claude-code', 'quality-swe-agent']);
    expect(selectBenchmarks(names, ['handles-quality'])).toEqual(['handles-quality']);
    expect(selectBenchmarks(names, ['speed'])).toEqual(['speed-ingest']);
    expect(selectBenchmarks(names, [])).toEqual(names);
    expect(selectBenchmarks(names, ['nothing'])).toEqual([]);
  });

  it('takes positional names, and a --quick run writes outside bench/results by default', () => {
    const args = parseBenchArguments(['quality', '--quick'], '/work/x');
    expect(args).toMatchObject({ only: ['quality'], quick: true, outDir: `/work/x/${QUICK_OUT}` });
    expect(parseBenchArguments(['quality'], '/work/x').outDir).toBe('/work/x/bench/results');
  });
});
