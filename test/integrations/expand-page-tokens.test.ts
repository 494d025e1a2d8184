/**
 * An expand page holds about its token cap as the model reads it (JSON), also when the originals are short: each
 * original's fields (a span id alone is about 40 tokens) are counted, not guessed at a few tokens.
 */
import { describe, expect, it } from 'vitest';
import { expandOriginals } from '../../src/integrations/drill-down.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { memoryLedger } from '../helpers.js';

describe('expand page tokens', () => {
  it('a page of many short originals stays near its cap, and says how many tokens it holds', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('short-turns', { window: { maxTokens: 200_000 } });
    const turns: TranscriptMessage[] = Array.from({ length: 700 }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: index % 2 === 0 ? `next ${index}` : 'ok',
    }));
    await session.append(turns);
    const cap = 4000;
    const view = await expandOriginals(ledger.store, ledger.counter, 'short-turns', { fromSeq: 0, maxTokens: cap });
    expect(view.originals.length).toBeGreaterThan(10);
    expect(view.nextSeq).toBeDefined();
    const shown = ledger.counter.count(JSON.stringify(view.originals));
    expect(shown).toBeLessThanOrEqual(cap * 1.1);
    expect(Math.abs(shown - view.tokens)).toBeLessThanOrEqual(cap * 0.1);
  });
});
