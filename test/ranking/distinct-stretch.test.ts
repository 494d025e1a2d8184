import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DistinctStretch } from '../../src/ranking/distinct-stretch.js';
import { handleTraits } from '../../src/ranking/handle-traits.js';
import { handleIdentity, mergeHandles } from '../../src/handles/handle-sets.js';
import type { Handle, HandleKind } from '../../src/types.js';

/** Rows of one seq: few texts, kinds and starts, in any order, so identities repeat and (seq, start, kind) ties occur. */
const seqRows = fc.array(
  fc.record({
    text: fc.constantFrom('src/a.ts', 'src/b.ts', 'PORT=1', 'main', 'v2', 'row_17', 'class="x"'),
    kind: fc.constantFrom<HandleKind>('path', 'identifier', 'assignment'),
    start: fc.nat({ max: 3 }),
  }),
  { maxLength: 6 },
);

function rowsOf(specs: readonly { text: string; kind: HandleKind; start: number }[][]): Handle[][] {
  return specs.map((rows, seq) =>
    rows.map((row) => ({
      ...row,
      key: row.text,
      end: row.start + row.text.length,
      spanId: `sha256:${seq}`,
      seq,
      role: 'tool' as const,
      tokens: 2,
    })),
  );
}

describe('DistinctStretch', () => {
  it('gives what mergeHandles gives for the stretch, as it moves (forward, and back)', () => {
    fc.assert(
      fc.property(
        fc.array(seqRows, { minLength: 1, maxLength: 30 }),
        fc.array(fc.record({ from: fc.nat({ max: 32 }), length: fc.integer({ min: -1, max: 20 }) }), {
          minLength: 1,
          maxLength: 12,
        }),
        (specs, moves) => {
          const rows = rowsOf(specs);
          const stretch = new DistinctStretch();
          for (const move of moves) {
            const fromSeq = Math.min(move.from, rows.length - 1);
            const toSeq = Math.min(rows.length - 1, fromSeq + move.length);
            expect(stretch.moveTo(fromSeq, toSeq, (seq) => rows[seq])).toBe(true);
            // Asked first after a move: the traits of the moved stretch, not of the one before it.
            const traits = stretch.traits();
            expect(stretch.handles()).toEqual(mergeHandles(...rows.slice(fromSeq, toSeq + 1)));
            expect(traits).toEqual(stretch.handles().map(handleTraits));
            expect(stretch.identities()).toEqual(stretch.handles().map(handleIdentity));
          }
        },
      ),
      { numRuns: 400, seed: 13 },
    );
  });

  it('reports a seq it cannot read and starts again from empty', () => {
    const rows = rowsOf([[{ text: 'main', kind: 'identifier', start: 0 }]]);
    const stretch = new DistinctStretch();
    expect(stretch.moveTo(0, 1, (seq) => rows[seq])).toBe(false);
    expect(stretch.handles()).toEqual([]);
    expect(stretch.moveTo(0, 0, (seq) => rows[seq])).toBe(true);
    expect(stretch.handles()).toEqual(rows[0]);
  });

  it('keeps the traits of the rows that stay in the stretch as it moves (computed once, not at every move)', () => {
    const rows = rowsOf([
      [{ text: 'row_1', kind: 'identifier', start: 0 }],
      [{ text: 'row_2', kind: 'identifier', start: 0 }],
      [{ text: 'row_3', kind: 'identifier', start: 0 }],
    ]);
    const stretch = new DistinctStretch();
    stretch.moveTo(0, 1, (seq) => rows[seq]);
    const before = stretch.traits();
    stretch.moveTo(1, 2, (seq) => rows[seq]);
    const after = stretch.traits();
    expect(after).toHaveLength(2);
    expect(after[0]).toBe(before[1]);
    expect(after[1]).toEqual(handleTraits(rows[2]?.[0] as Handle));
  });
});
