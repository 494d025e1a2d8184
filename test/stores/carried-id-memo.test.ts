/**
 * The SQLite store remembers the carried-handle ids of the last records it wrote (`carried-handle-ids.ts`): the ids it
 * finds there are the ones a store that remembers nothing reads back, also once the records carried more distinct
 * handles than the memory holds (`MEMO_ENTRIES`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { MEMO_ENTRIES } from '../../src/stores/record-handles.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { vouchRecord } from '../../src/stores/vouched-records.js';
import type { CompactionRecord } from '../../src/types.js';
import { sampleRecord } from './fixtures.js';

/** Record `ordinal` of session `s`: 1,500 handles, the last 800 of the record before and 700 new ones. */
function slidingRecord(ordinal: number): CompactionRecord {
  const base = sampleRecord('s', { ordinal, ancestors: [], checkpointId: undefined });
  const handle = base.handles[0]!;
  const handles = Array.from({ length: 1_500 }, (_, index) => {
    const text = `node-${ordinal * 700 + index}.cluster.internal`;
    return Object.freeze({ ...handle, text, key: text, end: handle.start + text.length });
  });
  const carried = { ...base, handles };
  return { ...carried, id: recordId('rec', recordIdContent(carried)) };
}

/**
 * Records `0..count-1` of session `s` that carry the same handle objects (as a session's compactions do): record n
 * carries handles `300n` to `300n + 899` of one pool of frozen handles, the first 600 of them the last 600 of record
 * n - 1. Vouched (`vouchRecord`) when `vouched`; record 3 is always a plain copy (its handles other objects).
 */
function sharedHandleRecords(count: number, vouched: boolean): CompactionRecord[] {
  const base = sampleRecord('s', { ordinal: 0, ancestors: [], checkpointId: undefined });
  const handle = base.handles[0]!;
  const pool = Array.from({ length: 300 * count + 600 }, (_, index) => {
    const text = `svc-${index}.mesh.local`;
    return Object.freeze({ ...handle, text, key: text, end: handle.start + text.length });
  });
  return Array.from({ length: count }, (_, ordinal) => {
    const handles = pool.slice(300 * ordinal, 300 * ordinal + 900);
    const carried = { ...base, ordinal, handles: ordinal === 3 ? handles.map((item) => ({ ...item })) : handles };
    const record = { ...carried, id: recordId('rec', recordIdContent(carried)) };
    return vouched && ordinal !== 3 ? vouchRecord(record) : record;
  });
}

/** What the ledger file holds of the records and their carried handles. */
function storedRows(path: string): unknown[] {
  const raw = new Database(path, { readonly: true });
  try {
    return [
      raw.prepare('SELECT id, handle_ids, base_id, delta, chain FROM records ORDER BY ordinal').all(),
      raw.prepare('SELECT * FROM carried_handles ORDER BY session, id').all(),
    ];
  } finally {
    raw.close();
  }
}

describe('SQLite: carried-handle ids remembered from the last records', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-carried-memo-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('are the ids a store that remembers nothing finds, past the memo size', async () => {
    const records = Array.from({ length: 8 }, (_, ordinal) => slidingRecord(ordinal));
    expect(8 * 700 + 800).toBeGreaterThan(MEMO_ENTRIES);
    // One store writes them all (remembering its last records); another is opened afresh for each record.
    const kept = join(directory, 'kept.db');
    const store = createSqliteStore({ path: kept });
    await store.openSession('s');
    for (const record of records) await store.writeRecord(record);
    expect(await store.records('s')).toEqual(records);
    await store.close();
    const fresh = join(directory, 'fresh.db');
    for (const record of records) {
      const once = createSqliteStore({ path: fresh });
      await once.openSession('s');
      await once.writeRecord(record);
      await once.close();
    }
    expect(storedRows(kept)).toEqual(storedRows(fresh));
  });

  it('are found by handle object for vouched records, the same ids and rows as by JSON', async () => {
    const vouched = sharedHandleRecords(7, true);
    const plain = sharedHandleRecords(7, false);
    const written: unknown[] = [];
    for (const [name, records] of [
      ['vouched', vouched],
      ['plain', plain],
    ] as const) {
      const path = join(directory, `${name}.db`);
      const store = createSqliteStore({ path });
      await store.openSession('s');
      for (const record of records) await store.writeRecord(record);
      expect(await store.records('s')).toEqual(plain);
      await store.close();
      written.push(storedRows(path));
    }
    expect(written[0]).toEqual(written[1]);
    const fresh = join(directory, 'fresh.db');
    for (const record of plain) {
      const once = createSqliteStore({ path: fresh });
      await once.openSession('s');
      await once.writeRecord(record);
      await once.close();
    }
    expect(written[0]).toEqual(storedRows(fresh));
  });
});
