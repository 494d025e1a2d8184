import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HandleTraitMemo } from '../../src/ranking/handle-traits.js';
import type { RankEvidence } from '../../src/ranking/rank-evidence.js';
import { rankedOrder } from '../../src/ranking/ranked-order.js';
import { RankSeed } from '../../src/ranking/rank-seed.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

/**
 * A pool of frozen handles with few texts, kinds, seqs and starts, so that scores tie; each two in a row differ only in
 * their span id, so that every key of the comparison ties too and only their places in the input tell them apart.
 */
function pool(size: number): Handle[] {
  const kinds: HandleKind[] = ['path', 'identifier', 'number'];
  const roles: Role[] = ['tool', 'assistant', 'user'];
  return Array.from({ length: size }, (_, index) => {
    const pair = Math.floor(index / 2);
    const text = ['src/a.ts', 'main', '8080', 'retryBudget'][pair % 4] as string;
    return Object.freeze({
      kind: kinds[pair % 3] as HandleKind,
      text,
      key: text.toLowerCase(),
      start: pair % 2,
      end: (pair % 2) + text.length,
      spanId: `span-${index}`,
      seq: pair % 5,
      role: roles[pair % 3] as Role,
      tokens: 1 + (pair % 3),
    });
  });
}

const evidenceAt = (toSeq: number): RankEvidence => ({ occurrences: [], spans: new Map(), fromSeq: 0, toSeq });

describe('RankSeed', () => {
  it('starts the sort from the last ranking: its handles in its order, then the new ones in input order', () => {
    const handles = pool(6);
    const memo = new HandleTraitMemo();
    const seed = new RankSeed();
    const traits = handles.map((handle) => memo.of(handle));
    const first = rankedOrder(handles, evidenceAt(4), undefined, { traits, seed });
    const extra = Object.freeze({ ...(handles[0] as Handle), text: 'lib/b.ts', key: 'lib/b.ts' });
    const next = [extra, ...[...handles].reverse()];
    const start = seed.start(next.map((handle) => memo.of(handle)));
    expect(start.map((index) => next[index])).toEqual([...first, extra]);
  });

  it('gives the order of a ranking without a seed, whatever ranking came before', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            picks: fc.array(fc.nat({ max: 29 }), { maxLength: 30 }),
            toSeq: fc.integer({ min: 4, max: 400 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (rankings) => {
          const handles = pool(30);
          const memo = new HandleTraitMemo();
          const seed = new RankSeed();
          for (const { picks, toSeq } of rankings) {
            // A handle may be picked twice: both copies are ranked, as without a seed.
            const picked = picks.map((index) => handles[index] as Handle);
            const traits = picked.map((handle) => memo.of(handle));
            const evidence = evidenceAt(toSeq);
            expect(rankedOrder(picked, evidence, undefined, { traits, seed })).toEqual(rankedOrder(picked, evidence));
          }
        },
      ),
      { numRuns: 300, seed: 37 },
    );
  });
});
