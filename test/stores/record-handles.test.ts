/**
 * Carried handles stored once per session (SQLite schema 3, PostgreSQL migration 4): records
 * read back equal what was written, the bytes no longer repeat per record, tampering with the
 * shared handle rows is refused on load, and ledgers written by the previous schema still open,
 * recall and verify.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { ImmutableSpanError } from '../../src/errors.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { MIGRATIONS as PG_MIGRATIONS, createPostgresStore } from '../../src/stores/postgres/index.js';
import { decodeHandleIds, encodeHandleIds, sparseIds } from '../../src/stores/record-handles.js';
import { SCHEMA_VERSION, createSqliteStore } from '../../src/stores/sqlite/index.js';
import { applyMigration } from '../../src/stores/sqlite/migrate.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { CompactionRecord } from '../../src/types.js';
import { createApproximateCounter } from '../../src/tokens/token-counter.js';
import { fillerTurns, SEED_OPENING } from '../helpers.js';
import { entry, expectLedgerError, sampleRecord } from './fixtures.js';
import { PG_URL, beginOldSchema, describePostgres, dropSchema, rawClient, uniqueSchema } from './postgres-env.js';

const context = { location: 'sqlite:/x.db', sessionId: 's', recordId: 'rec_1' };

/** Records of a session that compacts several times (summaries re-carrying their ancestors' handles). */
async function compactingSession(store: LedgerStore, sessionId = 'carried'): Promise<CompactionRecord[]> {
  const ledger = createLedger({ store, tokenCounter: createApproximateCounter(), now: () => new Date(0) });
  const session = await ledger.session(sessionId, { window: { maxTokens: 3000 } });
  await session.append(SEED_OPENING);
  for (let round = 0; round < 4; round += 1) {
    await session.append(fillerTurns(8, round * 8));
    await session.render();
  }
  const records = await store.records(sessionId);
  expect(records.length).toBeGreaterThan(2);
  return records;
}

/** A record whose id is its content hash, with handles, as compaction writes them. */
function hashedRecord(sessionId: string, ordinal: number): CompactionRecord {
  const record = sampleRecord(sessionId, { ordinal, ancestors: [], checkpointId: undefined });
  return { ...record, id: recordId('rec', recordIdContent(record)) };
}

/** A record of `sessionId` at `ordinal` carrying handles with these texts (its id its content hash). */
function recordCarrying(sessionId: string, ordinal: number, texts: readonly string[]): CompactionRecord {
  const base = sampleRecord(sessionId, { ordinal, ancestors: [], checkpointId: undefined });
  const handle = base.handles[0]!;
  const handles = texts.map((text) => Object.freeze({ ...handle, text, key: text, end: handle.start + text.length }));
  const carried = { ...base, handles };
  return { ...carried, id: recordId('rec', recordIdContent(carried)) };
}

/**
 * Writes 40 records of 8 new handles each, then one carrying the first record's and the last one's handles: its ids
 * span some 320 stored rows for 16 handles, so a store reads them by id, not by range. Returns the last record.
 */
async function sparseRecords(store: LedgerStore, sessionId: string): Promise<CompactionRecord> {
  await store.openSession(sessionId);
  const texts = (record: number) => Array.from({ length: 8 }, (_, index) => `host-${record}-${index}.internal`);
  for (let ordinal = 0; ordinal < 40; ordinal++)
    await store.writeRecord(recordCarrying(sessionId, ordinal, texts(ordinal)));
  const last = recordCarrying(sessionId, 40, [...texts(39), ...texts(0)]);
  await store.writeRecord(last);
  return last;
}

/** A record row's carried-handle id list: in the clear, or inside its packed snapshot (SQLite schema 11). */
function snapshotIds(raw: Database.Database, id: string): string {
  const row = raw.prepare('SELECT handle_ids, delta FROM records WHERE id = ?').get(id) as {
    handle_ids: string | null;
    delta: Buffer | null;
  };
  if (row.handle_ids !== null) return row.handle_ids;
  const text = inflateRawSync(row.delta!).toString('utf8');
  return text.slice(text.indexOf('\n') + 1);
}

/** Rewrites a snapshot row's id list below the API (the row's immutability trigger must be dropped first). */
function setSnapshotIds(raw: Database.Database, id: string, ids: string): void {
  const row = raw.prepare('SELECT handle_ids, delta FROM records WHERE id = ?').get(id) as {
    handle_ids: string | null;
    delta: Buffer | null;
  };
  if (row.handle_ids !== null) {
    raw.prepare('UPDATE records SET handle_ids = ? WHERE id = ?').run(ids, id);
    return;
  }
  const text = inflateRawSync(row.delta!).toString('utf8');
  const packed = deflateRawSync(`${text.slice(0, text.indexOf('\n'))}\n${ids}`);
  raw.prepare('UPDATE records SET delta = ? WHERE id = ?').run(packed, id);
}

