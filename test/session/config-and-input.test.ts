import { describe, expect, it } from 'vitest';
import type { LedgerError } from '../../src/errors.js';
import { InvalidConfigError, InvalidInputError } from '../../src/errors.js';
import { memoryLedger } from '../helpers.js';

describe('configuration and bad input', () => {
  it('rejects budgets that cannot fit maxTokens, naming the session and the numbers', async () => {
    const ledger = memoryLedger();
    const error = await ledger
      .session('cfg', { window: { maxTokens: 500, handleBudgetTokens: 400 } })
      .catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as LedgerError).message).toContain('Session cfg');
    expect((error as LedgerError).message).toContain('maxTokens 500');
  });

  it('rejects compactAt outside (0, 1]', async () => {
    const error = await memoryLedger()
      .session('cfg2', { window: { compactAt: 1.5 } })
      .catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
  });

  it('rejects minRecentShare outside [0, 1), naming the field', async () => {
    const error = await memoryLedger()
      .session('cfg3', { window: { minRecentShare: 1 } })
      .catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as LedgerError).message).toContain('minRecentShare must be in [0, 1)');
  });

  it('rejects bad ranking weights, naming the session and every bad field', async () => {
    const error = await memoryLedger()
      .session('rank', {
        ranking: { recency: Number.NaN, recencyHalfLifeSeqs: 0, kind: { path: 2, nope: 1 } as never },
      })
      .catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    const message = (error as LedgerError).message;
    expect(message).toContain('Session rank');
    expect(message).toContain('ranking.recency must be a finite number');
    expect(message).toContain('ranking.recencyHalfLifeSeqs must be positive');
    expect(message).toContain('ranking.kind.nope is not a handle kind');
    expect(message).not.toContain('ranking.kind.path');
  });

  it('rejects a malformed message naming the field, and writes nothing of that append', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('bad');
    await session.append({ role: 'user', content: 'first' });
    const error = await session
      .append([{ role: 'user', content: 'ok' }, { role: 'tool', content: 'no id' } as never])
      .catch((caught: unknown) => caught);
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('toolCallId');
    expect(await ledger.store.nextSeq('bad')).toBe(1);
  });

  it('rejects text with a lone surrogate, which could not be stored verbatim', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('surrogate');
    const error = await session
      .append({ role: 'user', content: 'broken \uD800 text' })
      .catch((caught: unknown) => caught);
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('lone UTF-16 surrogate');
    expect(await ledger.store.nextSeq('surrogate')).toBe(0);
  });

  it('does not index the JSON keys of tool-call arguments as identifiers', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('keys');
    await session.append({
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'e1', name: 'edit', arguments: '{"file_path":"src/app_main.ts","old_string":"retry_count = 3"}' },
      ],
    });
    const texts = (await ledger.store.handles('keys')).map((handle) => handle.text);
    expect(texts).not.toContain('file_path');
    expect(texts).not.toContain('old_string');
    expect(texts).toContain('src/app_main.ts');
  });

  it('rejects an empty recall query', async () => {
    const session = await memoryLedger().session('q');
    await expect(session.recall('  ')).rejects.toThrow(/non-empty query/);
  });

  it('chunks a huge tool result so no span exceeds maxSpanTokens, and still fits the window', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('huge', { window: { maxTokens: 2000 } });
    await session.append({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'h', name: 'cat', arguments: '{"path":"/var/log/big.log"}' }],
    });
    const big = Array.from(
      { length: 3000 },
      (_, index) => `line ${index}: request req-${index} served in ${index % 97}ms`,
    ).join('\n');
    const written = await session.append({ role: 'tool', toolCallId: 'h', content: big });
    expect(written.length).toBeGreaterThan(5);
    expect(written.every((occurrence) => occurrence.span.tokens <= session.config.maxSpanTokens)).toBe(true);
    expect(written.map((occurrence) => occurrence.span.text).join('')).toBe(big);
    const context = await session.render();
    expect(context.tokens).toBeLessThanOrEqual(2000);
  });
});
