/**
 * The ranking weights of the injected context per agent: a Codex compaction keeps no summary of the current task, so
 * its context weighs how often the agent came back to a name more against how lately it saw it (`hookRankWeights`).
 */
import { describe, expect, it } from 'vitest';
import { rankHandles } from '../../src/ranking/rank-handles.js';
import type { RankWeights } from '../../src/ranking/rank-weights.js';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import {
  CODEX_HOOK_RANK_WEIGHTS,
  HOOK_RANK_WEIGHTS,
  hookRankWeights,
} from '../../src/integrations/claude-code/hook-context-weights.js';
import type { Handle } from '../../src/types.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { handleAt, memoryLedger } from '../helpers.js';

/** `text` said in one span at each of `seqs` (one occurrence per span). */
function said(text: string, seqs: readonly number[]): Handle[] {
  const base = handleAt(text, 'identifier');
  return seqs.map((seq) => ({ ...base, seq, spanId: `sha256:${text}-${seq}` }));
}

describe('hookRankWeights', () => {
  it("gives a Codex compaction's context the Codex weights and any other agent's the Claude Code ones", () => {
    expect(hookRankWeights('codex')).toBe(CODEX_HOOK_RANK_WEIGHTS);
    expect(hookRankWeights('claude-code')).toBe(HOOK_RANK_WEIGHTS);
    expect(hookRankWeights('other-agent')).toBe(HOOK_RANK_WEIGHTS);
  });

  it('ranks a name said in seven spans two half-lives ago above one said once just now for Codex, not for Claude Code', () => {
    // Two half-lives (120 seqs) before the boundary: recency 0.25; seven spans: 3 doublings of mentions.
    const repeated = said('loadWidgetTable', [400, 410, 420, 430, 440, 450, 460]);
    const recent = said('parseWidgetRow', [580]);
    const evidence = { occurrences: [...repeated, ...recent], spans: new Map(), fromSeq: 0, toSeq: 580 };
    const candidates = [repeated.at(-1) as Handle, recent[0] as Handle];
    const order = (weights: RankWeights) =>
      rankHandles(candidates, evidence, weights).map((entry) => entry.handle.text);
    expect(order(HOOK_RANK_WEIGHTS)).toEqual(['parseWidgetRow', 'loadWidgetTable']);
    expect(order(CODEX_HOOK_RANK_WEIGHTS)).toEqual(['loadWidgetTable', 'parseWidgetRow']);
  });
});

describe('buildHookContext ranks with the weights of the agent that compacted', () => {
  // Seven early turns name one function, 120 turns later one turn names another: repetition against recency.
  const messages: TranscriptMessage[] = [
    ...Array.from({ length: 7 }, () => ({ role: 'assistant' as const, content: 'Calling loadWidgetTable again.' })),
    ...Array.from({ length: 120 }, (_, index) => ({ role: 'assistant' as const, content: `Step ${index} done.` })),
    { role: 'assistant', content: 'Now parseWidgetRow.' },
  ];
  async function ranked(agent: 'codex' | 'claude-code') {
    const ledger = memoryLedger();
    const session = await ledger.session('s');
    await session.append(messages);
    await session.importExternalSummary({ summary: '', summarizer: { name: agent, version: '1' } });
    const context = await buildHookContext({ ledger, sessionId: 's' });
    return (context?.ranked ?? []).map((handle) => handle.text).filter((text) => text.includes('Widget'));
  }

  it("puts the repeated name first after a Codex compaction and the recent one first after Claude Code's", async () => {
    expect(await ranked('codex')).toEqual(['loadWidgetTable', 'parseWidgetRow']);
    expect(await ranked('claude-code')).toEqual(['parseWidgetRow', 'loadWidgetTable']);
  });
});
