/**
 * SQLite carried handles as references to handle rows (schema version 8): a record's handle that a handle row gives
 * byte for byte is stored as that row's place, any other as its JSON; the migration of a version 7 ledger; a missing
 * handle row is named on load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { ImmutableSpanError } from '../../src/errors.js';
import { createLedger } from '../../src/session/ledger.js';
import { handleDigest } from '../../src/stores/record-handles.js';
import { SCHEMA_VERSION, createSqliteStore } from '../../src/stores/sqlite/index.js';
import { CARRIED_DIGEST_BYTES } from '../../src/stores/sqlite/schema.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { CompactionRecord } from '../../src/types.js';
import { createApproximateCounter } from '../../src/tokens/token-counter.js';
import { fillerTurns, SEED_OPENING } from '../helpers.js';
import { expectLedgerError, sampleRecord } from './fixtures.js';
import { carriedHandlesAsVersion7, spanKeysAsVersion8 } from './sqlite-old-schema.js';

const SESSION = 'carried';

/** A session that compacts several times, plus one record carrying a handle of no stored span (kept as JSON). */
async function writeSession(store: LedgerStore): Promise<CompactionRecord[]> {
  const ledger = createLedger({ store, tokenCounter: createApproximateCounter(), now: () => new Date(0) });
  const session = await ledger.session(SESSION, { window: { maxTokens: 3000 } });
  await session.append(SEED_OPENING);
  for (let round = 0; round < 4; round += 1) {
    await session.append(fillerTurns(8, round * 8));
    await session.render();
  }
  const written = await store.records(SESSION);
  const foreign = sampleRecord(SESSION, { ordinal: written.length, ancestors: [], checkpointId: undefined });
  const record = { ...foreign, id: recordId('rec', recordIdContent(foreign)) };
  await store.writeRecord(record);
  return [...written, record];
}

/** Each carried-handle id of the ledger and the JSON it stands for (found by its digest among the records' handles). */
/** The digest the SQLite store keeps for a carried handle's JSON (schema 11). */
function storedDigest(json: string): Buffer {
  return handleDigest(json).subarray(0, CARRIED_DIGEST_BYTES);
}

function jsonById(raw: Database.Database, records: readonly CompactionRecord[]): Map<number, string> {
  const byDigest = new Map<string, string>();
  for (const record of records)
    for (const handle of record.handles) {
      const json = JSON.stringify(handle);
      byDigest.set(storedDigest(json).toString('hex'), json);
    }
  const rows = raw.prepare('SELECT id, digest FROM carried_handles ORDER BY id').all() as {
    id: number;
    digest: Buffer;
  }[];
  return new Map(rows.map((row) => [row.id, byDigest.get(row.digest.toString('hex')) as string]));
}

describe('SQLite carried handles as handle-row references', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-carried-rows-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('references the handle rows that give a handle, keeps the JSON of any other, and reads the same records', async () => {
    const store = createSqliteStore({ path });
    const records = await writeSession(store);
    await store.close();
    const reopened = createSqliteStore({ path, readonly: true });
    expect(await reopened.records(SESSION)).toEqual(records);
    for (const record of records) expect(await reopened.record(SESSION, record.id)).toEqual(record);
    await reopened.close();
    const raw = new Database(path, { readonly: true });
    const rows = raw.prepare('SELECT seq, position, json FROM carried_handles ORDER BY id').all() as {
      seq: number | null;
      position: number | null;
      json: string | null;
    }[];
    const kept = rows.filter((row) => row.json !== null);
    expect(kept.map((row) => JSON.parse(row.json!).spanId)).toEqual([`sha256:${'a'.repeat(64)}`]);
    expect(rows.length - kept.length).toBeGreaterThan(10);
    raw.close();
  });

  it('names a carried handle whose handle row is gone', async () => {
    const store = createSqliteStore({ path });
    const records = await writeSession(store);
    const target = records.find((record) => record.handles.length > 0)!;
    const raw = new Database(path);
    raw.exec('DROP TRIGGER handle_rows_no_delete');
    raw.exec(
      'DELETE FROM handle_rows WHERE (session, seq, position) IN (SELECT session, seq, position FROM carried_handles)',
    );
    raw.close();
    await expectLedgerError(store.record(SESSION, target.id), ImmutableSpanError, 'IMMUTABLE_SPAN', [
      target.id,
      /carried handle \d+ it names is missing/,
    ]);
    await store.close();
  });

  it('migrates a version 7 ledger: same ids and digests, references where a handle row gives the JSON', async () => {
    const store = createSqliteStore({ path });
    const records = await writeSession(store);
    await store.close();
    // Back to version 7: every carried handle as JSON in `record_handles`, as that version stored them.
    const older = new Database(path);
    const byId = jsonById(older, records);
    spanKeysAsVersion8(older);
    carriedHandlesAsVersion7(older, SESSION, byId);
    older.pragma('user_version = 7');
    older.close();

    const migrated = createSqliteStore({ path });
    expect(await migrated.records(SESSION)).toEqual(records);
    await migrated.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.prepare("SELECT COUNT(*) FROM sqlite_schema WHERE name LIKE 'record_handles%'").pluck().get()).toBe(0);
    const rows = raw.prepare('SELECT id, digest, json FROM carried_handles ORDER BY id').all() as {
      id: number;
      digest: Buffer;
      json: string | null;
    }[];
    // Version 7 kept 16 bytes of each digest; version 11 keeps the first 8.
    expect(rows.map((row) => [row.id, row.digest])).toEqual([...byId].map(([id, json]) => [id, storedDigest(json)]));
    expect(rows.filter((row) => row.json !== null)).toHaveLength(1);
    raw.close();
  });
});