describe('carried-handle id runs', () => {
  it('are read by id, not by range, when the range is much wider than the ids it holds', () => {
    expect(
      sparseIds(
        [
          [0, 1, 2],
          [3, 4],
        ],
        0,
        4,
      ),
    ).toBeUndefined();
    expect(sparseIds([undefined], Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)).toBeUndefined();
    const wide = [Array.from({ length: 8 }, (_, index) => 312 + index), [7, 3, 0, 2, 1, 4, 5, 6]];
    expect(sparseIds(wide, 0, 319)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, ...wide[0]!]);
    expect(sparseIds([[0, 200]], 0, 200)).toEqual([0, 200]);
    expect(sparseIds([[0, 60]], 0, 60)).toBeUndefined();
  });

  it('round-trip, collapsing runs of consecutive ids', () => {
    for (const ids of [[], [0], [0, 1, 2, 5, 7, 8], [9, 3, 4, 5, 1], [2, 2, 3]]) {
      const text = encodeHandleIds(ids);
      expect(decodeHandleIds(text, context)).toEqual(ids);
    }
    expect(encodeHandleIds([0, 1, 2, 5, 7, 8])).toBe('0-2,5,7-8');
  });

  it('refuse malformed text, naming the record', () => {
    for (const bad of ['x', '1,,2', '5-3', '1-', '-1', '0-99999999']) {
      expect(() => decodeHandleIds(bad, context), bad).toThrow(ImmutableSpanError);
      expect(() => decodeHandleIds(bad, context), bad).toThrow(/record rec_1 of session s .*malformed/);
    }
  });
});

