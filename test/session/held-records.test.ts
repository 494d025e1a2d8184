import { describe, expect, it } from 'vitest';
import { InvalidConfigError, InvalidInputError } from '../../src/errors.js';
import type { LedgerSession } from '../../src/session/session.js';
import { fillerTurns, memoryLedger, SEED_OPENING } from '../helpers.js';

async function replayed(heldRecords?: number): Promise<LedgerSession> {
  const session = await memoryLedger().session('held', { window: { maxTokens: 1500 }, heldRecords });
  await session.append(SEED_OPENING);
  for (let round = 0; round < 60; round++) {
    await session.append(fillerTurns(1, round));
    await session.compactIfDue();
  }
  return session;
}

describe('heldRecords', () => {
  it('releases old records from memory without changing a compaction, the context or the handle index', async () => {
    const all = await replayed();
    const held = await replayed(2);
    const records = all.records();
    expect(records.length).toBeGreaterThan(10);
    expect(held.recordCount()).toBe(records.length);
    expect(held.recordSummaries().map((record) => record.id)).toEqual(records.map((record) => record.id));
    expect((await held.loadRecords()).map((record) => record.id)).toEqual(records.map((record) => record.id));
    expect(held.activeRecord()).toEqual(all.activeRecord());
    expect(await held.loadHandleIndex()).toEqual(all.handleIndex());
    expect(await all.loadHandleIndex()).toEqual(all.handleIndex());
    expect(() => held.handleIndex()).toThrow(/spill checkpoints were released from memory.*loadHandleIndex/);
    expect(held.gaps()).toEqual(all.gaps());
    expect((await held.render()).text).toBe((await all.render()).text);
    expect(await held.recall('eu-west-2b')).toEqual(await all.recall('eu-west-2b'));
    expect(() => held.records()).toThrow(InvalidInputError);
    expect(() => held.records()).toThrow(/released from memory.*loadRecords/);
  });

  it('must be a positive integer', async () => {
    await expect(memoryLedger().session('bad', { heldRecords: 0 })).rejects.toThrow(InvalidConfigError);
  });
});
