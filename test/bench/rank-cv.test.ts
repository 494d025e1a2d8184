import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { coordinateCandidates, cutScorers, leaveOneSessionOut } from '../../bench/quality/rank-cv.js';
import type { CvSession } from '../../bench/quality/rank-cv.js';
import { DEFAULT_SHARES, sharesOptions } from '../../bench/quality/rank-cv-bench.js';

interface Weights {
  readonly recency: number;
}

const candidates: Weights[] = [{ recency: 1 }, { recency: 2 }, { recency: 3 }];

/** Two sessions that like recency 2, one outlier that likes recency 3. */
const sessions: CvSession<Weights>[] = [
  { id: 's1', score: (weights) => (weights.recency === 2 ? 0.9 : 0.5) },
  { id: 's2', score: async (weights) => (weights.recency === 2 ? 0.9 : 0.5) },
  { id: 's3', score: (weights) => (weights.recency === 3 ? 1 : 0.2) },
];

describe('leave-one-session-out', () => {
  it('fits on the other sessions and scores the held-out one', async () => {
    const result = await leaveOneSessionOut(sessions, candidates);
    expect(result.folds.map((fold) => [fold.heldOut, fold.weights.recency])).toEqual([
      ['s1', 3],
      ['s2', 3],
      ['s3', 2],
    ]);
    expect(result.folds.map((fold) => fold.heldOutShare)).toEqual([0.5, 0.5, 0.2]);
    expect(result.folds[0]?.trainShare).toBeCloseTo(0.75);
    expect(result.meanHeldOut).toBeCloseTo(0.4);
    expect(result.meanDefault).toBeCloseTo(0.4);
    expect(result.scores[2]).toEqual([0.2, 0.2, 1]);
  });

  it('gives ties to the earlier candidate (the default first)', async () => {
    const flat: CvSession<Weights>[] = [
      { id: 'a', score: () => 0.5 },
      { id: 'b', score: () => 0.5 },
    ];
    const result = await leaveOneSessionOut(flat, candidates);
    expect(result.folds.map((fold) => fold.candidate)).toEqual([0, 0]);
  });

  it('refuses fewer than 2 sessions or no candidate, saying what to do', async () => {
    await expect(leaveOneSessionOut(sessions.slice(0, 1), candidates)).rejects.toThrow(/at least 2 sessions, got 1/);
    await expect(leaveOneSessionOut(sessions, [])).rejects.toThrow(/pass the default weights first/);
  });

  it('builds a coordinate grid around the default weights, default first', () => {
    expect(coordinateCandidates({ recency: 2, name: 'x' } as const, [0.5, 2])).toEqual([
      { recency: 2, name: 'x' },
      { recency: 1, name: 'x' },
      { recency: 4, name: 'x' },
    ]);
  });

  it('scores a cut by the future-needed handles in the replayed window, with the options of the weights', async () => {
    const messages: TranscriptMessage[] = [{ role: 'user', content: 'The replica is db-replica-07.internal.' }];
    for (let turn = 0; turn < 30; turn++) {
      messages.push({
        role: 'assistant',
        content: `Step ${turn}: the logs look normal for this part of the long build.`,
        toolCalls: [{ id: `c${turn}`, name: 'bash', arguments: '{"command":"ls"}' }],
      });
      messages.push({
        role: 'tool',
        toolCallId: `c${turn}`,
        content: `step ${turn} ok, nothing to report from a long and uneventful run.`,
      });
    }
    messages.push({ role: 'assistant', content: 'Checking db-replica-07.internal now.' });
    const cuts = [
      { id: 'x', messages, at: messages.length - 1 },
      { id: 'empty', messages, at: messages.length },
    ];
    const seen: number[] = [];
    const scorers = cutScorers<Weights>(cuts, 800, createO200kCounter(), (weights) => {
      seen.push(weights.recency);
      return { session: { systemPrompt: 'You are a careful agent.' } };
    });
    expect(scorers.map((scorer) => scorer.id)).toEqual(['x']);
    expect(await scorers[0]?.score({ recency: 7 })).toBe(1);
    expect(seen).toEqual([7]);
  });

  it('turns window shares into the session options of a budget', () => {
    expect(sharesOptions(DEFAULT_SHARES, 8000)).toEqual({
      session: { window: { keepRecentTokens: 2000, handleBudgetTokens: 1600, summaryBudgetTokens: 800 } },
    });
    expect(sharesOptions({ keepRecent: 0, handleIndex: 0.5, summary: 0.1 }, 10).session?.window?.keepRecentTokens).toBe(
      1,
    );
  });
});
