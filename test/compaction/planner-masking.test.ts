import { describe, expect, it } from 'vitest';
import { planRefill } from '../../src/compaction/planner.js';
import { resolveWindowConfig } from '../../src/session/config.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { memoryLedger } from '../helpers.js';

describe('planRefill with masking', () => {
  it('keeps an old bulky tool result the render would mask instead of cutting past it', async () => {
    const session = await memoryLedger().session('plan');
    const small = (index: number): TranscriptMessage => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: `turn ${index}`,
    });
    const messages: TranscriptMessage[] = [
      ...Array.from({ length: 5 }, (_, index) => small(index)),
      {
        role: 'assistant',
        content: 'reading',
        toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"cat"}' }],
      },
      { role: 'tool', toolCallId: 'c1', content: 'a large file dump' },
      ...Array.from({ length: 10 }, (_, index) => small(index + 5)),
    ];
    const originals = await session.append(messages);
    const resultIndex = originals.findIndex((occurrence) => occurrence.span.kind === 'tool-result');
    const costs = originals.map((_, index) => (index === resultIndex ? 3000 : 100));
    const config = resolveWindowConfig('plan', { maxTokens: 4000, targetFill: 0.85 });
    const input = {
      originals,
      costs,
      regionHandles: [],
      carriedHandles: [],
      fixedTokens: 200,
      summaryTokens: 100,
      config,
    };
    const unmasked = planRefill(input);
    expect(unmasked.boundary).toBeGreaterThan(resultIndex);
    const policy = {
      fitTokens: 3600,
      targetTokens: 3400,
      minTokens: 200,
      protectRecentTokens: 1000,
      stepFloorTokens: Number.POSITIVE_INFINITY,
    };
    const masked = planRefill({ ...input, masking: { policy, stubCost: () => 50 } });
    expect(masked.boundary).toBeLessThan(resultIndex);
    // Expected: fixed 200 + summary 100 + the kept turns with the result as its 50-token stub.
    const kept = costs.slice(masked.boundary).reduce((sum, cost) => sum + cost, 0) - 3000 + 50;
    expect(masked.expectedTokens).toBe(300 + kept);
    expect(Math.abs(masked.expectedTokens - 3200)).toBeLessThan(Math.abs(unmasked.expectedTokens - 3200));
  });
});

describe('planRefill and the last turn', () => {
  it('keeps the answer to the last tool call in the window when handles compete for the room', async () => {
    const session = await memoryLedger().session('last-turn', { window: { maxTokens: 2000 } });
    for (let index = 0; index < 60; index++)
      await session.append({
        role: 'user',
        content: `Check worker_pool_${index}, queue-${index}-eu and /srv/app/shard_${index}/config.yaml next.`,
      });
    const answer = Array.from({ length: 62 }, (_, index) => `line ${index} of the status report`).join('\n');
    await session.append([
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_last', name: 'status', arguments: '{}' }],
      },
      { role: 'tool', toolCallId: 'call_last', content: `REPORT-MARKER\n${answer}` },
    ]);
    const rendered = await session.render();
    expect(session.records().some((record) => record.type === 'summary')).toBe(true);
    expect(rendered.tokens).toBeLessThanOrEqual(2000);
    expect(rendered.text).toContain('REPORT-MARKER');
    expect(rendered.text).toContain('line 61 of the status report');
  });
});

describe('planRefill and spilled handles that compete again', () => {
  it('gives the room left under the target to them, without moving the boundary or passing the target', async () => {
    const session = await memoryLedger().session('returning');
    const originals = await session.append(
      Array.from({ length: 6 }, (_, index): TranscriptMessage => ({
        role: index % 2 === 0 ? 'user' : 'assistant',
        content: `turn ${index}`,
      })),
    );
    const handle = (index: number) => ({
      kind: 'identifier' as const,
      text: `spilled_name_${index}`,
      key: `spilled_name_${index}`,
      start: 0,
      end: 15,
      spanId: originals[0]?.spanId ?? '',
      seq: originals[0]?.seq ?? 0,
      role: 'tool' as const,
      tokens: 5,
    });
    const config = resolveWindowConfig('returning', { maxTokens: 4000 });
    const input = {
      originals,
      costs: originals.map(() => 100),
      regionHandles: [handle(-1)],
      carriedHandles: [],
      fixedTokens: 200,
      summaryTokens: 100,
      config,
    };
    const alone = planRefill(input);
    const target = Math.floor(config.targetFill * config.maxTokens);
    const many = planRefill({ ...input, returningHandles: Array.from({ length: 2000 }, (_, index) => handle(index)) });
    expect(many.boundary).toBe(alone.boundary);
    expect(many.handleBudgetTokens).toBeGreaterThan(alone.handleBudgetTokens);
    expect(many.expectedTokens).toBeGreaterThan(alone.expectedTokens);
    expect(many.expectedTokens).toBeLessThanOrEqual(target);
    // A few spilled handles get what they need, not the whole room.
    const few = planRefill({ ...input, returningHandles: [handle(1), handle(2)] });
    expect(few.expectedTokens - alone.expectedTokens).toBeLessThanOrEqual(2 * 6);
  });
});
