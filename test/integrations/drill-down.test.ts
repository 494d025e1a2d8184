import { describe, expect, it } from 'vitest';
import { describeRecord, expandOriginals } from '../../src/integrations/drill-down.js';
import { grepSpans } from '../../src/integrations/grep.js';
import { SEED_OPENING, fillerTurns, memoryLedger } from '../helpers.js';

async function seeded() {
  const ledger = memoryLedger();
  const session = await ledger.session('drill', { window: { maxTokens: 3000 } });
  await session.append([SEED_OPENING, ...fillerTurns(6)]);
  const record = await session.compact(300);
  if (!record) throw new Error('expected a compaction');
  return { ledger, session, record };
}

describe('drill-down views', () => {
  it('describe reports range, lossy flag, carried and dropped handles', async () => {
    const { ledger, record } = await seeded();
    const view = await describeRecord(ledger.store, 'drill', record.id);
    expect(view).toMatchObject({
      id: record.id,
      type: 'summary',
      lossy: !record.reversible,
      range: { fromSeq: record.droppedRange.fromSeq, toSeq: record.droppedRange.toSeq },
    });
    const carried = Object.values(view.handlesByKind).reduce((sum, value) => sum + (value ?? 0), 0);
    expect(carried).toBeGreaterThan(0);
    await expect(describeRecord(ledger.store, 'drill', 'rec_missing')).rejects.toThrow(/is not in session drill/);
  });

  it('expand pages within the token cap, each original verified, and pages on with nextSeq', async () => {
    const { ledger, record } = await seeded();
    const first = await expandOriginals(ledger.store, ledger.counter, 'drill', { recordId: record.id, maxTokens: 150 });
    expect(first.tokens).toBeLessThanOrEqual(150);
    expect(first.originals.every((original) => original.status === 'verified')).toBe(true);
    expect(first.nextSeq).toBeDefined();
    const second = await expandOriginals(ledger.store, ledger.counter, 'drill', {
      recordId: record.id,
      fromSeq: first.nextSeq,
      maxTokens: 150,
    });
    expect(second.originals[0]?.seq).toBe(first.nextSeq);
    await expect(expandOriginals(ledger.store, ledger.counter, 'drill', {})).rejects.toThrow(
      /give a record id or fromSeq/,
    );
  });

  it('grep filters by role and seq range, cites span ids, and stops at the limit', async () => {
    const { ledger } = await seeded();
    const all = await grepSpans(ledger.store, 'drill', 'latency', { roles: ['tool'] });
    expect(all.matches.length).toBeGreaterThan(0);
    expect(
      all.matches.every(
        (match) => match.role === 'tool' && match.spanId.startsWith('sha256:') && match.status === 'verified',
      ),
    ).toBe(true);
    expect((await grepSpans(ledger.store, 'drill', 'latency', { roles: ['user'] })).matches).toEqual([]);
    const limited = await grepSpans(ledger.store, 'drill', 'probe \\d+\\.\\d+', { regex: true, limit: 3 });
    expect(limited).toMatchObject({ stopped: 'limit' });
    expect(limited.matches).toHaveLength(3);
    const ranged = await grepSpans(ledger.store, 'drill', 'eu-west-2b', { fromSeq: 1 });
    expect(ranged.matches).toEqual([]);
    expect((await grepSpans(ledger.store, 'drill', 'EU-WEST-2B')).matches[0]).toMatchObject({
      seq: 0,
      match: 'eu-west-2b',
    });
  });
});
