import { describe, expect, it } from 'vitest';
import { SMALL_WINDOW_INDEX_HEADROOM, planRefill } from '../../src/compaction/planner.js';
import { resolveWindowConfig } from '../../src/session/config.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { Handle } from '../../src/types.js';
import { memoryLedger } from '../helpers.js';

/** A plan of 12 turns of 100 tokens whose carried handles (2,000 of 5 tokens) never all fit. */
async function spillingPlan(maxTokens: number) {
  const session = await memoryLedger().session(`headroom-${maxTokens}`);
  const originals = await session.append(
    Array.from({ length: 12 }, (_, index): TranscriptMessage => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: `turn ${index}`,
    })),
  );
  const handle = (index: number): Handle => ({
    kind: 'identifier',
    text: `carried_name_${index}`,
    key: `carried_name_${index}`,
    start: 0,
    end: 14,
    spanId: originals[0]?.spanId ?? '',
    seq: originals[0]?.seq ?? 0,
    role: 'tool',
    tokens: 5,
  });
  const config = resolveWindowConfig('headroom', { maxTokens });
  const plan = planRefill({
    originals,
    costs: originals.map(() => 100),
    regionHandles: [],
    carriedHandles: Array.from({ length: 2000 }, (_, index) => handle(index)),
    fixedTokens: 200,
    summaryTokens: 300,
    config,
  });
  return { plan, target: Math.floor(config.targetFill * maxTokens), ceiling: Math.floor(config.compactAt * maxTokens) };
}

describe('planRefill: a spilling index in a small window', () => {
  it('takes SMALL_WINDOW_INDEX_HEADROOM tokens above the target at 4,000 tokens, never past compactAt', async () => {
    const { plan, target, ceiling } = await spillingPlan(4000);
    // Old planner: the index stopped at the target (fixed + summary + index + the 600-token recent reserve).
    expect(plan.expectedTokens).toBeGreaterThan(target);
    expect(plan.expectedTokens).toBeLessThanOrEqual(target + SMALL_WINDOW_INDEX_HEADROOM + 1);
    expect(plan.expectedTokens).toBeLessThanOrEqual(ceiling);
  });

  it('leaves windows from 8,000 tokens at their target', async () => {
    const { plan, target } = await spillingPlan(8000);
    expect(plan.expectedTokens).toBeLessThanOrEqual(target);
  });
});
