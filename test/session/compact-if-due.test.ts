import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { LedgerSession } from '../../src/session/session.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { COUNT_CACHE_ENTRIES } from '../../src/tokens/count-cache.js';
import { renderWindow } from '../../src/window/window.js';
import { WindowMemo } from '../../src/window/window-memo.js';
import { fillerTurns, memoryLedger, SEED_OPENING } from '../helpers.js';

/** A tool call and a bulky result (masked once old), then a short comment. */
function bulkyRound(round: number): TranscriptMessage[] {
  const id = `read_${round}`;
  const lines = Array.from(
    { length: 16 },
    (_, line) =>
      `shard ${round} line ${line}: worker ip-10-2-${round}-${line} served /api/v3/items/${round * 50 + line}`,
  );
  return [
    {
      role: 'assistant',
      content: `Reading shard ${round}.`,
      toolCalls: [{ id, name: 'read_file', arguments: JSON.stringify({ path: `logs/shard_${round}.log` }) }],
    },
    {
      role: 'tool',
      toolCallId: id,
      toolName: 'read_file',
      content: [`ERROR_CODE=E${5000 + round}`, ...lines].join('\n'),
    },
    { role: 'assistant', content: `Shard ${round} looks like the others.` },
  ];
}

/** Agent-loop batches: filler and bulky rounds, a user turn now and then. */
function batches(): TranscriptMessage[][] {
  const out: TranscriptMessage[][] = [[SEED_OPENING]];
  for (let round = 0; round < 40; round++) {
    out.push(round % 3 === 0 ? fillerTurns(1, round) : bulkyRound(round));
    if (round % 7 === 6) out.push([{ role: 'user', content: `Keep going; next look at region ${round}.` }]);
  }
  return out;
}

async function sessionPair(): Promise<{ rendering: LedgerSession; checking: LedgerSession }> {
  const options = {
    systemPrompt: 'You are a careful on-call agent.',
    window: { maxTokens: 3000, compactAt: 0.8 },
  };
  return {
    rendering: await memoryLedger().session('due', options),
    checking: await memoryLedger().session('due', options),
  };
}

describe('LedgerSession.compactIfDue', () => {
  it('compacts exactly where render() would: same records, spans and context after every batch', async () => {
    const { rendering, checking } = await sessionPair();
    let maskedWithoutCompaction = false;
    for (const [index, batch] of batches().entries()) {
      await rendering.append(batch);
      await checking.append(batch);
      const before = rendering.records().length;
      const context = await rendering.render();
      if (rendering.records().length === before && context.messages.some((message) => message.masked))
        maskedWithoutCompaction = true;
      await checking.compactIfDue();
      expect(checking.records().map((record) => record.id)).toEqual(rendering.records().map((record) => record.id));
      if (index === 20) {
        const summary = {
          summary: 'The agent read shards 0-19; nothing failed.',
          summarizer: { name: 't', version: '1' },
        };
        await rendering.importExternalSummary(summary);
        await checking.importExternalSummary(summary);
      }
    }
    expect(rendering.records().filter((record) => record.type === 'summary').length).toBeGreaterThan(2);
    expect(maskedWithoutCompaction).toBe(true);
    expect(checking.records()).toEqual(rendering.records());
    expect(checking.handleIndex()).toEqual(rendering.handleIndex());
    const [expected, actual] = [await rendering.render(), await checking.render()];
    expect(actual.text).toBe(expected.text);
    expect(actual.tokens).toBe(expected.tokens);
  });

  it('writes nothing while the window is within compactAt', async () => {
    const { checking } = await sessionPair();
    await checking.append(SEED_OPENING);
    await checking.compactIfDue();
    expect(checking.records()).toEqual([]);
    expect((await checking.render()).messages.some((message) => message.masked)).toBe(false);
  });
});

describe('token-count cache of a render', () => {
  const counter = createO200kCounter();

  it('keys a long ledger block or system prompt by its digest, not its text', () => {
    const memo = new WindowMemo();
    const cache = memo.textTokens;
    const systemPrompt = 'Follow the runbook step by step. '.repeat(400);
    const first = renderWindow({ systemPrompt, gaps: [], originals: [] }, counter, memo);
    expect(Math.max(...[...cache.keys()].map((key) => key.length))).toBeLessThan(100);
    expect(renderWindow({ systemPrompt, gaps: [], originals: [] }, counter, memo).tokens).toBe(first.tokens);
    expect(first.tokens).toBe(counter.count(systemPrompt) + 4);
  });

  it('holds at most COUNT_CACHE_ENTRIES entries', () => {
    const memo = new WindowMemo();
    const cache = memo.textTokens;
    for (let index = 0; index < COUNT_CACHE_ENTRIES; index++) cache.set(`filler ${index}`, index);
    renderWindow({ systemPrompt: 'A new prompt to count.', gaps: [], originals: [] }, counter, memo);
    expect(cache.size).toBeLessThanOrEqual(COUNT_CACHE_ENTRIES);
    expect(cache.size).toBeGreaterThan(0);
  });
});
