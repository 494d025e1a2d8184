import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChargedHandles } from '../../src/handle-index/charged-handles.js';
import { shownInside } from '../../src/handle-index/index-layout.js';
import type { Handle, HandleKind } from '../../src/types.js';

const text = fc.string({ unit: fc.constantFrom('a', 'b', '1', '/', '.', ' ', '_'), minLength: 1, maxLength: 12 });
const kind = fc.constantFrom<HandleKind>('path', 'identifier', 'constraint', 'url');

function handle(value: string, handleKind: HandleKind, seq: number): Handle {
  return {
    kind: handleKind,
    text: value,
    key: value,
    start: 0,
    end: value.length,
    spanId: 's',
    seq,
    role: 'tool',
    tokens: 3,
  };
}

describe('ChargedHandles', () => {
  it('refunds exactly the charged handles a scan of every charged one finds inside the placed text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ text, kind, cost: fc.integer({ min: 0, max: 9 }) }), { maxLength: 30 }),
        (rows) => {
          const charged = new ChargedHandles();
          const costs = new Map<Handle, number>();
          rows.forEach((row, seq) => {
            const placed = handle(row.text, row.kind, seq);
            let tokens = 0;
            const inside: Handle[] = [];
            for (const [held, cost] of costs)
              if (cost > 0 && shownInside(held, [placed.text])) {
                inside.push(held);
                tokens += cost;
              }
            const refund = charged.refund(placed);
            expect(refund.tokens).toBe(tokens);
            expect(new Set(refund.handles)).toEqual(new Set(inside));
            for (const held of refund.handles) {
              charged.set(held, 0);
              costs.set(held, 0);
            }
            charged.set(placed, row.cost);
            costs.set(placed, row.cost);
          });
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });

  it('finds a charged handle whose first characters occur earlier in the placed text than the handle itself', () => {
    const charged = new ChargedHandles();
    const deep = handle('/home/a/b.ts', 'path', 0);
    const other = handle('/home/z', 'path', 1);
    const absent = handle('/home/q/r', 'path', 2);
    charged.set(deep, 5);
    charged.set(other, 3);
    charged.set(absent, 4);
    const placed = handle('/home/x and /home/z then /home/a/b.ts', 'constraint', 3);
    const refund = charged.refund(placed);
    expect(refund.tokens).toBe(8);
    expect(new Set(refund.handles)).toEqual(new Set([deep, other]));
    // Given back once: charged 0 now, a second placement holding them refunds nothing for them.
    for (const held of refund.handles) charged.set(held, 0);
    expect(charged.refund(handle('/home/z /home/a/b.ts /home/q/r', 'constraint', 4)).tokens).toBe(4);
  });

  it('finds a charged handle on word boundaries after an occurrence of it inside a word, and not only inside one', () => {
    const charged = new ChargedHandles();
    const name = handle('retry_limit', 'identifier', 0);
    charged.set(name, 2);
    expect(charged.refund(handle('max_retry_limit is not it', 'constraint', 1)).tokens).toBe(0);
    expect(charged.refund(handle('max_retry_limit or retry_limit.', 'constraint', 2)).handles).toEqual([name]);
  });
});
