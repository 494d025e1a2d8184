/**
 * Records stored as deltas (SQLite schema 5, PostgreSQL migration 5): a chain of records reads back exactly as
 * written, with a full snapshot every SNAPSHOT_INTERVAL rows; a delta changed below the API is refused naming the
 * record and session; ledgers written by the previous schema (full rows) still open, read and take deltas.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ImmutableSpanError } from '../../src/errors.js';
import { MIGRATIONS as PG_MIGRATIONS, createPostgresStore } from '../../src/stores/postgres/index.js';
import {
  SNAPSHOT_INTERVAL,
  decodeDelta,
  encodeDelta,
  rebuildBodies,
  rowForm,
  type RecordBody,
} from '../../src/stores/record-delta.js';
import { encodeHandleIds, handleDigest, splitRecord } from '../../src/stores/record-handles.js';
import { SCHEMA_VERSION, createSqliteStore } from '../../src/stores/sqlite/index.js';
import { applyMigration } from '../../src/stores/sqlite/migrate.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { CompactionRecord } from '../../src/types.js';
import { chainRecord, expectLedgerError } from './fixtures.js';
import { PG_URL, beginOldSchema, describePostgres, dropSchema, rawClient, uniqueSchema } from './postgres-env.js';

const context = { location: 'sqlite:/x.db', sessionId: 's', recordId: 'rec_2' };

/** Writes records `from` … `to - 1` of the chain (every fifth an external one) and returns them. */
async function writeChain(store: LedgerStore, sessionId: string, from: number, to: number) {
  const written: CompactionRecord[] = [];
  for (let ordinal = from; ordinal < to; ordinal += 1) {
    const record = chainRecord(sessionId, ordinal, ordinal % 5 === 4 ? 'external' : 'summary');
    await store.writeRecord(record);
    written.push(record);
  }
  return written;
}

/** A stored record row as the tests look at it. */
interface RawRow {
  id: string;
  type: string;
  json: string;
  handle_ids: string | null;
  base_id: string | null;
  delta: Buffer | null;
  chain: number;
}

/** What a backend gives the shared tests: a store on one ledger, and raw SQL below the API. */
interface Backend {
  open(): Promise<LedgerStore>;
  rows(sessionId: string): Promise<RawRow[]>;
  /** Runs SQL below the API with the immutability triggers on records removed. */
  tamper(sql: string, parameters: unknown[]): Promise<void>;
  /** `?` placeholders written as the backend wants them. */
  sql(text: string): string;
}

