import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DistinctStretch } from '../../src/ranking/distinct-stretch.js';
import { handleIdentity, mergeHandles } from '../../src/handles/handle-sets.js';
import type { Handle, HandleKind } from '../../src/types.js';

/** Rows of one seq: few texts, kinds and starts, in any order, so identities repeat and (seq, start, kind) ties occur. */
const seqRows = fc.array(
  fc.record({
    text: fc.constantFrom('src/a.ts', 'src/b.ts', 'PORT=1', 'main', 'v2'),
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
            expect(stretch.handles()).toEqual(mergeHandles(...rows.slice(fromSeq, toSeq + 1)));
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
});
