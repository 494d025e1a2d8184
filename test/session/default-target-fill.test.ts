import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPACT_AT,
  DEFAULT_LARGE_TARGET_FILL,
  DEFAULT_MEDIUM_TARGET_FILL,
  DEFAULT_TARGET_FILL,
  LARGE_WINDOW_TOKENS,
  MEDIUM_WINDOW_TOKENS,
  resolveWindowConfig,
} from '../../src/session/config.js';

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
