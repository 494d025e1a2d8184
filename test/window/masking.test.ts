import { describe, expect, it } from 'vitest';
import { originalsToPrompt } from '../../src/integrations/ai-sdk/rendered-to-prompt.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { shortSpanId } from '../../src/model/span.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../../src/window/window.js';
import { memoryLedger, SEED_OPENING } from '../helpers.js';

const counter = createO200kCounter();

/** Rounds of a short assistant turn, a tool call and a bulky tool result full of handles. */
function bulkyRounds(rounds: number, start = 0): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let round = start; round < start + rounds; round++) {
    const id = `read_${round}`;
    messages.push({
      role: 'assistant',
      content: `Reading shard ${round}.`,
      toolCalls: [{ id, name: 'read_file', arguments: JSON.stringify({ path: `logs/shard_${round}.log` }) }],
    });
    const lines = Array.from(
      { length: 14 },
      (_, line) =>
        `shard ${round} line ${line}: worker ip-10-1-${round}-${line} served /api/v2/orders/${round * 100 + line} in ${(line * 37) % 500}ms`,
    );
    messages.push({
      role: 'tool',
      toolCallId: id,
      toolName: 'read_file',
      content: [`ERROR_CODE=E${4000 + round} in src/shards/shard_${round}.ts`, ...lines].join('\n'),
    });
  }
  return messages;
}

const measured = (messages: readonly { content: string }[]) =>
  messages.reduce((sum, message) => sum + counter.count(message.content) + MESSAGE_OVERHEAD_TOKENS, 0);

describe('observation masking: the lossless step before any summary', () => {
  it('masks old bulky tool results and writes no record when that suffices; the stub names span id, size and handles', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('mask', { window: { maxTokens: 8000 } });
    await session.append(SEED_OPENING);
    let context = await session.render();
    let round = 0;
    while (!context.messages.some((message) => message.masked)) {
      await session.append(bulkyRounds(1, round++));
      context = await session.render();
      expect(round).toBeLessThan(60);
    }
    expect(await ledger.store.records('mask')).toEqual([]);
    expect(context.tokens).toBeLessThanOrEqual(session.config.compactAt * 8000);
    const stub = context.messages.find((message) => message.masked);
    expect(stub?.role).toBe('tool');
    expect(stub?.toolCallId).toBe('read_0');
    expect(stub?.content).toMatch(
      /^\[tool result id=read_0\] \[masked: \d+ tokens of tool output; top handles: [^\]]+; recall "sha256:/,
    );
    expect(stub?.content).toContain(`recall "${shortSpanId(stub?.spanId ?? '?')}" to read it verbatim`);
    expect(stub?.content).not.toContain(stub?.spanId ?? '?');
    expect(stub?.content).toContain('src/shards/shard_0.ts');
    const last = context.messages[context.messages.length - 1];
    expect(last?.masked).toBeUndefined();
    expect(measured(context.messages)).toBeLessThanOrEqual(context.tokens);
  });

  it('is reversible: recalling the span id named in a stub returns the original verbatim and verified', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('rev', { window: { maxTokens: 8000 } });
    const transcript = bulkyRounds(24);
    await session.append(transcript);
    const context = await session.render();
    const stub = context.messages.find((message) => message.masked);
    expect(stub).toBeDefined();
    const shown = /recall "(sha256:[0-9a-f]{12})"/.exec(stub?.content ?? '')?.[1] ?? '';
    expect(stub?.spanId?.startsWith(shown)).toBe(true);
    const result = await session.recall(shown);
    expect(result.status).toBe('verified');
    expect(result.results[0]?.text).toBe(
      transcript.find((message) => message.toolCallId === stub?.toolCallId && message.role === 'tool')?.content,
    );
  });

  it('keeps a masked result a tool message paired with its call for providers', async () => {
    const session = await memoryLedger().session('pair', { window: { maxTokens: 8000 } });
    await session.append(bulkyRounds(24));
    const context = await session.render();
    const stub = context.messages.find((message) => message.masked);
    const prompt = originalsToPrompt(context);
    const parts = prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
    const part = parts.find(
      (candidate) => candidate.type === 'tool-result' && candidate.toolCallId === stub?.toolCallId,
    );
    expect(part).toBeDefined();
    expect(part?.type === 'tool-result' && part.output.type === 'text' ? part.output.value : '').toContain('[masked: ');
  });

  it('is deterministic: a replay from the store with the same window options masks the same results', async () => {
    const ledger = memoryLedger();
    const window = { maxTokens: 8000 };
    const session = await ledger.session('det', { window });
    for (let round = 0; round < 40; round += 4) {
      await session.append(bulkyRounds(4, round));
      const context = await session.render();
      expect(context.tokens).toBeLessThanOrEqual(8000);
      expect(measured(context.messages)).toBeLessThanOrEqual(8000);
      expect((await ledger.replayWindow('det', { window })).text).toBe(context.text);
    }
    const reopened = await ledger.session('det', { window });
    expect(reopened.peek().text).toBe((await session.render()).text);
  });

  it('masks nothing when maskToolResults is false: the same transcript compacts instead', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('off', { window: { maxTokens: 8000, maskToolResults: false } });
    await session.append(bulkyRounds(24));
    const context = await session.render();
    expect(context.messages.some((message) => message.masked)).toBe(false);
    expect((await ledger.store.records('off')).length).toBeGreaterThan(0);
  });
});

