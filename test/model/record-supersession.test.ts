/**
 * A record's `superseded` field (issue 36): which handle of the compacted region a later binding replaced, and by
 * what. It round-trips through every store (the SQL stores keep records as deltas), is covered by the record's id,
 * and a malformed one is refused on write and on read with an error naming the record and the field. A record
 * without it has no such key at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/errors.js';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { loadRecord } from '../../src/stores/store-input.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { CompactionRecord, SupersededValue } from '../../src/types.js';
import { chainRecord, expectLedgerError, sampleRecord } from '../stores/fixtures.js';
import { PG_URL, describePostgres, dropSchema, uniqueSchema } from '../stores/postgres-env.js';

const SPAN = 'sha256:' + '9a'.repeat(32);

const VALUES: SupersededValue[] = [
  { handle: 'pool size is 44 connections', seq: 0, by: 'pool size is now 79', bySpan: SPAN, bySeq: 13 },
  { handle: 'DB_HOST=db-ro-3', seq: 0, by: 'DB_HOST=db-ro-10', bySpan: SPAN, bySeq: 13 },
];

/** `record` with `superseded` set (or left out) and its id hashed over the result. */
function withSuperseded(record: CompactionRecord, superseded: unknown): CompactionRecord {
  const body = { ...record, ...(superseded === undefined ? {} : { superseded }) } as CompactionRecord;
  const prefix = record.type === 'external' ? 'ext' : 'rec';
  return { ...body, id: recordId(prefix, recordIdContent(body)) };
}

/** Records 0 … 5 of a chain, every other one carrying replaced values (the SQL stores write 1 … 5 as deltas). */
function chain(sessionId: string): CompactionRecord[] {
  return [0, 1, 2, 3, 4, 5].map((ordinal) =>
    withSuperseded(chainRecord(sessionId, ordinal), ordinal % 2 === 0 ? undefined : VALUES.slice(0, 1 + (ordinal % 3))),
  );
}

async function roundTrip(open: () => Promise<LedgerStore>): Promise<void> {
  const store = await open();
  await store.openSession('s');
  const written = chain('s');
  for (const record of written) await store.writeRecord(record);
  const check = (read: readonly CompactionRecord[]) => {
    expect(read).toEqual(written);
    // Byte for byte: a record without the field has no `superseded` key at all.
    expect(read.map((record) => JSON.stringify(record))).toEqual(written.map((record) => JSON.stringify(record)));
    expect(read.map((record) => 'superseded' in record)).toEqual([false, true, false, true, false, true]);
  };
  check(await store.records('s'));
  check(await Promise.all(written.map(async (record) => (await store.record('s', record.id)) as CompactionRecord)));
  await store.close();
  // Read again by a store that rebuilds every delta from the rows.
  const reopened = await open();
  check(await reopened.records('s'));
  await reopened.close();
}

function describeMalformed(name: string, open: () => Promise<LedgerStore>): void {
  it(`${name}: refuses a malformed field naming the record and the field`, async () => {
    const store = await open();
    await store.openSession('s');
    const base = chainRecord('s', 0);
    const cases: [unknown, RegExp][] = [
      [[], /field superseded is empty \(leave it out instead\)/],
      ['DB_HOST=db-ro-3', /field superseded must be an array/],
      [[{ ...VALUES[0], by: '' }], /field superseded\[0\] \.by must be a non-empty string/],
      [[VALUES[0], { ...VALUES[1], bySeq: -1 }], /field superseded\[1\] \.bySeq must be a whole number/],
      [[{ ...VALUES[0], seq: 20 }], /field superseded\[0\] \.bySeq 13 is before \.seq 20/],
      [[{ ...VALUES[0], label: 'pool size' }], /field superseded\[0\] has unknown field "label"/],
      [[null], /field superseded\[0\] is not an object/],
    ];
    for (const [superseded, message] of cases) {
      const record = withSuperseded(base, superseded);
      const error = await expectLedgerError(store.writeRecord(record), InvalidInputError, 'INVALID_INPUT', [
        message,
        new RegExp(`writeRecord: record ${record.id} of session s`),
      ]);
      expect(error.details.recordId).toBe(record.id);
    }
    // A checkpoint's id does not cover the field: it never carries one.
    const checkpoint = { ...sampleRecord('s', { type: 'checkpoint', id: 'chk_x' }), summary: '', claims: [] };
    await expectLedgerError(
      store.writeRecord({ ...checkpoint, superseded: VALUES } as CompactionRecord),
      InvalidInputError,
      'INVALID_INPUT',
      [/record chk_x of session s: field superseded is not allowed on a checkpoint/],
    );
    // Changed after its id was hashed: the id covers the field.
    const edited = withSuperseded(base, VALUES);
    await expectLedgerError(
      store.writeRecord({ ...edited, superseded: [{ ...VALUES[0]!, by: 'pool size is now 80' }] }),
      InvalidInputError,
      'INVALID_INPUT',
      [/does not match its content/],
    );
    expect(await store.records('s')).toEqual([]);
    await store.close();
  });
}

describe('record superseded field: memory store', () => {
  it('round-trips records with and without the field', async () => {
    const store = createMemoryStore();
    await roundTrip(async () => store);
  });
  describeMalformed('memory', async () => createMemoryStore());
});

describe('record superseded field: SQLite store', () => {
  const directory = mkdtempSync(join(tmpdir(), 'cl-superseded-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  let count = 0;
  it('round-trips records with and without the field, full rows and deltas', async () => {
    const path = join(directory, 'round-trip.db');
    await roundTrip(async () => createSqliteStore({ path }));
    // The records after the first are stored as deltas against the one before: the field goes through that path too.
    const raw = new Database(path, { readonly: true });
    const deltas = raw.prepare('SELECT count(*) AS n FROM records WHERE base_id IS NOT NULL').get() as { n: number };
    raw.close();
    expect(deltas.n).toBeGreaterThanOrEqual(4);
  });
  describeMalformed('SQLite', async () => createSqliteStore({ path: join(directory, `malformed-${count++}.db`) }));
});

describePostgres('record superseded field: PostgreSQL store', () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });
  const open = (schema: string) => () => createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 });
  it('round-trips records with and without the field, full rows and deltas', async () => {
    const schema = uniqueSchema('superseded');
    schemas.push(schema);
    await roundTrip(open(schema));
  });
  const schema = uniqueSchema('superseded_bad');
  schemas.push(schema);
  describeMalformed('PostgreSQL', open(schema));
});

describe('a stored record with a malformed field', () => {
  it('is refused on read, naming the store location, the record and the field', () => {
    const record = withSuperseded(chainRecord('s', 0), [{ ...VALUES[0], bySpan: 7 }]);
    expect(() => loadRecord('sqlite:/x.db', 's', JSON.stringify(record))).toThrow(
      new RegExp(`sqlite:/x\\.db: record ${record.id} of session s: field superseded\\[0\\] \\.bySpan must be`),
    );
    const good = withSuperseded(chainRecord('s', 0), VALUES);
    expect(loadRecord('sqlite:/x.db', 's', JSON.stringify(good))).toEqual(good);
  });
});