function describeDeltaChain(name: string, backend: () => Backend): void {
  describe(`${name}: records stored as deltas`, () => {
    it('stores a long chain as deltas with a full snapshot every SNAPSHOT_INTERVAL rows and reads every record back', async () => {
      const store = await backend().open();
      await store.openSession('s');
      const written = await writeChain(store, 's', 0, 80);
      expect(await store.records('s')).toEqual(written);
      for (const record of written) expect(await store.record('s', record.id)).toEqual(record);
      await store.close();
      // A new store knows no base: it reads the last row of the type and rebuilds it.
      const reopened = await backend().open();
      const more = await writeChain(reopened, 's', 80, 84);
      expect(await reopened.records('s')).toEqual([...written, ...more]);
      for (const record of more) expect(await reopened.record('s', record.id)).toEqual(record);
      await reopened.close();
      const rows = await backend().rows('s');
      const summaries = rows.filter((row) => row.type === 'summary');
      expect(summaries.map((row) => row.chain)).toEqual(summaries.map((_, index) => index % SNAPSHOT_INTERVAL));
      const externals = rows.filter((row) => row.type === 'external');
      expect(externals.map((row) => row.chain)).toEqual(externals.map((_, index) => index % SNAPSHOT_INTERVAL));
      for (const [index, row] of summaries.entries()) {
        if (row.chain === 0 && row.delta === null)
          expect(row).toMatchObject({ base_id: null, handle_ids: expect.any(String) });
        // A packed snapshot (SQLite, schema 11): no JSON or id list in the clear, the deflated content, no base.
        else if (row.chain === 0)
          expect({ ...row, text: inflateRawSync(row.delta!).toString('utf8') }).toMatchObject({
            json: '',
            handle_ids: null,
            base_id: null,
            text: expect.stringMatching(/^\{.*\}\n[\d,-]*$/s),
          });
        else expect(row).toMatchObject({ json: '', handle_ids: null, base_id: summaries[index - 1]!.id });
      }
      const full = written.reduce((sum, record) => sum + JSON.stringify(record).length, 0);
      const stored = rows.reduce((sum, row) => sum + row.json.length + (row.delta?.length ?? 0), 0);
      expect(stored).toBeLessThan(full / 4);
    });

    it('reads two chains newest first, one record at a time and interleaved, each record as written', async () => {
      const store = await backend().open();
      await store.openSession('s');
      await store.openSession('t');
      const first = await writeChain(store, 's', 0, 40);
      const second = await writeChain(store, 't', 0, 40);
      for (let index = 39; index >= 0; index -= 1) {
        expect(await store.record('s', first[index]!.id)).toEqual(first[index]);
        expect(await store.record('t', second[index]!.id)).toEqual(second[index]);
      }
      await store.close();
    });

    it('refuses a delta changed below the API, naming the record and the session', async () => {
      const store = await backend().open();
      await store.openSession('s');
      const written = await writeChain(store, 's', 0, 6);
      const rows = await backend().rows('s');
      const target = rows[2]!;
      const base = rows[1]!;
      expect(target.base_id).toBe(base.id);
      // A delta that inflates and parses but rebuilds other prose (the handles by their ids, 0-23 stored by the
      // first record): the id check catches it.
      const altered = splitRecord({ ...written[2]!, summary: 'nothing was checked' }).json;
      const list = written[2]!.handles.map((_, index) => `#${index}`).join(',');
      const forged = deflateRawSync(`${altered}\n${list}`, { dictionary: Buffer.from(splitRecord(written[1]!).json) });
      await backend().tamper(backend().sql('UPDATE records SET delta = ? WHERE id = ?'), [forged, target.id]);
      await expectLedgerError(store.record('s', target.id), ImmutableSpanError, 'IMMUTABLE_SPAN', [
        target.id,
        'session s',
        `rebuilt from its delta against record ${base.id}`,
      ]);
      await expectLedgerError(store.records('s'), ImmutableSpanError, 'IMMUTABLE_SPAN', [target.id]);
      // Bytes that do not inflate.
      await backend().tamper(backend().sql('UPDATE records SET delta = ? WHERE id = ?'), [
        Buffer.from([1, 2, 3]),
        target.id,
      ]);
      await expectLedgerError(store.record('s', target.id), ImmutableSpanError, 'IMMUTABLE_SPAN', [
        target.id,
        /does not inflate/,
      ]);
      // A base that is not there.
      await backend().tamper(backend().sql("UPDATE records SET base_id = 'rec_gone' WHERE id = ?"), [target.id]);
      await expectLedgerError(store.records('s'), ImmutableSpanError, 'IMMUTABLE_SPAN', [
        target.id,
        /the record rec_gone its delta is against is missing/,
      ]);
      await store.close();
    });

    it('refuses every later record of a chain whose snapshot was changed below the API', async () => {
      const store = await backend().open();
      await store.openSession('s');
      const written = await writeChain(store, 's', 0, 4);
      const snapshot = (await backend().rows('s'))[0]!;
      expect(snapshot.chain).toBe(0);
      if (snapshot.delta === null) {
        const edited = snapshot.json.replace('step 0', 'step zero');
        expect(edited).not.toBe(snapshot.json);
        await backend().tamper(backend().sql('UPDATE records SET json = ? WHERE id = ?'), [edited, snapshot.id]);
      } else {
        const text = inflateRawSync(snapshot.delta).toString('utf8');
        const edited = text.replace('step 0', 'step zero');
        expect(edited).not.toBe(text);
        await backend().tamper(backend().sql('UPDATE records SET delta = ? WHERE id = ?'), [
          deflateRawSync(edited),
          snapshot.id,
        ]);
      }
      for (const record of written.slice(0, 3))
        await expectLedgerError(store.record('s', record.id), ImmutableSpanError, 'IMMUTABLE_SPAN', [record.id]);
      await store.close();
    });
  });
}

