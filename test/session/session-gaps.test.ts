import { describe, expect, it } from 'vitest';
import { gapsOf } from '../../src/model/gaps.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { fillerTurns, SEED_OPENING } from '../helpers.js';

describe('session gaps kept as records are added', () => {
  it('match the gaps of the stored records while the session compacts, and after it is reopened', async () => {
    const store = createMemoryStore();
    const ledger = createLedger({ store });
    const session = await ledger.session('gaps', { window: { maxTokens: 3000 } });
    expect(session.gaps()).toEqual([]);
    await session.append(SEED_OPENING);
    await session.append(fillerTurns(6));
    await session.compact(0);
    const external = await session.importExternalSummary({
      summary: 'The deploy was retried.',
      summarizer: { name: 'other', version: '1' },
    });
    expect(external.reversible).toBe(false);
    expect(session.gaps().map((gap) => gap.recordId)).toEqual([external.id]);
    await session.append(fillerTurns(4, 6));
    await session.compact(0);
    const stored = gapsOf(await store.records('gaps'));
    expect(stored.map((gap) => gap.recordId)).toEqual([external.id]);
    expect(session.gaps()).toEqual(stored);
    const copy = session.gaps();
    copy.pop();
    expect(session.gaps()).toEqual(stored);
    const reopened = await ledger.session('gaps', { window: { maxTokens: 3000 } });
    expect(reopened.gaps()).toEqual(stored);
  });
});
