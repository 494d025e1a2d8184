/**
 * A compaction hashes each record it builds once: the record is frozen and vouched for (`stores/vouched-records.ts`),
 * so the store's write check takes it as it is instead of copying and hashing it again. The records are the same
 * (ids, content, what the store reads back); a record that is not vouched for is still copied and checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as RecordId from '../../src/model/record-id.js';
import { InvalidInputError } from '../../src/errors.js';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { isVouched, vouchRecord } from '../../src/stores/vouched-records.js';
import type { CompactionRecord } from '../../src/types.js';
import { fillerTurns, SEED_OPENING, summaryRecord } from '../helpers.js';

/** How often the store's check recomputed a record's id (`expectedRecordId`). */
const calls = { expected: 0 };

vi.mock('../../src/model/record-id.js', async (importOriginal) => {
  const original = await importOriginal<typeof RecordId>();
  return {
    ...original,
    expectedRecordId: (...args: Parameters<typeof original.expectedRecordId>) => {
      calls.expected++;
      return original.expectedRecordId(...args);
    },
  };
});

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A session on `store` that compacts several times; its records. */
async function compacted(
  store: LedgerStore,
  id: string,
  summarizer = createExtractiveSummarizer(),
): Promise<CompactionRecord[]> {
  const ledger = createLedger({ store, summarizer, now: () => new Date('2026-12-05T10:00:00Z') });
  const session = await ledger.session(id, { window: { maxTokens: 1500 } });
  await session.append(SEED_OPENING);
  for (let round = 0; round < 24; round += 4) {
    await session.append(fillerTurns(4, round));
    await session.render();
  }
  return session.records();
}

describe('records a compaction builds are hashed once', () => {
  it('are frozen and vouched for, and the store does not hash them again', async () => {
    calls.expected = 0;
    const summarizer = createExtractiveSummarizer();
    const records = await compacted(createMemoryStore(), 'vouched-memory', summarizer);
    // The record is frozen whole; the summarizer's own identity object is not (the record holds a copy).
    expect(Object.isFrozen(summarizer.identity)).toBe(false);
    expect(records.filter((record) => record.type === 'summary').length).toBeGreaterThan(1);
    expect(records.some((record) => record.type === 'checkpoint')).toBe(true);
    for (const record of records) {
      expect(isVouched(record)).toBe(true);
      expect(Object.isFrozen(record.handles)).toBe(true);
      expect(Object.isFrozen(record.claims)).toBe(true);
    }
    // Without the vouch, the store's check recomputed the id of every record written.
    expect(calls.expected).toBe(0);
  });

  it('reads back from SQLite exactly as the session holds them (plain JSON data, no undefined field)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cl-vouched-'));
    folders.push(folder);
    const path = join(folder, 'ledger.db');
    const store = createSqliteStore({ path });
    const held = await compacted(store, 'vouched-sqlite');
    await store.close();
    const reopened = createSqliteStore({ path, readonly: true });
    const read = await reopened.records('vouched-sqlite');
    await reopened.close();
    expect(read.map((record) => record.id)).toEqual(held.map((record) => record.id));
    expect(read).toStrictEqual(held);
    for (const record of held) expect(JSON.parse(JSON.stringify(record))).toStrictEqual(record);
  });

  it('gives the same records as a store that copies and checks each one', async () => {
    const vouched = await compacted(createMemoryStore(), 'same-records');
    const store = createMemoryStore();
    const write = store.writeRecord.bind(store);
    // The same compactions, each record handed to the store as an unvouched copy (checked and hashed again).
    store.writeRecord = (record) => write({ ...record });
    calls.expected = 0;
    const checked = await compacted(store, 'same-records');
    expect(calls.expected).toBeGreaterThan(0);
    expect(JSON.stringify(checked)).toBe(JSON.stringify(vouched));
  });

  it('still refuses a record that is not vouched for and does not match its id', async () => {
    const store = createMemoryStore();
    await store.openSession('s');
    const draft = summaryRecord({ sessionId: 's', summary: 'Deploy to eu-west-2b.' });
    const good = { ...draft, id: recordId('rec', recordIdContent(draft)) };
    await store.writeRecord(good);
    const edited = { ...good, ordinal: 1, summary: `${good.summary} (edited)` };
    expect(isVouched(edited)).toBe(false);
    await expect(store.writeRecord(edited)).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('a vouched record cannot be changed after it was vouched for', () => {
    const record = vouchRecord(summaryRecord({ sessionId: 's' }));
    expect(() => {
      (record as { summary: string }).summary = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (record.handles as unknown as unknown[]).push({});
    }).toThrow(TypeError);
  });
});
