/**
 * SQLite span keys in their compact form (schema version 9): a usual row key is stored as its digest bytes (with the
 * tenant's), any other as its text; the migration of a version 8 ledger keeps every read the same; a ledger whose rows
 * refer to missing rows is refused by the migration, left as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/errors.js';
import { spanRowKey } from '../../src/stores/store-input.js';
import { SCHEMA_VERSION, createSqliteStore } from '../../src/stores/sqlite/index.js';
import { spanIdOfStoredKey, storedSpanKey } from '../../src/stores/sqlite/span-keys.js';
import { entry, readSession, sampleEntries } from './fixtures.js';
import { spanKeysAsVersion8 } from './sqlite-old-schema.js';

const ID = `sha256:${'0123456789abcdef'.repeat(4)}`;

/** Adds an occurrence at seq 3 of session `s` (span key, end byte). */
const OCCURRENCE_AT_3 =
  "INSERT INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end) VALUES ('s', 3, ?, 'user', 0, ?)";

/** A version 8 ledger at `path`: session `s` with the sample entries, then `change` on a raw connection. */
async function version8Ledger(path: string, change: (older: Database.Database) => void): Promise<void> {
  const store = createSqliteStore({ path });
  await store.openSession('s');
  await store.append('s', 0, sampleEntries());
  await store.close();
  const older = new Database(path);
  spanKeysAsVersion8(older);
  change(older);
  older.pragma('user_version = 8');
  older.close();
}

describe('SQLite span keys', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-span-keys-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('stores a usual row key as its bytes and any other as its text, and gives the span id back', () => {
    const withTenant = spanRowKey(ID, 'acme');
    expect(storedSpanKey(ID)).toEqual(Buffer.from(ID.slice(7), 'hex'));
    expect((storedSpanKey(withTenant) as Buffer).length).toBe(48);
    expect(spanIdOfStoredKey(storedSpanKey(ID))).toBe(ID);
    expect(spanIdOfStoredKey(storedSpanKey(withTenant))).toBe(ID);
    for (const other of [ID.toUpperCase(), `${ID}0`, 'sha256:abc', `${ID}~short`, 'legacy-key'])
      expect(storedSpanKey(other)).toBe(other);
    expect(spanIdOfStoredKey(`${ID}~${'f'.repeat(32)}`)).toBe(ID);
  });

  it('migrates a version 8 ledger: keys as bytes, every read the same, still append-only', async () => {
    const store = createSqliteStore({ path });
    await store.openSession('plain');
    await store.openSession('tenanted', { tenantId: 'acme' });
    for (const session of ['plain', 'tenanted'])
      await store.append(session, 0, [...sampleEntries(), sampleEntries()[0]!]);
    const before = { plain: await readSession(store, 'plain'), tenanted: await readSession(store, 'tenanted') };
    await store.close();
    const older = new Database(path);
    spanKeysAsVersion8(older);
    older.pragma('user_version = 8');
    expect(older.prepare("SELECT COUNT(*) FROM spans WHERE typeof(id) <> 'text'").pluck().get()).toBe(0);
    older.close();

    const migrated = createSqliteStore({ path });
    expect({ plain: await readSession(migrated, 'plain'), tenanted: await readSession(migrated, 'tenanted') }).toEqual(
      before,
    );
    const more = entry('user', 'after the migration: payments again');
    await migrated.append('tenanted', 4, [more, sampleEntries()[1]!]);
    expect((await migrated.spans('tenanted', [more.span.id]))[0]?.text).toBe(more.span.text);
    await migrated.close();

    const raw = new Database(path);
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const lengths = raw.prepare('SELECT typeof(id) || length(id) FROM spans ORDER BY 1').pluck().all();
    expect(new Set(lengths)).toEqual(new Set(['blob32', 'blob48']));
    expect(raw.prepare("SELECT COUNT(*) FROM occurrences WHERE typeof(span_id) <> 'blob'").pluck().get()).toBe(0);
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    expect(() => raw.prepare("UPDATE spans SET text = 'x'").run()).toThrow(/spans are immutable/);
    expect(() => raw.prepare('DELETE FROM occurrences').run()).toThrow(/spans are immutable/);
    raw.close();
  });

  it('keeps a row key of another form as text through the migration, and reads it', async () => {
    await version8Ledger(path, (older) => {
      older
        .prepare("INSERT INTO spans (id, kind, text, tokens) VALUES ('legacy-key', 'user', 'old payments row', 4)")
        .run();
      older.prepare(OCCURRENCE_AT_3).run('legacy-key', 16);
    });

    const migrated = createSqliteStore({ path });
    expect((await migrated.spans('s', ['legacy-key']))[0]?.text).toBe('old payments row');
    expect((await migrated.occurrencesOf('s', 'legacy-key')).map((occurrence) => occurrence.seq)).toEqual([3]);
    await migrated.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("SELECT typeof(id) FROM spans WHERE id = 'legacy-key'").pluck().get()).toBe('text');
    raw.close();
  });

  it('refuses to migrate a ledger whose occurrence names a missing span, and leaves it at version 8', async () => {
    await version8Ledger(path, (older) => older.prepare(OCCURRENCE_AT_3).run(ID, 1));

    expect(() => createSqliteStore({ path })).toThrow(StoreUnavailableError);
    expect(() => createSqliteStore({ path })).toThrow(/table occurrences.*refers to spans/);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(8);
    expect(raw.prepare("SELECT COUNT(*) FROM spans WHERE typeof(id) = 'text'").pluck().get()).toBe(3);
    raw.close();
  });
});
