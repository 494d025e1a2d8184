/**
 * A new SQLite ledger is made with the current schema in one step (`schema-current.ts`); an older one migrates step
 * by step. The two must never drift: the same tables, columns, keys, indexes, triggers, rows and version.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMigration } from '../../src/stores/sqlite/migrate.js';
import { openDatabase } from '../../src/stores/sqlite/open-database.js';
import { SCHEMA_VERSION } from '../../src/stores/sqlite/schema.js';
import { CURRENT_SCHEMA } from '../../src/stores/sqlite/schema-current.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { entry } from './fixtures.js';

/** SQL text with identifier quotes and layout taken out (`ALTER TABLE` and `RENAME` rewrite both). */
function normalised(sql: string | null): string | null {
  if (sql === null) return null;
  return sql
    .replace(/"([A-Za-z_][A-Za-z0-9_]*)"/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),;])\s*/g, '$1')
    .trim();
}

interface MasterRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Everything a ledger file's schema is: its objects' SQL, each table's columns, keys and indexes, rows and version. */
function schemaOf(db: Database.Database): Record<string, unknown> {
  const master = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').all() as MasterRow[];
  const objects = master
    .map((row) => ({ ...row, sql: normalised(row.sql) }))
    .sort((a, b) => `${a.type} ${a.name}`.localeCompare(`${b.type} ${b.name}`));
  const tables: Record<string, unknown> = {};
  for (const { name, sql } of objects) {
    if (sql === null || !sql.startsWith('CREATE TABLE')) continue;
    const indexes = db.pragma(`index_list(${name})`) as { name: string }[];
    tables[name] = {
      columns: db.pragma(`table_xinfo(${name})`),
      foreignKeys: db.pragma(`foreign_key_list(${name})`),
      indexes: indexes
        .map((index) => ({ ...index, seq: undefined, columns: db.pragma(`index_xinfo(${index.name})`) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      rows: db.prepare(`SELECT * FROM ${name} ORDER BY 1`).raw().all(),
    };
  }
  return { objects, tables, version: db.pragma('user_version', { simple: true }) };
}

/** Opens `path` the way the store does (creating or migrating it), and closes it. */
function openAndClose(path: string): void {
  openDatabase({ path }).db.close();
}

/** Writes a schema version 1 ledger at `path` (the first migration only), with `setUp` run on it. */
function versionOneLedger(path: string, setUp: (db: Database.Database) => void = () => {}): void {
  const db = new Database(path);
  applyMigration(db, 0);
  setUp(db);
  db.pragma('user_version = 1');
  db.close();
}

function readSchema(path: string): Record<string, unknown> {
  const db = new Database(path, { readonly: true });
  try {
    return schemaOf(db);
  } finally {
    db.close();
  }
}

describe('SQLite current schema', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-schema-current-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('makes a new file exactly as the migrations from version 1 make it', () => {
    const direct = join(directory, 'direct.db');
    const stepwise = join(directory, 'stepwise.db');
    openAndClose(direct);
    versionOneLedger(stepwise);
    openAndClose(stepwise);
    const made = readSchema(direct);
    expect(made.version).toBe(SCHEMA_VERSION);
    expect(made).toEqual(readSchema(stepwise));
  });

  it('makes a new file in one step, not by the migrations (which leave spans a renamed copy)', () => {
    const path = join(directory, 'new.db');
    openAndClose(path);
    const db = new Database(path, { readonly: true });
    const spans = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'spans'").pluck().get() as string;
    db.close();
    expect(spans.startsWith('CREATE TABLE spans (')).toBe(true);
    expect(CURRENT_SCHEMA).toContain('CREATE TABLE spans (');
  });

  it('still migrates an older file step by step, keeping its rows', async () => {
    const path = join(directory, 'old.db');
    versionOneLedger(path, (db) =>
      db.prepare('INSERT INTO sessions (id, tenant_id, created_at) VALUES (?, NULL, ?)').run('old-session', 'then'),
    );
    openAndClose(path);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    // Version 6 numbers the sessions there were: only a step-by-step migration gives the old session its number.
    expect(db.prepare('SELECT key, session_id FROM session_keys').all()).toEqual([
      { key: 1, session_id: 'old-session' },
    ]);
    db.close();
    const store = createSqliteStore({ path });
    await store.openSession('old-session');
    await store.append('old-session', 0, [entry('user', 'Restart the billing worker on host alpha-7')]);
    expect((await store.occurrences('old-session')).map((occurrence) => occurrence.span.text)).toEqual([
      'Restart the billing worker on host alpha-7',
    ]);
    await store.close();
  });

  it('leaves a file it made as it is when it opens it again', () => {
    const path = join(directory, 'again.db');
    openAndClose(path);
    const made = readSchema(path);
    openAndClose(path);
    expect(readSchema(path)).toEqual(made);
  });
});