describe('record deltas', () => {
  const body = (json: string, ids: number[]): RecordBody => ({ json, ids });
  const base = {
    id: 'rec_base',
    ordinal: 0,
    chain: 0,
    body: body('{"summary":"one two three","handles":[]}', [4, 5, 6, 7]),
  };

  it('round-trip: kept handles as steps through the base, added ones by id, dropped ones left out', () => {
    const next = body('{"summary":"one two three four","handles":[]}', [6, 4, 9, 7, 6]);
    const delta = encodeDelta(next, base.body);
    expect(decodeDelta(delta, base.body, context, base.id)).toEqual(next);
    expect(decodeDelta(encodeDelta(body('{}', []), base.body), base.body, context, base.id)).toEqual(body('{}', []));
  });

  it('write a delta only below the snapshot interval and when it is smaller than the full row', () => {
    const next = body(base.body.json, [4, 5, 6, 7, 8]);
    expect(rowForm(next, base)).toMatchObject({ json: '', handleIds: null, baseId: 'rec_base', chain: 1 });
    expect(rowForm(next, undefined)).toEqual({
      json: next.json,
      handleIds: encodeHandleIds(next.ids),
      baseId: null,
      delta: null,
      chain: 0,
    });
    const packed = rowForm(next, undefined, { packSnapshots: true });
    expect(packed).toMatchObject({ json: '', handleIds: null, baseId: null, chain: 0 });
    expect(inflateRawSync(packed.delta!).toString('utf8')).toBe(`${next.json}\n${encodeHandleIds(next.ids)}`);
    expect(rowForm(next, { ...base, chain: SNAPSHOT_INTERVAL - 1 }).chain).toBe(0);
    expect(rowForm(next, { ...base, chain: Number.NaN }).chain).toBe(0);
    // Nothing in common with the base: deflating costs more than the text itself.
    expect(rowForm(body('{"a":1}', [1]), base).chain).toBe(0);
  });

  it('rebuild a packed snapshot and the deltas against it; refuse one that does not unpack, naming the record', () => {
    const first = body('{"summary":"one two three","handles":[]}', [4, 5, 6, 7]);
    const second = body('{"summary":"one two three four","handles":[]}', [4, 6, 9]);
    const snapshot = rowForm(first, undefined, { packSnapshots: true });
    const delta = rowForm(second, { id: 'rec_1', ordinal: 0, chain: 0, body: first }, { packSnapshots: true });
    const rows = [
      { id: 'rec_1', json: snapshot.json, handle_ids: snapshot.handleIds, base_id: null, delta: snapshot.delta },
      { id: 'rec_2', json: delta.json, handle_ids: delta.handleIds, base_id: delta.baseId, delta: delta.delta },
    ];
    expect(rebuildBodies('sqlite:/x.db', 's', rows)).toEqual([first, second]);
    const broken = [{ ...rows[0]!, delta: Buffer.from('not deflated at all') }, rows[1]!];
    expect(() => rebuildBodies('sqlite:/x.db', 's', broken)).toThrow(
      /record rec_1 of session s .*its packed snapshot does not inflate/,
    );
    // Bodies rebuilt before serve a later read: its delta row alone rebuilds without its base row.
    const known = new Map<string, RecordBody>();
    expect(rebuildBodies('sqlite:/x.db', 's', rows, [], known)).toEqual([first, second]);
    expect([...known.keys()]).toEqual(['rec_1', 'rec_2']);
    known.delete('rec_2');
    expect(rebuildBodies('sqlite:/x.db', 's', [rows[1]!], [], known)).toEqual([second]);
    expect(() => rebuildBodies('sqlite:/x.db', 's', [rows[1]!])).toThrow(
      /the record rec_1 its delta is against is missing/,
    );
    const noList = [{ ...rows[0]!, delta: deflateRawSync('{}') }];
    expect(() => rebuildBodies('sqlite:/x.db', 's', noList)).toThrow(/packed snapshot has no carried-handle list/);
  });

  it('refuse a malformed change, naming the record and its base', () => {
    const list = (text: string) => deflateRawSync(`{}\n${text}`, { dictionary: Buffer.from(base.body.json) });
    for (const bad of ['x', '5', '#-1', '-2'])
      expect(() => decodeDelta(list(bad), base.body, context, base.id)).toThrow(
        /record rec_2 of session s .*change ".*" against record rec_base is malformed/,
      );
    const noList = deflateRawSync('{}', { dictionary: Buffer.from(base.body.json) });
    expect(() => decodeDelta(noList, base.body, context, base.id)).toThrow(/has no carried-handle list/);
  });
});

