import { describe, expect, it } from 'vitest';
import {
  MASK_AT_COMPACTION_PROTECT_SHARE,
  chooseMasked,
  maskingPolicy,
  type MaskingPolicy,
} from '../../src/window/masking.js';
import { resolveWindowConfig } from '../../src/session/config.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { RenderedContext } from '../../src/window/window.js';
import { memoryLedger } from '../helpers.js';
import { toolRounds } from './tool-rounds.js';
import { agentTranscript } from '../core/agent-transcript.js';

describe('a large window masks at its compactions, not in steps of its own', () => {
  it('is the policy of deep windows from 16,000 tokens; smaller windows and shallow policies mask in steps', () => {
    const policy = (window: Parameters<typeof resolveWindowConfig>[1], cut?: number) =>
      maskingPolicy(resolveWindowConfig('s', window), cut);
    expect(policy({ maxTokens: 32_000 }, 7)?.atCompaction).toEqual({ maskBeforeSeq: 7 });
    // Less than the protected tail of a step: the kept turns hold more of the prose.
    expect(policy({ maxTokens: 32_000 })?.protectRecentTokens).toBe(8000 * MASK_AT_COMPACTION_PROTECT_SHARE);
    expect(policy({ maxTokens: 8000 })?.protectRecentTokens).toBe(2000);
    expect(policy({ maxTokens: 200_000 })?.atCompaction).toEqual({ maskBeforeSeq: Number.NEGATIVE_INFINITY });
    expect(policy({ maxTokens: 8000 })?.atCompaction).toBeUndefined();
    expect(policy({ maxTokens: 8000, compactAt: 0.95, targetFill: 0.75 })?.atCompaction).toBeUndefined();
    expect(policy({ maxTokens: 32_000, targetFill: 0.9 })?.atCompaction).toBeUndefined();
  });

  it('masks every bulky result before the cut that is older than the tail those originals ended with, and no other', async () => {
    const originals = await (await memoryLedger().session('cut')).append(toolRounds(20));
    const costs = originals.map((occurrence) => (occurrence.span.kind === 'tool-result' ? 400 : 100));
    const policy = (maskBeforeSeq: number): MaskingPolicy => ({
      fitTokens: 100_000,
      targetTokens: 50_000,
      minTokens: 200,
      protectRecentTokens: 1_000,
      stepFloorTokens: 75_000,
      atCompaction: { maskBeforeSeq },
    });
    const choose = (cut: number) =>
      [...chooseMasked({ originals, costs, stubCost: () => 50, fixedTokens: 1_000, policy: policy(cut) })].sort(
        (a, b) => a - b,
      );
    // Far under fitTokens, and still masked: the cut decides, not the fill.
    const cutAt = originals[24]?.seq as number;
    const masked = choose(cutAt);
    // A round is three originals (text, call, result). Originals 0..23 come before the cut; the tail of at most 1,000
    // tokens is 20..23 (400 + 100 + 100 + 400), so the results older than it, 2, 5, ..., 17, are masked.
    expect(masked).toEqual([2, 5, 8, 11, 14, 17]);
    expect(masked.every((index) => (originals[index]?.seq ?? Infinity) < cutAt)).toBe(true);
    expect(choose(Number.NEGATIVE_INFINITY)).toEqual([]);
  });

  it('renders turn by turn: between compactions every prompt extends the last one, and kept results are masked', async () => {
    const maxTokens = 16_000;
    const replay = async (mode: 'render' | 'compactIfDue') => {
      const session = await memoryLedger().session('large', { window: { maxTokens } });
      let previous: RenderedContext | undefined;
      let previousRecords = 0;
      let extensions = 0;
      let compactions = 0;
      let stubs = 0;
      let batch: TranscriptMessage[] = [];
      for (const message of agentTranscript(200)) {
        if (message.role === 'assistant' && batch.length > 0) {
          await session.append(batch);
          batch = [];
          if (mode === 'compactIfDue') await session.compactIfDue();
          const context = await session.render();
          expect(context.tokens).toBeLessThanOrEqual(maxTokens);
          const records = session.recordCount();
          stubs = Math.max(stubs, context.messages.filter((rendered) => rendered.masked).length);
          if (previous !== undefined) {
            if (records !== previousRecords) compactions++;
            else {
              // No masking step: with no record written, the prompt is the last one plus what was appended.
              expect(context.text.startsWith(previous.text)).toBe(true);
              extensions++;
            }
          }
          previous = context;
          previousRecords = records;
        }
        batch.push(message);
      }
      return { extensions, compactions, stubs, records: session.recordSummaries() };
    };
    const rendered = await replay('render');
    expect(rendered.compactions).toBeGreaterThan(1);
    expect(rendered.stubs).toBeGreaterThan(0);
    expect(rendered.extensions).toBeGreaterThan(3 * rendered.compactions);
    // Compacting on the count alone masks as the render does, so it compacts at the same turns.
    expect(await replay('compactIfDue')).toEqual(rendered);
  });
});
