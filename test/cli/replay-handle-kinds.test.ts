import { describe, expect, it } from 'vitest';
import { mergeHandles } from '../../src/handles/handle-sets.js';
import { ChainKinds, kindCounts } from '../../src/session/chain-kinds.js';
import type { CompactionRecord, Handle } from '../../src/types.js';
import { fillerTurns, memoryLedger, SEED_OPENING } from '../helpers.js';

const handle = (kind: string, text: string, seq: number, start = 0): Handle =>
  ({ kind, text, seq, start, end: start + text.length }) as unknown as Handle;

const record = (id: string, type: string, handles: Handle[], extra: Partial<CompactionRecord> = {}): CompactionRecord =>
  ({ id, type, handles, ancestors: [], ...extra }) as unknown as CompactionRecord;

describe('handle index counts by kind (the replay summary line)', () => {
  it('tallies a checkpoint chain as loadHandleIndex merges it: distinct texts per kind, kinds in index order', () => {
    const first = record('c1', 'checkpoint', [handle('path', 'a.ts', 5), handle('identifier', 'x', 2, 4)]);
    const second = record('c2', 'checkpoint', [handle('path', 'a.ts', 1), handle('error', 'E1', 2, 4)], {
      ancestors: ['c1'],
    });
    const active = record('s1', 'summary', [handle('identifier', 'x', 9), handle('url', 'u', 0, 3)], {
      checkpointId: 'c2',
    });
    const kinds = new ChainKinds();
    for (const added of [first, second, active]) kinds.add(added);
    const merged = mergeHandles(active.handles, second.handles, first.handles);
    expect(kinds.counts(active)).toEqual(kindCounts(merged));
    expect([...(kinds.counts(active) ?? [])]).toEqual([...kindCounts(merged)]);
  });

  it('gives up on a checkpoint of another chain until a new chain starts', () => {
    const kinds = new ChainKinds();
    kinds.add(record('c1', 'checkpoint', [handle('path', 'a', 1)]));
    kinds.add(record('c3', 'checkpoint', [handle('path', 'b', 2)], { ancestors: ['elsewhere'] }));
    expect(kinds.counts(record('s', 'summary', [], { checkpointId: 'c3' }))).toBeUndefined();
    expect(kinds.counts(record('s', 'summary', [], { checkpointId: 'c1' }))).toBeUndefined();
    kinds.add(record('c4', 'checkpoint', [handle('path', 'c', 3)]));
    expect(kinds.counts(record('s', 'summary', [], { checkpointId: 'c4' }))).toEqual(new Map([['path', 1]]));
  });

  it('equals the counts of loadHandleIndex() on a session that released its old checkpoints', async () => {
    const session = await memoryLedger().session('kinds', { window: { maxTokens: 1500 }, heldRecords: 2 });
    await session.append(SEED_OPENING);
    for (let round = 0; round < 60; round++) {
      await session.append(fillerTurns(1, round));
      await session.compactIfDue();
    }
    expect(session.recordCount()).toBeGreaterThan(10);
    const index = await session.loadHandleIndex();
    expect(index.length).toBeGreaterThan(0);
    // Counted from the tally: the released checkpoints are not read back from the store.
    session.loadHandleIndex = () => Promise.reject(new Error('read the store'));
    expect([...(await session.handleIndexKinds())]).toEqual([...kindCounts(index)]);
  });
});