describe('SQLite', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-delta-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  describeDeltaChain('SQLite', () => ({
    open: async () => createSqliteStore({ path }),
    rows: async (sessionId) => {
      const raw = new Database(path, { readonly: true });
      try {
        return raw
          .prepare(
            'SELECT id, type, json, handle_ids, base_id, delta, chain FROM records WHERE session_id = ? ORDER BY ordinal',
          )
          .all(sessionId) as RawRow[];
      } finally {
        raw.close();
      }
    },
    tamper: async (sql, parameters) => {
      const raw = new Database(path);
      raw.exec('DROP TRIGGER IF EXISTS records_no_update');
      raw.prepare(sql).run(...parameters);
      raw.close();
    },
    sql: (text) => text,
  }));

  it('opens a version 4 ledger: its full records read and verify, and the next records are deltas against them', async () => {
    const older = new Database(path);
    for (let version = 0; version < 4; version += 1) applyMigration(older, version);
    older.pragma('user_version = 4');
    older.prepare("INSERT INTO sessions (id, tenant_id, created_at) VALUES ('s', NULL, 'then')").run();
    // Rows as the version 4 store wrote them: the JSON without handles, the handles by id.
    const old = [0, 1, 2].map((ordinal) => chainRecord('s', ordinal));
    const ids = new Map<string, number>();
    for (const record of old) {
      const parts = splitRecord(record);
      const list = parts.handles.map((json) => {
        if (!ids.has(json)) {
          ids.set(json, ids.size);
          older
            .prepare("INSERT INTO record_handles (session_id, id, digest, json) VALUES ('s', ?, ?, ?)")
            .run(ids.size - 1, handleDigest(json), json);
        }
        return ids.get(json)!;
      });
      older
        .prepare(
          "INSERT INTO records (session_id, id, ordinal, type, json, created_at, handle_ids) VALUES ('s', ?, ?, 'summary', ?, ?, ?)",
        )
        .run(record.id, record.ordinal, parts.json, record.createdAt, encodeHandleIds(list));
    }
    older.close();
    const store = createSqliteStore({ path });
    expect(await store.records('s')).toEqual(old);
    for (const record of old) expect(await store.record('s', record.id)).toEqual(record);
    const next = [3, 4].map((ordinal) => chainRecord('s', ordinal));
    for (const record of next) await store.writeRecord(record);
    expect(await store.records('s')).toEqual([...old, ...next]);
    expect(await store.record('s', next[1]!.id)).toEqual(next[1]);
    await store.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const rows = raw.prepare('SELECT base_id, chain FROM records ORDER BY ordinal').all();
    expect(rows).toEqual([
      { base_id: null, chain: 0 },
      { base_id: null, chain: 0 },
      { base_id: null, chain: 0 },
      { base_id: old[2]!.id, chain: 1 },
      { base_id: next[0]!.id, chain: 2 },
    ]);
    raw.close();
  });
});

describePostgres('PostgreSQL', () => {
  let raw: pg.Client;
  const schemas: string[] = [];
  let name = '';
  beforeAll(async () => {
    raw = await rawClient();
  });
  afterAll(async () => {
    await raw.end();
    for (const schema of schemas) await dropSchema(schema);
  });
  beforeEach(() => {
    name = uniqueSchema('delta');
    schemas.push(name);
  });

  describeDeltaChain('PostgreSQL', () => ({
    open: () => createPostgresStore({ connectionString: PG_URL, schema: name, maxConnections: 2 }),
    rows: async (sessionId) =>
      (
        await raw.query(
          `SELECT id, type, json, handle_ids, base_id, delta, chain FROM "${name}".records WHERE session_id = $1 ORDER BY ordinal`,
          [sessionId],
        )
      ).rows as RawRow[],
    tamper: async (sql, parameters) => {
      await raw.query(`DROP TRIGGER IF EXISTS records_immutable ON "${name}".records`);
      await raw.query(sql.replaceAll('records', `"${name}".records`), parameters);
    },
    sql: (text) => {
      let index = 0;
      return text.replaceAll('?', () => `$${++index}`);
    },
  }));

  it('opens a version 4 schema: records written by its write_record() read and verify, the next ones are deltas', async () => {
    await beginOldSchema(raw, name, PG_MIGRATIONS, 4);
    await raw.query("INSERT INTO sessions (id, tenant_id, created_at) VALUES ('s', NULL, 'then')");
    // Written through version 4's own write_record(), as the previous release's store called it.
    const old = [0, 1, 2].map((ordinal) => chainRecord('s', ordinal));
    for (const record of old) {
      const parts = splitRecord(record);
      await raw.query('SELECT write_record($1, $2, $3, $4, $5, $6, $7::bytea[], $8::text[])', [
        's',
        record.id,
        record.ordinal,
        record.type,
        parts.json,
        record.createdAt,
        parts.digests,
        parts.handles,
      ]);
    }
    await raw.query('COMMIT');
    const store = await createPostgresStore({ connectionString: PG_URL, schema: name, maxConnections: 2 });
    try {
      expect(await store.records('s')).toEqual(old);
      for (const record of old) expect(await store.record('s', record.id)).toEqual(record);
      const next = [3, 4].map((ordinal) => chainRecord('s', ordinal));
      for (const record of next) await store.writeRecord(record);
      expect(await store.records('s')).toEqual([...old, ...next]);
      expect(await store.record('s', next[1]!.id)).toEqual(next[1]);
      const rows = await raw.query(`SELECT base_id, chain FROM "${name}".records ORDER BY ordinal`);
      expect(rows.rows).toEqual([
        { base_id: null, chain: 0 },
        { base_id: null, chain: 0 },
        { base_id: null, chain: 0 },
        { base_id: old[2]!.id, chain: 1 },
        { base_id: next[0]!.id, chain: 2 },
      ]);
      const version = await raw.query(`SELECT MAX(version)::int AS v FROM "${name}".schema_migrations`);
      expect(version.rows[0].v).toBe(PG_MIGRATIONS.length);
    } finally {
      await store.close();
    }
  });
});
