/** SQLite-only behaviour: opening, paths, read-only mode, schema versions, driver errors, two connections. */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ImmutableSpanError,
  InvalidInputError,
  SequenceConflictError,
  StoreOperationError,
  StoreUnavailableError,
} from '../../src/errors.js';
import { mapDriverError } from '../../src/stores/sqlite/driver-errors.js';
import { openDatabase } from '../../src/stores/sqlite/open-database.js';
import { SCHEMA_VERSION, createSqliteStore } from '../../src/stores/sqlite/index.js';
import { entry, expectLedgerError, sampleEntries, sampleRecord } from './fixtures.js';

const isRoot = process.getuid?.() === 0;

describe('SQLite store', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-sqlite-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => {
    chmodSync(directory, 0o700);
    rmSync(directory, { recursive: true, force: true });
  });

  describe('opening', () => {
    it('creates missing parent directories, uses WAL and the current schema version', async () => {
      const nested = join(directory, 'a', 'b', 'ledger.db');
      const store = createSqliteStore({ path: nested });
      expect(store.kind).toBe('sqlite');
      expect(store.location).toBe(`sqlite:${nested}`);
      await store.close();
      const raw = new Database(nested, { readonly: true });
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      raw.close();
    });

    it('keeps statement journals in memory on a writable connection (temp_store = MEMORY)', () => {
      const { db } = openDatabase({ path });
      // 2 = MEMORY: an append's statement journals never spill to a temporary file.
      expect(db.pragma('temp_store', { simple: true })).toBe(2);
      db.close();
    });

    it('sets the page cache it is given (cacheSizeKiB) and keeps the driver default otherwise', () => {
      const sized = openDatabase({ path, cacheSizeKiB: 4_000 });
      expect(sized.db.pragma('cache_size', { simple: true })).toBe(-4_000);
      sized.db.close();
      const plain = openDatabase({ path });
      expect(plain.db.pragma('cache_size', { simple: true })).not.toBe(-4_000);
      plain.db.close();
    });

    it('refuses a cacheSizeKiB that is not a whole number of KiB ≥ 1, naming the option', () => {
      for (const bad of [0, -5, 1.5, Number.NaN]) {
        expect(() => openDatabase({ path, cacheSizeKiB: bad })).toThrow(
          /options\.cacheSizeKiB must be a whole number/u,
        );
      }
    });

    it('refuses paths it cannot create, before doing any work', () => {
      const fileAsDirectory = join(directory, 'plain-file');
      writeFileSync(fileAsDirectory, 'not a directory');
      for (const bad of ['/proc/context-ledger/ledger.db', join(fileAsDirectory, 'ledger.db'), directory]) {
        let caught: unknown;
        try {
          createSqliteStore({ path: bad });
        } catch (error) {
          caught = error;
        }
        expect(StoreUnavailableError.isInstance(caught), `${bad}: ${String(caught)}`).toBe(true);
        expect((caught as Error).message).toContain(bad === directory ? directory : bad.slice(0, bad.lastIndexOf('/')));
        expect((caught as Error).message).toMatch(/choose|check|fix/);
      }
      expect(existsSync('/proc/context-ledger')).toBe(false);
      expect(readdirSync(directory)).toEqual(['plain-file']);
    });

    it.skipIf(isRoot)('refuses a directory without write permission', () => {
      const locked = join(directory, 'locked');
      mkdirSync(locked, { mode: 0o500 });
      expect(() => createSqliteStore({ path: join(locked, 'ledger.db') })).toThrow(/cannot be created or written/);
      expect(readdirSync(locked)).toEqual([]);
    });

    it('refuses a file that is not a SQLite database, and a newer schema', async () => {
      writeFileSync(path, 'this is not a database at all, just text padding '.repeat(100));
      expect(() => createSqliteStore({ path })).toThrow(
        expect.objectContaining({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining(path) }),
      );
      rmSync(path);
      await createSqliteStore({ path }).close();
      const raw = new Database(path);
      raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      raw.close();
      expect(() => createSqliteStore({ path })).toThrow(/upgrade context-ledger/);
    });

    it('validates options', () => {
      expect(() => createSqliteStore({ path: '' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
      expect(InvalidInputError.isInstance(catchError(() => createSqliteStore({ path, busyTimeoutMs: -1 })))).toBe(true);
    });
  });

  describe('read-only', () => {
    it('reads an existing ledger and refuses every write', async () => {
      const writer = createSqliteStore({ path });
      await writer.openSession('s1');
      await writer.append('s1', 0, sampleEntries());
      await writer.close();
      const reader = createSqliteStore({ path, readonly: true });
      expect(await reader.nextSeq('s1')).toBe(3);
      expect(await reader.findHandles('s1', 'eu-west-2b')).toHaveLength(2);
      expect(await reader.openSession('s1')).toMatchObject({ id: 's1' });
      await expectLedgerError(reader.append('s1', 3, [entry('user', 'x')]), StoreOperationError, 'STORE_OPERATION', [
        /read-only/,
        's1',
      ]);
      await expectLedgerError(reader.writeRecord(sampleRecord('s1')), StoreOperationError, 'STORE_OPERATION', [
        /read-only/,
      ]);
      await expectLedgerError(reader.openSession('s2'), StoreOperationError, 'STORE_OPERATION', [/read-only/, 's2']);
      await reader.close();
    });

    it('refuses to open a missing file read-only', () => {
      expect(StoreUnavailableError.isInstance(catchError(() => createSqliteStore({ path, readonly: true })))).toBe(
        true,
      );
      expect(existsSync(path)).toBe(false);
    });
  });

  describe('two connections to one file', () => {
    it('lets only one of two writers take a seq', async () => {
      const first = createSqliteStore({ path });
      const second = createSqliteStore({ path });
      await first.openSession('s1');
      await second.openSession('s1');
      await first.append('s1', 0, [entry('user', 'from the first writer')]);
      await expectLedgerError(
        second.append('s1', 0, [entry('user', 'from the second writer')]),
        SequenceConflictError,
        'SEQUENCE_CONFLICT',
        [path, 's1'],
      );
      await second.append('s1', await second.nextSeq('s1'), [entry('user', 'from the second writer')]);
      expect((await first.occurrences('s1')).map((occurrence) => occurrence.span.text)).toEqual([
        'from the first writer',
        'from the second writer',
      ]);
      await first.close();
      await second.close();
    });

    it('reads the spans of a tenant session another connection opened after a first, empty read', async () => {
      const reader = createSqliteStore({ path });
      const [first] = sampleEntries();
      if (first === undefined) throw new Error('no sample entry');
      expect(await reader.spans('s1', [first.span.id])).toEqual([]);
      expect(await reader.occurrencesOf('s1', first.span.id)).toEqual([]);
      const writer = createSqliteStore({ path });
      await writer.openSession('s1', { tenantId: 'acme' });
      await writer.append('s1', 0, [first]);
      expect((await reader.spans('s1', [first.span.id])).map((span) => span.text)).toEqual([first.span.text]);
      expect((await reader.occurrencesOf('s1', first.span.id)).map((occurrence) => occurrence.seq)).toEqual([0]);
      await writer.close();
      await reader.close();
    });

    it('keeps acknowledged appends when the writer never closes (as after a kill)', async () => {
      const abandoned = createSqliteStore({ path });
      await abandoned.openSession('s1');
      await abandoned.append('s1', 0, sampleEntries());
      const next = createSqliteStore({ path });
      expect(await next.nextSeq('s1')).toBe(3);
      await next.close();
      await abandoned.close();
    });

    it('wraps a lock timeout in StoreOperationError naming the store and operation', async () => {
      const store = createSqliteStore({ path, busyTimeoutMs: 50 });
      await store.openSession('s1');
      const raw = new Database(path);
      raw.exec('BEGIN IMMEDIATE');
      try {
        await expectLedgerError(
          store.append('s1', 0, [entry('user', 'blocked')]),
          StoreOperationError,
          'STORE_OPERATION',
          [`sqlite:${path}: append to session s1 failed`, /retry/],
        );
      } finally {
        raw.exec('ROLLBACK');
        raw.close();
      }
      expect(await store.nextSeq('s1')).toBe(0);
      await store.close();
      await expectLedgerError(store.nextSeq('s1'), StoreUnavailableError, 'STORE_UNAVAILABLE', [/closed/]);
    });
  });

  it('maps the immutability trigger to ImmutableSpanError', () => {
    const error = mapDriverError(
      'sqlite:/x.db',
      'append to session s1',
      Object.assign(new Error('context-ledger: spans are immutable'), { code: 'SQLITE_CONSTRAINT_TRIGGER' }),
      5000,
    );
    expect(ImmutableSpanError.isInstance(error)).toBe(true);
    expect(error.message).toContain('sqlite:/x.db: append to session s1 failed');
  });

  it('works on :memory:', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    expect(await store.searchText('s1', 'eu-west-2b', 5)).toHaveLength(2);
    await store.close();
  });
});

function catchError(body: () => unknown): unknown {
  try {
    body();
  } catch (error) {
    return error;
  }
  return undefined;
}
