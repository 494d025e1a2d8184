/**
 * The audit's progress follows the text it replays (issue 38: its ETA said 6 s for a 2 m 21 s run): the replay phase
 * reports characters appended of the conversation's total, so a transcript whose first message is most of its text is
 * mostly done once that message is in, and the progress is monotone and ends at the total.
 */
import { describe, expect, it } from 'vitest';
import type { CollectedSession } from '../../src/audit/collect.js';
import { buildTimeline, itemWeight } from '../../src/audit/timeline.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';

const big = 'deploy log line with nothing of note\n'.repeat(400);

const collected: CollectedSession = {
  sessionId: 'progress',
  items: [
    { type: 'message', message: { role: 'user', content: big } },
    ...Array.from({ length: 9 }, (_, index) => ({
      type: 'message' as const,
      message: { role: 'assistant' as const, content: `step ${index} done` },
    })),
    { type: 'compaction', summary: 'done so far', summarizer: { name: 'claude-code', version: '2' }, label: null },
    {
      type: 'message',
      message: {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"ls -la /srv/exports"}' }],
      },
    },
  ],
};

describe("the audit's replay progress", () => {
  it('weighs each message by its characters (tool-call arguments too), a compaction by nothing', () => {
    expect(itemWeight(collected.items[0]!)).toBe(big.length);
    expect(itemWeight(collected.items[10]!)).toBe(0);
    expect(itemWeight(collected.items[11]!)).toBe('Bash'.length + '{"command":"ls -la /srv/exports"}'.length);
    expect(itemWeight({ type: 'message', message: { role: 'user', content: '' } })).toBe(1);
  });

  it('reports characters done of the total: past 90% after the one big message, ending at the total', async () => {
    const reports: [number, number][] = [];
    await buildTimeline(collected, {
      mode: 'agent',
      maxTokens: 8000,
      counter: createO200kCounter(),
      onMessage: (done, total) => reports.push([done, total]),
    });
    expect(reports).toHaveLength(11);
    const [first] = reports;
    expect(first![0] / first![1]).toBeGreaterThan(0.9);
    const total = collected.items.reduce((sum, item) => sum + itemWeight(item), 0);
    expect(reports.every(([, of]) => of === total)).toBe(true);
    expect(reports.at(-1)?.[0]).toBe(total);
    expect(reports.every(([done], index) => index === 0 || done > reports[index - 1]![0])).toBe(true);
  });
});
