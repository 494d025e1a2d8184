/**
 * Verification remembers, per text, the handles of the claim lines it checked and the squeezed form of the sources it
 * compared them with (a summary carries most lines of the last one, citing the same spans). Each check of a run of
 * summaries that share lines must find what a fresh module (nothing remembered) finds.
 */
import { describe, expect, it, vi } from 'vitest';
import type * as Verify from '../../src/compaction/verify.js';
import type { Handle } from '../../src/types.js';
import { sourceUnit } from '../helpers.js';

const SOURCES = [
  'Deploy failed: src/deploy/run.ts threw ECONNREFUSED 10.0.0.7:5432; retry with --region eu-west-2b.',
  'The eu-west-1 replica is read-only, do not target it.',
  'Set PORT=8080 in config/app.env and restart the api-gateway service.',
];
const LINES = [
  'Deploy of src/deploy/run.ts failed on 10.0.0.7:5432.',
  'Retry with --region eu-west-1.',
  'eu-west-1 is writable; target it',
  'Set PORT=8081 in config/app.env.',
  'The api-gateway service restarts after the change.',
];

const units = SOURCES.map((text, index) => sourceUnit(index + 1, index === 1 ? 'user' : 'tool', text));
const pinned: Handle[] = [];

/** Summaries as successive compactions write them: each keeps most lines of the last, citing the same spans. */
function summaries() {
  return [0, 1, 2, 3, 4, 5].map((round) => {
    const lines = LINES.filter((_line, index) => (index + round) % 4 !== 0);
    const claims = lines.map((text, index) => ({
      text,
      spanIds: [units[(index + round) % units.length]!.spanIds[0]!],
    }));
    return { summary: lines.join('\n'), claims: round === 5 ? [] : claims };
  });
}

describe('verification of lines checked before', () => {
  it('finds, summary after summary, what a module that remembers nothing finds', async () => {
    const warm = await import('../../src/compaction/verify.js');
    for (const result of summaries()) {
      const remembered = warm.verifySummary(result, units, pinned);
      vi.resetModules();
      const fresh = (await import('../../src/compaction/verify.js')) as typeof Verify;
      expect(fresh).not.toBe(warm);
      expect(remembered).toEqual(fresh.verifySummary(result, units, pinned));
    }
    // The check finds something to compare: invented handles and a flipped meaning are among the findings.
    const codes = summaries().flatMap((result) => warm.verifySummary(result, units, pinned).map((item) => item.code));
    expect(codes).toContain('invented-handle');
    expect(codes).toContain('polarity-flip');
  });
});
