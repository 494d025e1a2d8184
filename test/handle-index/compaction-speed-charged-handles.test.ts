import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChargedHandles } from '../../src/handle-index/charged-handles.js';
import { shownInside } from '../../src/handle-index/index-layout.js';
import type { Handle } from '../../src/types.js';

function handle(text: string, seq: number): Handle {
  return { kind: 'endpoint', text, key: text, start: 0, end: text.length, spanId: 's', seq, role: 'tool', tokens: 4 };
}

/** Host names from a small pool, so texts share their first 4 characters, often their first 8, and end alike. */
const piece = fc.constantFrom('node-', 'node-a1', 'pool-', 'internal', ':80', ':8080', 'a1', '/', ' ', 'x', '.');
const text = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));

describe('ChargedHandles, kept handles that start alike (compaction speed)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('compares a placed text only with the charged handles that hold its first 8 characters', () => {
    const charged = new ChargedHandles();
    // 200 kept endpoints of a host inventory: all start with "node", none with "node-zzz".
    for (let index = 0; index < 200; index++)
      charged.set(handle(`node-${index.toString(16)}.pool-1.internal:8080`, index), 4);
    const compared = vi.spyOn(String.prototype, 'startsWith');
    const refund = charged.refund(handle('node-zzzz.pool-1.internal:8080 node-zzzy.pool-2.internal:8081', 200));
    expect(refund.tokens).toBe(0);
    // Only a handle whose first 8 characters share their key with a start of the text is compared (none, but for a
    // rare key collision).
    expect(compared.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('refunds a charged handle of 8 characters or more that ends where the placed text ends', () => {
    const charged = new ChargedHandles();
    const tail = handle('internal', 0);
    const short = handle('node-a1', 1);
    charged.set(tail, 3);
    charged.set(short, 2);
    const refund = charged.refund(handle('node-a1 at pool-1.internal', 2));
    expect(refund.tokens).toBe(5);
    expect(new Set(refund.handles)).toEqual(new Set([tail, short]));
  });

  it('refunds exactly what a scan of every charged handle finds, when many start with the same 4 or 8 characters', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ text, cost: fc.integer({ min: 0, max: 5 }) }), { maxLength: 40 }), (rows) => {
        const charged = new ChargedHandles();
        const costs = new Map<Handle, number>();
        rows.forEach((row, seq) => {
          const placed = handle(row.text, seq);
          const inside = [...costs].filter(([held, cost]) => cost > 0 && shownInside(held, [placed.text]));
          const refund = charged.refund(placed);
          expect(refund.tokens).toBe(inside.reduce((sum, [, cost]) => sum + cost, 0));
          expect(new Set(refund.handles)).toEqual(new Set(inside.map(([held]) => held)));
          for (const held of refund.handles) {
            charged.set(held, 0);
            costs.set(held, 0);
          }
          charged.set(placed, row.cost);
          costs.set(placed, row.cost);
        });
      }),
      { numRuns: 300, seed: 37 },
    );
  });
});
