import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLedger } from '../../src/session/ledger.js';
import type { LedgerSession } from '../../src/session/session.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { SessionRecords } from '../../src/session/session-records.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { CompactionRecord } from '../../src/types.js';
import { fillerTurns, SEED_OPENING } from '../helpers.js';
import { sampleRecord } from '../stores/fixtures.js';

/**
 * A compaction that spills writes two records, its checkpoint then its summary. A process killed between the two
 * writes leaves the checkpoint stored without the summary naming it. These tests reopen such a session and go on.
 */

const WINDOW = { window: { maxTokens: 1500 } } as const;

class Killed extends Error {}

/** `store`, with writeRecord throwing for the first summary record written after `armed` is set (the kill). */
function killableStore(store: LedgerStore): { store: LedgerStore; arm: () => void; fired: () => boolean } {
  let armed = false;
  let fired = false;
  const wrapped = Object.create(store) as LedgerStore;
  wrapped.writeRecord = async (record: CompactionRecord) => {
    if (armed && record.type === 'summary') {
      armed = false;
      fired = true;
      throw new Killed(`killed before writing ${record.id}`);
    }
    return store.writeRecord(record);
  };
  return { store: wrapped, arm: () => (armed = true), fired: () => fired };
}

/** Appends rounds and compacts as a replay does, from round `from` on, until `until` (exclusive). */
async function drive(session: LedgerSession, from: number, until: number, stop?: () => boolean): Promise<number> {
  for (let round = from; round < until; round++) {
    await session.append(fillerTurns(1, round));
    try {
      await session.compactIfDue();
    } catch (error) {
      if (error instanceof Killed) return round + 1;
      throw error;
    }
    if (stop?.()) return round + 1;
  }
  return until;
}

/** Stored records: ordinals unique and ascending, every summary's checkpoint stored before it. */
function expectConsistent(records: readonly CompactionRecord[]): void {
  const ordinals = records.map((record) => record.ordinal);
  expect(new Set(ordinals).size).toBe(ordinals.length);
  expect([...ordinals].sort((a, b) => a - b)).toEqual(ordinals);
  const seen = new Set<string>();
  for (const record of records) {
    if (record.checkpointId !== undefined) expect(seen.has(record.checkpointId)).toBe(true);
    for (const ancestor of record.ancestors) expect(seen.has(ancestor)).toBe(true);
    seen.add(record.id);
  }
}

/**
 * Runs a session until a compaction that spills is killed after its checkpoint write, reopens it on the same
 * store and goes on: `resumeAt` says whether the reopened session first compacts what the killed one was compacting
 * (a resumed replay) or first appends more turns.
 */
async function killAndReopen(open: () => Promise<LedgerStore>, immediate: boolean) {
  const killable = killableStore(await open());
  const first = await createLedger({ store: killable.store }).session('s', WINDOW);
  await first.append(SEED_OPENING);
  // Warm up with a few compactions, then kill the first compaction that writes a checkpoint before its summary.
  const warm = await drive(first, 0, 20);
  expect(first.recordCount()).toBeGreaterThan(2);
  killable.arm();
  const killedAt = await drive(first, warm, 80, killable.fired);
  expect(killable.fired()).toBe(true);
  const stored = await killable.store.records('s');
  const last = stored[stored.length - 1] as CompactionRecord;
  expect(last.type).toBe('checkpoint');
  expect(stored.some((record) => record.checkpointId === last.id)).toBe(false);

  const ledger = createLedger({ store: killable.store });
  const reopened = await ledger.session('s', WINDOW);
  expect(reopened.recordCount()).toBe(stored.length);
  // A resumed replay compacts again what the killed process was compacting, before appending what follows.
  if (immediate) await reopened.compactIfDue();
  await drive(reopened, killedAt, killedAt + 40);
  const records = await killable.store.records('s');
  expect(records.length).toBeGreaterThan(stored.length + 2);
  expectConsistent(records);
  expect(records.map((record) => record.id)).toEqual(reopened.records().map((record) => record.id));
  // Reopening once more gives the same records and the same window.
  const again = await ledger.session('s', WINDOW);
  expect(again.records()).toEqual(reopened.records());
  expect((await again.render()).text).toBe((await reopened.render()).text);
  return { stored, records, last, killedAt };
}

