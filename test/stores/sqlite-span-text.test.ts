/**
 * SQLite span texts stored packed (schema version 10): a text is deflated when that makes it smaller, every read gives
 * the text back, a version 9 ledger is migrated with every span the same, and a packed text that does not inflate is
 * refused naming the span and the ledger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImmutableSpanError } from '../../src/errors.js';
import { verifySpan } from '../../src/model/span.js';
import { applyMigration } from '../../src/stores/sqlite/migrate.js';
import { SCHEMA_VERSION, createSqliteStore } from '../../src/stores/sqlite/index.js';
import { storedSpanKey } from '../../src/stores/sqlite/span-keys.js';
import { packSpanText, registerSpanTextFunction, unpackSpanText } from '../../src/stores/sqlite/span-text.js';
import { entry, readSession, sampleEntries } from './fixtures.js';
import { spanTextAsVersion9 } from './sqlite-old-schema.js';

/** A text that packs: a long log with repeated lines (and characters beyond ASCII). */
const LONG_LOG = Array.from(
  { length: 40 },
  (_, line) => `2025-01-02 INFO payments ✓ request ${line} served by eu-west-2b in ${line % 7} ms`,
).join('\n');
/** A text that does not pack: 40 characters without repeats (deflate's codes make it longer). */
const NOISE = 'q7Xv0LmZp2RkT9wB4sNjE1cYhA6gUoF3iD8aKeMt';

/** Entries of every form: packed, too short to try, and not smaller when packed. */
function mixedEntries() {
  return [
    ...sampleEntries(),
    entry('tool-result', LONG_LOG, [{ kind: 'identifier', text: 'eu-west-2b' }], { toolName: 'bash' }),
    entry('user', 'ok'),
    entry('assistant', NOISE),
  ];
}

/** The stored type of each span text, by text. */
function storedTypes(path: string): Map<string, string> {
  const raw = new Database(path, { readonly: true });
  const rows = raw.prepare('SELECT id, typeof(text) AS type FROM spans').all() as { id: Buffer; type: string }[];
  raw.close();
  const texts = new Map(mixedEntries().map(({ span }) => [storedSpanKey(span.id).toString('hex'), span.text]));
  return new Map(rows.map((row) => [texts.get(row.id.toString('hex')) ?? '?', row.type]));
}