describe('SQLite: carried handles stored once per session', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-carried-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('reads records back as written, storing each distinct handle once', async () => {
    const store = createSqliteStore({ path });
    const records = await compactingSession(store);
    const memory = createMemoryStore();
    expect(await compactingSession(memory)).toEqual(records);
    for (const record of records) expect(await store.record('carried', record.id)).toEqual(record);
    const raw = new Database(path, { readonly: true });
    const carried = records.reduce((sum, record) => sum + record.handles.length, 0);
    const distinct = new Set(records.flatMap((record) => record.handles.map((handle) => JSON.stringify(handle))));
    expect(raw.prepare('SELECT COUNT(*) FROM carried_handles').pluck().get()).toBe(distinct.size);
    expect(distinct.size).toBeLessThan(carried);
    // Handles of the session's own spans name their handle row (schema 8) instead of repeating its JSON.
    expect(raw.prepare('SELECT COUNT(*) FROM carried_handles WHERE json IS NULL').pluck().get()).toBe(distinct.size);
    for (const json of raw.prepare('SELECT json FROM records WHERE delta IS NULL').pluck().all() as string[])
      expect(JSON.parse(json).handles).toEqual([]);
    raw.close();
    await store.close();
  });

  it('reads a late record whose handles were stored far apart (by id), and names a missing one', async () => {
    const store = createSqliteStore({ path });
    const last = await sparseRecords(store, 'sparse');
    expect(await store.record('sparse', last.id)).toEqual(last);
    expect((await store.records('sparse')).at(-1)).toEqual(last);
    await store.close();
    const raw = new Database(path);
    raw.exec('DROP TRIGGER carried_handles_no_delete');
    raw
      .prepare(
        "DELETE FROM carried_handles WHERE session = (SELECT key FROM session_keys WHERE session_id = 'sparse') AND id = 3",
      )
      .run();
    raw.close();
    const reopened = createSqliteStore({ path });
    await expect(reopened.record('sparse', last.id)).rejects.toThrow(/carried handle 3 it names is missing/);
    await reopened.close();
  });

  it('refuses changes to stored handles, and a record whose handles were changed below the API fails on load', async () => {
    const store = createSqliteStore({ path });
    const records = await compactingSession(store);
    const target = records.find((record) => record.handles.length > 0)!;
    const raw = new Database(path);
    expect(() => raw.exec("UPDATE carried_handles SET json = '{}'")).toThrow(/immutable/);
    expect(() => raw.exec('DELETE FROM carried_handles')).toThrow(/immutable/);
    raw.exec('DROP TRIGGER handle_rows_no_update');
    const [firstId] = decodeHandleIds(snapshotIds(raw, target.id), context);
    // The carried handle names a handle row: editing that row changes the record, whose id then no longer checks.
    raw
      .prepare(
        `UPDATE handle_rows SET text = 'eu-west-1' WHERE (session, seq, position) =
         (SELECT session, seq, position FROM carried_handles WHERE id = ?)`,
      )
      .run(firstId);
    raw.close();
    await expectLedgerError(store.record('carried', target.id), ImmutableSpanError, 'IMMUTABLE_SPAN', [
      target.id,
      /changed after it was written/,
    ]);
    await expectLedgerError(store.records('carried'), ImmutableSpanError, 'IMMUTABLE_SPAN', [/changed after/]);
    await store.close();
  });

  it('names a record whose carried handle row is missing or whose id list was edited', async () => {
    const store = createSqliteStore({ path });
    await store.openSession('s');
    const record = hashedRecord('s', 0);
    await store.writeRecord(record);
    const raw = new Database(path);
    raw.exec('DROP TRIGGER records_no_update');
    setSnapshotIds(raw, record.id, '7');
    await expectLedgerError(store.record('s', record.id), ImmutableSpanError, 'IMMUTABLE_SPAN', [
      record.id,
      /carried handle 7 it names is missing/,
    ]);
    setSnapshotIds(raw, record.id, 'zero');
    raw.close();
    await expectLedgerError(store.records('s'), ImmutableSpanError, 'IMMUTABLE_SPAN', [record.id, /malformed/]);
    await store.close();
  });

  it('keeps the ids of one session apart from another', async () => {
    const store = createSqliteStore({ path });
    await store.openSession('a');
    await store.openSession('b');
    const a = hashedRecord('a', 0);
    const b = hashedRecord('b', 0);
    await store.writeRecord(a);
    await store.writeRecord(b);
    expect(await store.records('a')).toEqual([a]);
    expect(await store.records('b')).toEqual([b]);
    await store.close();
  });

  it('remembers carried-handle ids per session and only once a record committed', async () => {
    const store = createSqliteStore({ path });
    for (const sessionId of ['a', 'b']) await store.openSession(sessionId);
    const handle = (text: string) =>
      Object.freeze({ ...sampleRecord('a').handles[0]!, text, key: text, end: 31 + text.length });
    const withHandles = (sessionId: string, ordinal: number, texts: string[]): CompactionRecord => {
      const record = sampleRecord(sessionId, { ordinal, ancestors: [], checkpointId: undefined });
      const carried = { ...record, handles: texts.map(handle) };
      return { ...carried, id: recordId('rec', recordIdContent(carried)) };
    };
    // Session b's ids are not session a's: the handles it names are stored in another order.
    const a0 = withHandles('a', 0, ['alpha-1', 'beta-2']);
    const b0 = withHandles('b', 0, ['beta-2', 'alpha-1']);
    await store.writeRecord(a0);
    await store.writeRecord(b0);
    // A write that fails after storing its new handle rolls back: the id it got must not be remembered.
    const failing = withHandles('a', 1, ['alpha-1', 'gamma-3']);
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER fail_once BEFORE INSERT ON records WHEN NEW.id = '${failing.id}'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    await expect(store.writeRecord(failing)).rejects.toThrow(/refused by the test/);
    raw.exec('DROP TRIGGER fail_once');
    raw.close();
    const a1 = withHandles('a', 1, ['delta-4', 'alpha-1']);
    const a2 = withHandles('a', 2, ['gamma-3', 'beta-2', 'delta-4']);
    await store.writeRecord(a1);
    await store.writeRecord(a2);
    const b1 = withHandles('b', 1, ['alpha-1', 'beta-2']);
    await store.writeRecord(b1);
    expect(await store.records('a')).toEqual([a0, a1, a2]);
    expect(await store.records('b')).toEqual([b0, b1]);
    await store.close();
  });

  it('opens a version 2 ledger: its inline records still load and verify, recall works, new records are stored by id', async () => {
    const older = new Database(path);
    applyMigration(older, 0);
    applyMigration(older, 1);
    older.pragma('user_version = 2');
    older.prepare("INSERT INTO sessions (id, tenant_id, created_at) VALUES ('s', NULL, 'then')").run();
    const inline = hashedRecord('s', 0);
    older
      .prepare(
        "INSERT INTO records (session_id, id, ordinal, type, json, created_at) VALUES ('s', ?, 0, 'summary', ?, 'then')",
      )
      .run(inline.id, JSON.stringify(inline));
    older.close();
    const store = createSqliteStore({ path });
    expect(await store.records('s')).toEqual([inline]);
    await store.append('s', 0, [entry('user', 'deploy to eu-west-2b', [{ kind: 'identifier', text: 'eu-west-2b' }])]);
    expect((await store.searchText('s', 'west-2', 5)).map((hit) => hit.seq)).toEqual([0]);
    expect(await store.findHandles('s', 'eu-west-2b')).toHaveLength(1);
    const next = hashedRecord('s', 1);
    await store.writeRecord(next);
    expect(await store.records('s')).toEqual([inline, next]);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.prepare('SELECT handle_ids FROM records ORDER BY ordinal').pluck().all()).toEqual([null, null]);
    // The inline record as it was; the new one a packed snapshot (schema 11) naming its handle by id.
    expect(snapshotIds(raw, next.id)).toBe('0');
    raw.close();
    await store.close();
  });
});

