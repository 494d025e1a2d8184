import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/index.js';
import { futureNeeded } from '../../bench/quality/future-needed.js';
import { neededAt, neededTimeline } from '../../bench/quality/needed-timeline.js';
import { findDataSet, loadTranscripts } from '../../bench/data-sets.js';
import { DATA } from '../data-dir.js';

const messages: TranscriptMessage[] = [
  { role: 'system', content: 'You work in /repo.' },
  { role: 'user', content: 'The bug is in src/parser.ts, see https://example.org/issue/12 and set LOG_LEVEL=debug.' },
  {
    role: 'assistant',
    content: 'Reading src/parser.ts first.',
    toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"cmd":"cat /repo/src/parser.ts"}' }],
  },
  { role: 'tool', content: 'def parse_v2(): raise ValueError', toolCallId: 'c1' },
  { role: 'assistant', content: 'parse_v2 raises; LOG_LEVEL=debug shows it. Fixing src/parser.ts.' },
  { role: 'user', content: 'Also check eu-west-2b.' },
  { role: 'assistant', content: 'eu-west-2b is fine; https://example.org/issue/12 is closed by parse_v2 fix.' },
];

const sorted = (values: readonly string[]) => [...values].sort();

describe('neededTimeline', () => {
  it('gives the same set as futureNeeded at every cut', () => {
    const timeline = neededTimeline(messages);
    for (let cut = 0; cut <= messages.length; cut++)
      expect(sorted(neededAt(timeline, cut)), `cut ${cut}`).toEqual(sorted(futureNeeded(messages, cut)));
    expect(sorted(neededAt(timeline, 4))).toEqual(
      sorted(['src/parser.ts', 'parse_v2', 'LOG_LEVEL=debug', 'https://example.org/issue/12']),
    );
  });

  it.skipIf(!DATA)('gives the same set as futureNeeded on a real trajectory', async () => {
    const dataSet = await findDataSet(DATA as string, 'swe-agent');
    const [trajectory] = await loadTranscripts({ ...dataSet, files: dataSet.files.slice(0, 1) });
    const real = (trajectory as { messages: readonly TranscriptMessage[] }).messages;
    const timeline = neededTimeline(real);
    for (let cut = 1; cut < real.length; cut += 7)
      expect(sorted(neededAt(timeline, cut)), `cut ${cut}`).toEqual(sorted(futureNeeded(real, cut)));
  });
});