describe('SQLite span texts', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-span-text-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('packs a text only when that makes it smaller, and gives every text back', () => {
    expect(packSpanText('ok')).toBe('ok');
    expect(packSpanText('é'.repeat(15))).toBe('é'.repeat(15));
    expect(Buffer.isBuffer(packSpanText('é'.repeat(16)))).toBe(true);
    expect(packSpanText(NOISE)).toBe(NOISE);
    const packed = packSpanText(LONG_LOG);
    expect(Buffer.isBuffer(packed)).toBe(true);
    expect((packed as Buffer).length).toBeLessThan(Buffer.byteLength(LONG_LOG) / 4);
    for (const text of ['ok', NOISE, LONG_LOG, 'x'.repeat(32), '']) {
      expect(unpackSpanText('sqlite:x', 'k', packSpanText(text))).toBe(text);
    }
  });

  it('stores long texts packed and short or random ones as text, and reads them all back (also read-only)', async () => {
    const store = createSqliteStore({ path });
    await store.openSession('s');
    const written = await store.append('s', 0, mixedEntries());
    const before = await readSession(store, 's', '✓');
    await store.close();

    const types = storedTypes(path);
    expect(types.get(LONG_LOG)).toBe('blob');
    expect(types.get('ok')).toBe('text');
    expect(types.get(NOISE)).toBe('text');
    expect(before.spans.map((span) => span.text).sort()).toEqual(
      mixedEntries()
        .map(({ span }) => span.text)
        .sort(),
    );
    expect(before.occurrences.map((occurrence) => occurrence.span)).toEqual(
      written.map((occurrence) => occurrence.span),
    );
    expect(before.spans.every(verifySpan)).toBe(true);
    expect(before.hits.map((hit) => hit.seq)).toContain(3);
    expect(before.short?.map((hit) => hit.seq)).toEqual([3]);

    const reader = createSqliteStore({ path, readonly: true });
    expect(await readSession(reader, 's', '✓')).toEqual(before);
    await reader.close();
  });

  it('migrates a version 9 ledger: texts packed, every span read the same, keys intact, still append-only', async () => {
    const store = createSqliteStore({ path });
    await store.openSession('plain');
    await store.openSession('tenanted', { tenantId: 'acme' });
    for (const session of ['plain', 'tenanted']) await store.append(session, 0, mixedEntries());
    const before = {
      plain: await readSession(store, 'plain', '✓'),
      tenanted: await readSession(store, 'tenanted', '✓'),
    };
    await store.close();
    const older = new Database(path);
    spanTextAsVersion9(older);
    older.pragma('user_version = 9');
    expect(older.prepare("SELECT COUNT(*) FROM spans WHERE typeof(text) <> 'text'").pluck().get()).toBe(0);
    older.close();

    const migrated = createSqliteStore({ path });
    expect({
      plain: await readSession(migrated, 'plain', '✓'),
      tenanted: await readSession(migrated, 'tenanted', '✓'),
    }).toEqual(before);
    const more = entry('user', `${LONG_LOG}\nafter the migration`);
    await migrated.append('plain', mixedEntries().length, [more]);
    expect((await migrated.spans('plain', [more.span.id]))[0]?.text).toBe(more.span.text);
    await migrated.close();

    const raw = new Database(path);
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const rows = raw.prepare('SELECT text FROM spans').pluck().all() as (string | Buffer)[];
    const packable = [...mixedEntries(), more].filter(({ span }) => Buffer.isBuffer(packSpanText(span.text)));
    expect(rows.filter((text) => Buffer.isBuffer(text))).toHaveLength(packable.length * 2 - 1);
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    expect(() => raw.prepare("UPDATE spans SET text = 'x'").run()).toThrow(/spans are immutable/);
    expect(() => raw.prepare('DELETE FROM spans').run()).toThrow(/spans are immutable/);
    expect(() => raw.prepare('INSERT OR REPLACE INTO spans SELECT * FROM spans LIMIT 1').run()).toThrow(
      /spans are immutable/,
    );
    raw.close();
  });

  it('migrates a ledger made with the version 1 to 9 DDL, each span packed as a new write would be', async () => {
    const older = new Database(path);
    registerSpanTextFunction(older, `sqlite:${path}`);
    for (let version = 0; version < 9; version += 1) applyMigration(older, version);
    older.pragma('user_version = 9');
    older.exec(
      "INSERT INTO sessions (id, created_at) VALUES ('s', 'now'); INSERT INTO session_keys (session_id) VALUES ('s')",
    );
    const insertSpan = older.prepare("INSERT INTO spans (id, kind, text, tokens) VALUES (?, 'user', ?, 1)");
    const insertOccurrence = older.prepare(
      "INSERT INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end) VALUES ('s', ?, ?, 'user', 0, 1)",
    );
    const texts = mixedEntries().map(({ span }) => span.text);
    const ids = texts.map((_, seq) => `sha256:${seq.toString(16).padStart(64, '0')}`);
    texts.forEach((text, seq) => {
      insertSpan.run(storedSpanKey(ids[seq]!), text);
      insertOccurrence.run(seq, storedSpanKey(ids[seq]!));
    });
    older.close();

    const migrated = createSqliteStore({ path });
    expect((await migrated.spans('s', ids)).map((span) => span.text)).toEqual(texts);
    await migrated.close();
    const raw = new Database(path, { readonly: true });
    const stored = raw.prepare('SELECT text FROM spans ORDER BY rowid').pluck().all();
    expect(stored).toEqual(texts.map(packSpanText));
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    raw.close();
  });

  it('refuses a packed text that does not inflate, naming the span and the ledger', async () => {
    const writer = createSqliteStore({ path });
    await writer.openSession('s');
    const [occurrence] = await writer.append('s', 0, [
      entry('tool-result', LONG_LOG, [{ kind: 'identifier', text: 'eu-west-2b' }], { toolName: 'bash' }),
    ]);
    const spanId = occurrence!.spanId;
    const raw = new Database(path);
    raw.exec('DROP TRIGGER spans_no_update');
    raw.prepare('UPDATE spans SET text = ? WHERE id = ?').run(Buffer.from([0xff, 0xff, 0x00]), storedSpanKey(spanId));
    // The writer gives back what it committed from memory (recent-writes.ts): the span as written, never the change.
    const [held] = await writer.spans('s', [spanId]);
    expect(held?.text).toBe(LONG_LOG);
    await writer.close();
    // A connection that holds nothing reads the row, and refuses it.
    const store = createSqliteStore({ path });

    const reads = [
      () => store.spans('s', [spanId]),
      () => store.occurrences('s'),
      () => store.occurrencesOf('s', spanId),
      () => store.handles('s'),
      () => store.searchText('s', 'payments', 5),
      () => store.searchText('s', '✓', 5),
    ];
    for (const [index, read] of reads.entries()) {
      const error = await read().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(ImmutableSpanError.isInstance(error), `read ${index}: ${String(error)}`).toBe(true);
      expect((error as Error).message).toContain(`sqlite:${path}: span ${spanId} was changed after it was written`);
      expect((error as Error).message).toMatch(/packed text does not inflate/);
      expect((error as ImmutableSpanError).details).toMatchObject({ spanId, location: `sqlite:${path}` });
    }

    // A packed text that inflates to other text reads back, and fails the span's hash check above the store.
    raw
      .prepare('UPDATE spans SET text = ? WHERE id = ?')
      .run(deflateRawSync(Buffer.from(LONG_LOG.replace('eu-west-2b', 'eu-west-9z'))), storedSpanKey(spanId));
    const [changed] = await store.spans('s', [spanId]);
    expect(changed?.text).toContain('eu-west-9z');
    expect(verifySpan(changed!)).toBe(false);
    raw.close();
    await store.close();
  });
});