describePostgres('PostgreSQL: carried handles stored once per session', () => {
  let raw: pg.Client;
  const schemas: string[] = [];
  beforeAll(async () => {
    raw = await rawClient();
  });
  afterAll(async () => {
    await raw.end();
    for (const schema of schemas) await dropSchema(schema);
  });
  const schema = (prefix: string) => {
    const name = uniqueSchema(prefix);
    schemas.push(name);
    return name;
  };

  it('reads a late record whose handles were stored far apart (by id)', async () => {
    const store = await createPostgresStore({ connectionString: PG_URL, schema: schema('sparse'), maxConnections: 2 });
    try {
      const last = await sparseRecords(store, 'sparse');
      expect(await store.record('sparse', last.id)).toEqual(last);
      expect((await store.records('sparse')).at(-1)).toEqual(last);
    } finally {
      await store.close();
    }
  });

  it('reads records back as written, and fails loudly on a stored handle changed below the API', async () => {
    const name = schema('carried');
    const store = await createPostgresStore({ connectionString: PG_URL, schema: name, maxConnections: 2 });
    try {
      const records = await compactingSession(store);
      expect(await compactingSession(createMemoryStore())).toEqual(records);
      for (const record of records) expect(await store.record('carried', record.id)).toEqual(record);
      const distinct = new Set(records.flatMap((record) => record.handles.map((handle) => JSON.stringify(handle))));
      const count = await raw.query(`SELECT COUNT(*)::int AS n FROM "${name}".record_handles`);
      expect(count.rows[0].n).toBe(distinct.size);
      await expect(raw.query(`DELETE FROM "${name}".record_handles`)).rejects.toThrow(/immutable/);
      await raw.query(`DROP TRIGGER record_handles_immutable ON "${name}".record_handles`);
      await raw.query(
        `UPDATE "${name}".record_handles SET json = jsonb_set(json::jsonb, '{text}', '"eu-west-1"')::text`,
      );
      await expectLedgerError(store.records('carried'), ImmutableSpanError, 'IMMUTABLE_SPAN', [
        /changed after it was written/,
      ]);
    } finally {
      await store.close();
    }
  });

  it('opens a version 3 schema: its inline records still load and verify, new records are stored by id', async () => {
    const name = schema('carried_v3');
    await beginOldSchema(raw, name, PG_MIGRATIONS, 3);
    const inline = hashedRecord('s', 0);
    await raw.query("INSERT INTO sessions (id, tenant_id, created_at) VALUES ('s', NULL, 'then')");
    await raw.query(
      "INSERT INTO records (session_id, id, ordinal, type, json, created_at) VALUES ('s', $1, 0, 'summary', $2, 'then')",
      [inline.id, JSON.stringify(inline)],
    );
    await raw.query('COMMIT');
    const store = await createPostgresStore({ connectionString: PG_URL, schema: name, maxConnections: 2 });
    try {
      expect(await store.records('s')).toEqual([inline]);
      expect(await store.record('s', inline.id)).toEqual(inline);
      await store.append('s', 0, [entry('user', 'deploy to eu-west-2b', [{ kind: 'identifier', text: 'eu-west-2b' }])]);
      expect((await store.searchText('s', 'west-2', 5)).map((hit) => hit.seq)).toEqual([0]);
      const next = hashedRecord('s', 1);
      await store.writeRecord(next);
      expect(await store.records('s')).toEqual([inline, next]);
      const ids = await raw.query(`SELECT handle_ids FROM "${name}".records ORDER BY ordinal`);
      expect(ids.rows.map((row: { handle_ids: string | null }) => row.handle_ids)).toEqual([null, '0']);
    } finally {
      await store.close();
    }
  });
});
