import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPACT_AT,
  DEFAULT_LARGE_TARGET_FILL,
  DEFAULT_MEDIUM_TARGET_FILL,
  DEFAULT_TARGET_FILL,
  LARGE_WINDOW_TOKENS,
  MEDIUM_WINDOW_TOKENS,
  defaultMaskToolResults,
  resolveWindowConfig,
} from '../../src/session/config.js';
import { memoryLedger } from '../helpers.js';

describe('default targetFill by window size', () => {
  it('keeps recent turns in a small window and leaves a larger one more headroom', () => {
    expect(resolveWindowConfig('s', { maxTokens: 4000 }).targetFill).toBe(DEFAULT_TARGET_FILL);
    expect(resolveWindowConfig('s', { maxTokens: MEDIUM_WINDOW_TOKENS - 1 }).targetFill).toBe(DEFAULT_TARGET_FILL);
    expect(resolveWindowConfig('s', { maxTokens: MEDIUM_WINDOW_TOKENS }).targetFill).toBe(DEFAULT_MEDIUM_TARGET_FILL);
    expect(resolveWindowConfig('s', { maxTokens: LARGE_WINDOW_TOKENS - 1 }).targetFill).toBe(
      DEFAULT_MEDIUM_TARGET_FILL,
    );
    expect(resolveWindowConfig('s', { maxTokens: LARGE_WINDOW_TOKENS }).targetFill).toBe(DEFAULT_LARGE_TARGET_FILL);
    expect(resolveWindowConfig('s', { maxTokens: 128_000 }).targetFill).toBe(DEFAULT_LARGE_TARGET_FILL);
    expect(DEFAULT_LARGE_TARGET_FILL).toBeLessThan(DEFAULT_MEDIUM_TARGET_FILL);
    expect(DEFAULT_MEDIUM_TARGET_FILL).toBeLessThan(DEFAULT_TARGET_FILL);
  });

  it('acts only when the context would not fit the window by default', () => {
    expect(DEFAULT_COMPACT_AT).toBe(1);
    expect(resolveWindowConfig('s', { maxTokens: 8000 }).compactAt).toBe(1);
  });

  it('takes an explicit targetFill, and never defaults above compactAt', () => {
    expect(resolveWindowConfig('s', { maxTokens: 32_000, targetFill: 0.8 }).targetFill).toBe(0.8);
    expect(resolveWindowConfig('s', { maxTokens: 8000, compactAt: 0.7 }).targetFill).toBe(0.7);
    expect(resolveWindowConfig('s', { maxTokens: 32_000, compactAt: 0.45 }).targetFill).toBe(0.45);
  });
});

describe('default maskToolResults by window size', () => {
  it('masks in windows under LARGE_WINDOW_TOKENS and compacts instead from it, unless told otherwise', () => {
    expect(defaultMaskToolResults(8000)).toBe(true);
    expect(resolveWindowConfig('s', { maxTokens: 4000 }).maskToolResults).toBe(true);
    expect(resolveWindowConfig('s', { maxTokens: LARGE_WINDOW_TOKENS - 1 }).maskToolResults).toBe(true);
    expect(resolveWindowConfig('s', { maxTokens: LARGE_WINDOW_TOKENS }).maskToolResults).toBe(false);
    expect(resolveWindowConfig('s', { maxTokens: 200_000 }).maskToolResults).toBe(false);
    expect(resolveWindowConfig('s', { maxTokens: 32_000, maskToolResults: true }).maskToolResults).toBe(true);
    expect(resolveWindowConfig('s', { maxTokens: 8000, maskToolResults: false }).maskToolResults).toBe(false);
  });

  it('a 32,000-token window over its limit with bulky tool results compacts by default, and masks when asked', async () => {
    const rounds = Array.from({ length: 14 }, (_, round) => [
      {
        role: 'assistant' as const,
        content: `step ${round}`,
        toolCalls: [{ id: `c${round}`, name: 'read', arguments: '{}' }],
      },
      {
        role: 'tool' as const,
        toolCallId: `c${round}`,
        toolName: 'read',
        content: Array.from(
          { length: 260 },
          (_, line) => `src/module_${round}/file_${line}.ts: ok ${line * round}`,
        ).join('\n'),
      },
    ]).flat();
    const ledger = memoryLedger();
    const byDefault = await ledger.session('large', { window: { maxTokens: 32_000 } });
    await byDefault.append(rounds);
    const compacted = await byDefault.render();
    expect(compacted.tokens).toBeLessThanOrEqual(32_000);
    expect(compacted.messages.some((message) => message.masked)).toBe(false);
    expect(byDefault.recordCount()).toBeGreaterThan(0);
    const masking = await ledger.session('large-masked', { window: { maxTokens: 32_000, maskToolResults: true } });
    await masking.append(rounds);
    expect((await masking.render()).messages.some((message) => message.masked)).toBe(true);
  });
});
