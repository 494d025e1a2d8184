import { describe, expect, it } from 'vitest';
import {
  MASK_STEP_MIN_HEADROOM,
  MASK_STEP_MIN_RECOVERY,
  chooseMasked,
  maskingPolicy,
  type MaskingPolicy,
} from '../../src/window/masking.js';
import { resolveWindowConfig } from '../../src/session/config.js';
import { memoryLedger } from '../helpers.js';
import { toolRounds } from './tool-rounds.js';

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
    expect(policy.stepFloorTokens).toBe(Number.POSITIVE_INFINITY);
  });

  it('refills to targetFill when the headroom is at least MASK_STEP_MIN_HEADROOM of the window', () => {
    expect(policyOf({ maxTokens: 32_000 })).toMatchObject({ targetTokens: 16_000, stepFloorTokens: 24_000 });
    expect(policyOf({ maxTokens: 8000, targetFill: 1 - MASK_STEP_MIN_HEADROOM })).toMatchObject({
      targetTokens: 6400,
      stepFloorTokens: 8000 - MASK_STEP_MIN_RECOVERY * 1600,
    });
    expect(policyOf({ maxTokens: 8000, compactAt: 0.95, targetFill: 0.8 })).toMatchObject({
      targetTokens: 7600,
      stepFloorTokens: Number.POSITIVE_INFINITY,
    });
  });

  it('is off when masking is off', () => {
    expect(maskingPolicy(resolveWindowConfig('s', { maskToolResults: false }))).toBeUndefined();
  });
});

describe('a deep masking step gives back at least half the headroom, or is not taken', () => {
  /** Tool rounds: a call and a result each (their costs are given to the choice, not counted). */
  async function rounds(count: number) {
    return (await memoryLedger().session('deep')).append(toolRounds(count));
  }

  /** Fit 10,000, target 5,000: a deep step must end at or under 7,500 (half the headroom given back). */
  const deep: MaskingPolicy = {
    fitTokens: 10_000,
    targetTokens: 5_000,
    minTokens: 200,
    protectRecentTokens: 2_500,
    stepFloorTokens: 7_500,
  };

  /** The masking choice over `originals` with 100-token calls and `bulky`-token results, and the tokens it leaves. */
  function choose(originals: Awaited<ReturnType<typeof rounds>>, bulky: number, policy: MaskingPolicy) {
    const costs = originals.map((occurrence) => (occurrence.span.kind === 'tool-result' ? bulky : 100));
    const masked = chooseMasked({ originals, costs, stubCost: () => 50, fixedTokens: 1_000, policy });
    let total = 1_000;
    for (const [index, cost] of costs.entries()) total += masked.has(index) ? 50 : cost;
    return { masked, total };
  }

  it('masks nothing when the step cannot give back half the headroom, where a shallow rule masks what it can', async () => {
    // 20 rounds of a 100-token call and a 400-token result (11,000 tokens with the fixed 1,000) and 6,000 tokens
    // protected: masking every older result saves about 2,100 of the 2,600 the floor needs.
    const originals = await rounds(20);
    const policy = { ...deep, protectRecentTokens: 6_000 };
    const partial = choose(originals, 400, { ...policy, stepFloorTokens: Number.POSITIVE_INFINITY });
    expect(partial.masked.size).toBeGreaterThan(0);
    expect(partial.total).toBeGreaterThan(policy.stepFloorTokens);
    const floored = choose(originals, 400, policy);
    expect(floored.masked.size).toBe(0);
    expect(floored.total).toBeGreaterThan(policy.fitTokens);
  });

  it('takes a step that gives back enough, down to the target as before', async () => {
    // 20 rounds of 400-token results with 2,500 tokens protected: masking the older results saves about 4,600.
    const originals = await rounds(20);
    const floored = choose(originals, 400, deep);
    expect(floored.masked.size).toBeGreaterThan(0);
    expect(floored.total).toBeLessThanOrEqual(deep.fitTokens);
    expect(floored).toEqual(choose(originals, 400, { ...deep, stepFloorTokens: Number.POSITIVE_INFINITY }));
  });
});