const directory = mkdtempSync(join(tmpdir(), 'half-written-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let count = 0;

describe.each([
  ['memory', async () => createMemoryStore()],
  ['SQLite', async () => createSqliteStore({ path: join(directory, `half-${count++}.db`) })],
])('a session reopened after a compaction killed between its two record writes (%s)', (_name, open) => {
  it('goes on appending and compacting without an ordinal conflict', async () => {
    await killAndReopen(open, false);
  });

  it('redoes the killed compaction with its stored checkpoint, as the uninterrupted run wrote it', async () => {
    const { stored, records, last } = await killAndReopen(open, true);
    // The compaction redone reuses the stored checkpoint: its summary names it and takes the next ordinal.
    const next = records[stored.length] as CompactionRecord;
    expect(next.type).toBe('summary');
    expect(next.checkpointId).toBe(last.id);
    expect(next.ordinal).toBe(last.ordinal + 1);
  });

  it('writes, once the killed compaction is redone, the records of a run never killed', async () => {
    const { records, killedAt } = await killAndReopen(open, true);
    const whole = await createLedger({ store: await open() }).session('s', WINDOW);
    await whole.append(SEED_OPENING);
    await drive(whole, 0, killedAt + 40);
    expect(records.map((record) => record.id)).toEqual(whole.records().map((record) => record.id));
  });

  it('goes on past a hole in the stored ordinals (left by a version that skipped one when reusing a checkpoint)', async () => {
    const store = await open();
    let shift = false;
    const skipping = Object.create(store) as LedgerStore;
    // Writes the first summary after `shift` is set one ordinal further on, as that version did.
    skipping.writeRecord = async (record: CompactionRecord) => {
      if (!shift || record.type !== 'summary') return store.writeRecord(record);
      shift = false;
      const moved = { ...record, ordinal: record.ordinal + 1 };
      return store.writeRecord({ ...moved, id: recordId('rec', recordIdContent(moved)) });
    };
    const first = await createLedger({ store: skipping }).session('s', WINDOW);
    await first.append(SEED_OPENING);
    await drive(first, 0, 20);
    shift = true;
    await drive(first, 20, 80, () => !shift);
    const stored = await store.records('s');
    const ordinals = stored.map((record) => record.ordinal);
    expect(ordinals[ordinals.length - 1]).toBe(ordinals.length);

    const reopened = await createLedger({ store }).session('s', WINDOW);
    const before = reopened.recordCount();
    for (let round = 80; round < 120; round++) {
      await reopened.append(fillerTurns(1, round));
      await reopened.compactIfDue();
    }
    expect(reopened.recordCount()).toBeGreaterThan(before);
    const records = await store.records('s');
    expectConsistent(records);
    expect(records[stored.length]?.ordinal).toBe(stored.length + 1);
  });
});

describe('SessionRecords.nextOrdinal', () => {
  const record = (ordinal: number, type: CompactionRecord['type'] = 'summary') =>
    sampleRecord('s', { id: `r${ordinal}`, ordinal, type, ancestors: [], checkpointId: undefined, findings: [] });

  it('is one past the highest ordinal added, held or released, not the number of records', () => {
    expect(new SessionRecords('s', []).nextOrdinal).toBe(0);
    expect(new SessionRecords('s', [record(0, 'checkpoint'), record(2)]).nextOrdinal).toBe(3);
    const held = new SessionRecords(
      's',
      [0, 1, 3, 4, 5, 6, 7, 8].map((ordinal) => record(ordinal)),
      1,
    );
    expect(held.complete).toBe(false);
    expect(held.count).toBe(8);
    expect(held.nextOrdinal).toBe(9);
    held.add(record(9, 'checkpoint'));
    expect(held.nextOrdinal).toBe(10);
  });
});
