/**
 * The session's `TokenMemo` reaches the verification of every summary it compacts: the session passes it to
 * `compactRegion` (`CompactionInput.tokenMemo`), which passes it to `verifySummary`, which passes it to the meaning
 * check. The memo is exact: the records are the same with it and without it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as MeaningCheck from '../../src/compaction/meaning-check.js';
import type * as Verify from '../../src/compaction/verify.js';
import { TokenMemo } from '../../src/handles/token-memo.js';
import type { Claim } from '../../src/types.js';
import { fillerTurns, memoryLedger, SEED_OPENING } from '../helpers.js';

/** The memos verification and the meaning check were given, and whether verification is to drop the one it got. */
const seen = { verify: [] as unknown[], meaning: [] as unknown[], strip: false };

vi.mock('../../src/compaction/verify.js', async (importOriginal) => {
  const original = await importOriginal<typeof Verify>();
  return {
    ...original,
    verifySummary: (...args: Parameters<typeof original.verifySummary>) => {
      seen.verify.push(args[4]);
      if (seen.strip) args[4] = undefined;
      return original.verifySummary(...args);
    },
  };
});

vi.mock('../../src/compaction/meaning-check.js', async (importOriginal) => {
  const original = await importOriginal<typeof MeaningCheck>();
  return {
    ...original,
    meaningFindings: (...args: Parameters<typeof original.meaningFindings>) => {
      seen.meaning.push(args[3]);
      return original.meaningFindings(...args);
    },
  };
});

const { meaningFindings } = await import('../../src/compaction/meaning-check.js');

afterEach(() => {
  seen.verify.length = 0;
  seen.meaning.length = 0;
  seen.strip = false;
});

/** A session that compacts a few times; its records as JSON. */
async function compacted(id: string) {
  const session = await memoryLedger().session(id, { window: { maxTokens: 1500 } });
  await session.append(SEED_OPENING);
  for (let round = 0; round < 24; round += 4) {
    await session.append(fillerTurns(4, round));
    await session.render();
  }
  return { session, records: JSON.stringify(session.records()) };
}

describe('the session token memo in the verification of a compaction', () => {
  it('reaches verifySummary and the meaning check: the session’s own, the same for each of its compactions', async () => {
    await compacted('memo-a');
    const inA = [...seen.verify];
    expect(inA.length).toBeGreaterThan(1);
    expect(inA[0]).toBeInstanceOf(TokenMemo);
    expect(new Set(inA).size).toBe(1);
    expect(seen.meaning).toEqual(inA);
    seen.verify.length = 0;
    await compacted('memo-b');
    expect(seen.verify[0]).toBeInstanceOf(TokenMemo);
    expect(seen.verify[0]).not.toBe(inA[0]);
  });

  it('changes no record: the same records with the memo and without it', async () => {
    const withMemo = await compacted('same');
    seen.meaning.length = 0;
    seen.strip = true;
    const without = await compacted('same');
    expect(seen.meaning.every((memo) => memo === undefined)).toBe(true);
    expect(withMemo.session.records().filter((record) => record.type === 'summary').length).toBeGreaterThan(1);
    expect(without.records).toBe(withMemo.records);
  });

  it('meaningFindings reads the memo for the claims’ handles, with the same findings as without one', () => {
    const source = 'The eu-west-1 replica is read-only, do not target it.';
    const claims: Claim[] = [{ text: 'eu-west-1 is writable; target it', spanIds: ['sha256:a'] }];
    const texts = new Map([['sha256:a', [source]]]);
    const memo = new TokenMemo();
    const replay = vi.spyOn(memo, 'replay');
    // Asked first with the memo: a claim text the meaning check has not read yet is extracted through it.
    const withMemo = meaningFindings(claims, texts, [], memo);
    expect(replay).toHaveBeenCalled();
    const without = meaningFindings(claims, texts, []);
    expect(withMemo).toEqual(without);
    expect(meaningFindings(claims, texts, [], memo)).toEqual(without);
    expect(without.map((finding) => finding.code)).toEqual(['polarity-flip']);
  });
});