describe('budget use after a compaction', () => {
  /** Plain chat turns of ~60 tokens each: no tool pairs, so any boundary is allowed. */
  function chat(turns: number, start = 0): TranscriptMessage[] {
    return Array.from({ length: turns }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Turn ${start + index}: the checkout service answered from pod checkout-${start + index} in ${(start + index) * 11}ms; nothing else changed in the rollout plan for this step, and the queue stayed flat.`,
    }));
  }

  it('refills the window to targetFill of maxTokens, within two messages, once the summary length is known', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('fill', { window: { maxTokens: 4000 } });
    let round = 0;
    let fills = 0;
    while (fills < 4) {
      const before = session.records().length;
      await session.append(chat(2, round));
      round += 2;
      const context = await session.render();
      if (session.records().length > before) {
        fills++;
        // The first compaction assumes a summary as long as its budget; later ones expect one as long as the last.
        if (fills === 1) continue;
        const largest = Math.max(
          ...context.messages
            .filter((message) => message.source === 'original')
            .map((message) => counter.count(message.content) + MESSAGE_OVERHEAD_TOKENS),
        );
        // The ledger block is estimated before the record exists (measured here: +0 to +67 with 40-token messages).
        expect(Math.abs(context.tokens - session.config.targetFill * 4000)).toBeLessThanOrEqual(2 * largest);
      }
      expect(round).toBeLessThan(1000);
    }
  });

  it('keeps an explicit keepRecentTokens, handleBudgetTokens and summaryBudgetTokens', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('explicit', {
      window: { maxTokens: 4000, keepRecentTokens: 500, handleBudgetTokens: 300, summaryBudgetTokens: 200 },
    });
    expect(session.config.adaptiveHandleBudget).toBe(false);
    await session.append(SEED_OPENING);
    let round = 0;
    while (session.records().length === 0) {
      await session.append(chat(2, round));
      round += 2;
      await session.render();
    }
    const context = session.peek();
    const recent = context.messages
      .filter((message) => message.source === 'original')
      .reduce((sum, message) => sum + counter.count(message.content) + MESSAGE_OVERHEAD_TOKENS, 0);
    expect(recent).toBeLessThanOrEqual(500);
    const active = session.activeRecord();
    expect(active?.summaryTokens).toBeLessThanOrEqual(200);
    // The handle sections as rendered (pinned, quoted, index), measured by the counter: within the explicit budget.
    const block = context.messages.find((message) => message.source === 'ledger')?.content ?? '';
    // The frozen index comes before the compaction line and summary, the entries added since it after them.
    const start = block.search(/^(Pinned constraints|Constraints quoted|Handle index)/m);
    const summaryStart = block.search(/^(Earlier turns|History from before)/m);
    const end = block.search(/^(\d+ more handles are in checkpoint|To get an original)/m);
    const since = block.search(
      /^(Pinned constraints added since|Constraints quoted from tool output added|Handles added)/m,
    );
    expect(start).toBeGreaterThan(0);
    expect(summaryStart).toBeGreaterThan(start);
    const sections = block.slice(start, summaryStart) + (since > 0 ? block.slice(since, end) : '');
    expect(counter.count(sections)).toBeLessThanOrEqual(300);
  });

  it('lets an adaptive handle budget grow past handleBudgetTokens when the region holds more handles', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('grow', { window: { maxTokens: 4000, maskToolResults: false } });
    expect(session.config.adaptiveHandleBudget).toBe(true);
    await session.append(bulkyRounds(12));
    await session.render();
    const active = session.activeRecord();
    const handleCost = (active?.handles ?? []).reduce(
      (sum, handle) => sum + handle.tokens + (handle.kind === 'constraint' ? 12 : 2),
      0,
    );
    expect(handleCost).toBeGreaterThan(session.config.handleBudgetTokens);
    expect((await session.render()).tokens).toBeLessThanOrEqual(4000);
  });
});
