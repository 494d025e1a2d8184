import { describe, expect, it, vi } from 'vitest';
import { externalRecord } from '../../src/compaction/external-record.js';
import type { ExternalRecordInput } from '../../src/compaction/external-record.js';
import { verifySummary } from '../../src/compaction/verify.js';
import { TokenMemo } from '../../src/handles/token-memo.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { sourceUnit } from '../helpers.js';

const SOURCE =
  'Deploy failed: src/deploy/run.ts threw ECONNREFUSED 10.0.0.7:5432 at 2024-03-01T10:00:00Z; retry with --region eu-west-2b.';

/** A memo whose lookups are counted, so a test can tell it was read. */
function watchedMemo(): { readonly memo: TokenMemo; readonly replays: () => number } {
  const memo = new TokenMemo();
  const replay = vi.spyOn(memo, 'replay');
  return { memo, replays: () => replay.mock.calls.length };
}

describe('the session token memo passed to the extraction of summaries', () => {
  it('verifySummary reads it, with the same findings as without one', () => {
    const units = [sourceUnit(1, 'tool', SOURCE)];
    const result = {
      summary: 'Deploy of src/deploy/run.ts failed on 10.0.0.7:5432; retry with --region eu-west-1.',
      claims: [
        { text: 'Deploy of src/deploy/run.ts failed on 10.0.0.7:5432; retry with --region eu-west-1.', spanIds: [] },
      ],
    };
    const { memo, replays } = watchedMemo();
    // Asked first with the memo: a claim text verification has not read yet is extracted through it.
    const withMemo = verifySummary(result, units, [], [], memo);
    expect(replays()).toBeGreaterThan(0);
    const without = verifySummary(result, units, []);
    expect(withMemo).toEqual(without);
    // Read again, the memo answers: still the same findings.
    expect(verifySummary(result, units, [], [], memo)).toEqual(without);
    expect(without.some((finding) => finding.code === 'invented-handle')).toBe(true);
  });

  it('externalRecord reads it for the summary’s own handles, with the same record as without one', () => {
    const input: ExternalRecordInput = {
      sessionId: 'memo-session',
      summary: `The agent summarised: ${SOURCE}`,
      summarizer: { name: 'claude-code', version: '1' },
      fromSeq: 0,
      toSeq: -1,
      covered: [],
      regionHandles: [],
      active: undefined,
      ordinal: 0,
      atSeq: 0,
      counter: createO200kCounter(),
      createdAt: '2024-03-01T10:00:00.000Z',
    };
    const without = externalRecord(input);
    const { memo, replays } = watchedMemo();
    expect(externalRecord({ ...input, tokenMemo: memo })).toEqual(without);
    expect(replays()).toBeGreaterThan(0);
    expect(without.handles.map((handle) => handle.text)).toContain('src/deploy/run.ts');
  });
});
