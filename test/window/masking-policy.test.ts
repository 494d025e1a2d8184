import { describe, expect, it } from 'vitest';
import { MASK_STEP_MIN_HEADROOM, maskingPolicy } from '../../src/compaction/masking.js';
import { resolveWindowConfig } from '../../src/session/config.js';

const policyOf = (window: Parameters<typeof resolveWindowConfig>[1]) => {
  const policy = maskingPolicy(resolveWindowConfig('s', window));
  if (policy === undefined) throw new Error('masking is on by default');
  return policy;
};

describe('how deep a masking step goes', () => {
  it('masks only what the window needs when the headroom is small (the small-window default)', () => {
    const policy = policyOf({ maxTokens: 8000 });
    expect(policy.fitTokens).toBe(8000);
    expect(policy.targetTokens).toBe(policy.fitTokens);
  });

  it('refills to targetFill when the headroom is at least MASK_STEP_MIN_HEADROOM of the window', () => {
    expect(policyOf({ maxTokens: 32_000 }).targetTokens).toBe(16_000);
    expect(policyOf({ maxTokens: 8000, targetFill: 1 - MASK_STEP_MIN_HEADROOM }).targetTokens).toBe(6400);
    expect(policyOf({ maxTokens: 8000, compactAt: 0.95, targetFill: 0.8 }).targetTokens).toBe(7600);
  });

  it('is off when masking is off', () => {
    expect(maskingPolicy(resolveWindowConfig('s', { maskToolResults: false }))).toBeUndefined();
  });
});
