import { describe, expect, it } from 'vitest';
import type { CompactionRecord, Handle } from '../../src/types.js';
import { IndexBases, maxStaleTokens } from '../../src/window/stable-index.js';
import { ledgerBlock } from '../../src/window/ledger-block.js';
import { windowStateOf } from '../../src/window/window-state.js';
import { resolveWindowConfig } from '../../src/session/config.js';
import { handleAt, summaryRecord } from '../helpers.js';

const config = resolveWindowConfig('s', { maxTokens: 32000 });

function record(id: string, handles: Handle[], ancestors: string[] = []): CompactionRecord {
  return summaryRecord({ id, handles, ancestors });
}

/** The ledger block the window shows with `records` (the last one active), laid out by `bases`. */
const blockOf = (records: CompactionRecord[], bases = new IndexBases()) =>
  ledgerBlock(windowStateOf({ records, originals: [], config, indexBases: bases }), bases) ?? '';

/** Lines two texts share from their start. */
function sharedLines(a: string, b: string): string[] {
  const left = a.split('\n');
  const right = b.split('\n');
  const shared: string[] = [];
  while (shared.length < left.length && left[shared.length] === right[shared.length]) shared.push(left[shared.length]!);
  return shared;
}

describe('a frozen index base loses only the entries a later binding replaced (issue 37)', () => {
  const identifiers = ['orders.refund', 'billing.invoice', 'ledger.post', 'cart.checkout'].map((text) =>
    handleAt(text),
  );
  const paths = ['src/orders/refund.ts', 'src/billing/invoice.ts'].map((text) => handleAt(text, 'path'));
  const oldHost = handleAt('DB_HOST=db-ro-8', 'assignment');
  const newHost = handleAt('DB_HOST=db-ro-17', 'assignment');
  const base = record('rec_a', [...identifiers, ...paths, oldHost]);
  // Ranked otherwise now (the new binding first): a new base would lay the index out in another order.
  const active = record('rec_b', [newHost, ...paths, ...identifiers], ['rec_a']);
  const limit = maxStaleTokens(config);

  it('keeps the base pruned of the replaced entry instead of taking a new base', () => {
    const bases = new IndexBases();
    const frozen = bases.baseOf([base, active], active, limit);
    expect(frozen).not.toBe(active);
    expect(frozen.id).toBe('rec_a');
    const listed = (layout: ReturnType<IndexBases['layoutOf']>) =>
      [...layout.instructions, ...layout.quoted, ...layout.groups.flatMap((group) => group.entries)].map(
        (entry) => entry.handle.text,
      );
    expect(listed(bases.layoutOf(frozen))).not.toContain('DB_HOST=db-ro-8');
    expect(listed(bases.layoutOf(frozen))).toEqual(expect.arrayContaining(['orders.refund', 'src/orders/refund.ts']));
    expect(listed(bases.layoutSince(active, frozen))).toEqual(['DB_HOST=db-ro-17']);
    // As it is, the base may not be kept: the replaced value would read as current above the new one.
    expect(bases.keeps(base, active, limit)).toBe(false);
  });

  it('shows the lines above the replaced entry byte for byte as before, and the old value nowhere', () => {
    const before = blockOf([base]);
    const after = blockOf([base, active]);
    expect(after).not.toContain('db-ro-8');
    expect(after).toContain('DB_HOST=db-ro-17');
    const shared = sharedLines(before, after);
    expect(shared.some((line) => line.includes('orders.refund'))).toBe(true);
    expect(shared.some((line) => line.includes('src/orders/refund.ts'))).toBe(true);
  });

  it('is a pure function of the chain: a later record inherits the pruned base, settled fresh or step by step', () => {
    const next = record('rec_c', [newHost, ...paths, ...identifiers], ['rec_a', 'rec_b']);
    const stepwise = new IndexBases();
    blockOf([base], stepwise);
    blockOf([base, active], stepwise);
    const settled = blockOf([base, active, next], stepwise);
    expect(blockOf([base, active, next])).toBe(settled);
    expect(settled).not.toContain('db-ro-8');
    expect(stepwise.baseOf([base, active, next], next, limit).id).toBe('rec_a');
  });
});
