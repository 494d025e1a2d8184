/** SQLite handle rows in their compact form (schema version 6): what is stored, what is rebuilt, and the migration. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { keyHash } from '../../src/stores/sqlite/handle-rows.js';
import { applyMigration } from '../../src/stores/sqlite/migrate.js';
import { SCHEMA_VERSION } from '../../src/stores/sqlite/schema.js';
import type { AppendEntry } from '../../src/stores/store.js';
import type { Handle } from '../../src/types.js';
import { entry, sampleEntries } from './fixtures.js';

/** Two different keys with the same 32-bit digest (found by counting up; a birthday search, ~10^5 tries). */
function collidingKeys(): [string, string] {
  const seen = new Map<number, string>();
  for (let index = 0; ; index++) {
    const key = `k${index}`;
    const other = seen.get(keyHash(key));
    if (other !== undefined) return [other, key];
    seen.set(keyHash(key), key);
  }
}

/** The handles of entries as a store returns them. */
function handlesOf(entries: readonly AppendEntry[], from = 0): Handle[] {
  return entries.flatMap((item, index) => item.handles.map((handle) => ({ ...handle, seq: from + index })));
}

describe('SQLite compact handle rows', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-handle-rows-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('stores only what the occurrence does not give, and reads the same handles back', async () => {
    const plain = entry('user', 'Deploy to eu-west-2b via ./scripts/deploy.sh now', [
      { kind: 'identifier', text: 'eu-west-2b', key: 'eu-west-2b' },
      { kind: 'path', text: './scripts/deploy.sh', key: 'scripts/deploy.sh' },
    ]);
    // A handle whose role is not its occurrence's role, and a kind this version has no code for.
    const odd = entry('tool-result', 'exit code 3 from ünïcode 🚀 tool', [{ kind: 'number', text: '3', key: '3' }]);
    const oddHandles = [
      { ...odd.handles[0]!, role: 'user' as const },
      { ...odd.handles[0]!, kind: 'future-kind' as never, text: 'ünïcode 🚀', key: 'x', start: 17, end: 27 },
    ];
    const entries = [plain, { ...odd, handles: oddHandles }];
    const store = createSqliteStore({ path });
    await store.openSession('s');
    await store.append('s', 0, entries);
    expect(await store.handles('s')).toEqual(handlesOf(entries));
    expect(await store.findHandles('s', 'scripts/deploy.sh')).toEqual([{ ...plain.handles[1]!, seq: 0 }]);
    expect(await store.findHandles('s', 'eu-west-2b')).toEqual([{ ...plain.handles[0]!, seq: 0 }]);
    expect(await store.findHandles('s', 'x')).toEqual([{ ...oddHandles[1]!, seq: 1 }]);
    await store.close();
    const raw = new Database(path, { readonly: true });
    const rows = raw
      .prepare('SELECT seq, position, kind, key, role, span_id, text FROM handle_rows ORDER BY seq, position')
      .all();
    expect(rows).toEqual([
      { seq: 0, position: 0, kind: 4, key: null, role: null, span_id: null, text: null },
      { seq: 0, position: 1, kind: 1, key: 'scripts/deploy.sh', role: null, span_id: null, text: null },
      { seq: 1, position: 0, kind: 7, key: null, role: 'user', span_id: null, text: null },
      { seq: 1, position: 1, kind: 'future-kind', key: 'x', role: null, span_id: null, text: null },
    ]);
    // A kind code is stored as an INTEGER (1 byte), not as the REAL the driver binds a JS number as (8 bytes).
    expect(raw.prepare('SELECT typeof(kind) FROM handle_rows ORDER BY seq, position').pluck().all()).toEqual([
      'integer',
      'integer',
      'integer',
      'text',
    ]);
    raw.close();
  });

  it('finds a handle by key even when another key has the same digest, and only that handle', async () => {
    const [first, second] = collidingKeys();
    expect(keyHash(first)).toBe(keyHash(second));
    const item = entry('user', `${first} and ${second}`, [
      { kind: 'identifier', text: first, key: first },
      { kind: 'identifier', text: second, key: second },
    ]);
    const store = createSqliteStore({ path });
    await store.openSession('s');
    await store.append('s', 0, [item]);
    expect(await store.findHandles('s', first)).toEqual([{ ...item.handles[0]!, seq: 0 }]);
    expect(await store.findHandles('s', second)).toEqual([{ ...item.handles[1]!, seq: 0 }]);
    expect(await store.findHandles('nobody', first)).toEqual([]);
    expect(await store.handles('nobody')).toEqual([]);
    await store.close();
  });

  it('refuses a handle row without its occurrence, and any change to a stored row', async () => {
    const store = createSqliteStore({ path });
    await store.openSession('s');
    await store.append('s', 0, sampleEntries());
    await store.close();
    const raw = new Database(path);
    expect(() =>
      raw
        .prepare(
          `INSERT INTO handle_rows (session, seq, position, kind, start, "end", tokens, key_hash, text)
           VALUES (1, 99, 0, 4, 0, 1, 1, 0, 'forged')`,
        )
        .run(),
    ).toThrow(/needs its occurrence/);
    expect(() => raw.exec("UPDATE handle_rows SET key = 'forged'")).toThrow(/immutable/);
    expect(() => raw.exec('DELETE FROM handle_rows')).toThrow(/immutable/);
    expect(() => raw.exec("UPDATE session_keys SET session_id = 'other'")).toThrow(/immutable/);
    raw.close();
  });

  it('migrates a version 5 ledger: every handle reads back the same, lookups work, the old table is gone', async () => {
    const entries = [
      ...sampleEntries(),
      entry('tool-result', 'status: eu-west-2b READY (code 0)', [
        { kind: 'identifier', text: 'eu-west-2b' },
        { kind: 'number', text: '0', key: 'zero' },
      ]),
    ];
    // An odd row a version 5 store may hold: a role that is not its occurrence's.
    entries[3] = { ...entries[3]!, handles: [{ ...entries[3]!.handles[0]!, role: 'user' }, entries[3]!.handles[1]!] };
    const older = new Database(path);
    for (let version = 0; version < 5; version += 1) applyMigration(older, version);
    older.pragma('user_version = 5');
    for (const session of ['s', 't']) {
      older.prepare("INSERT INTO sessions (id, tenant_id, created_at) VALUES (?, NULL, 'then')").run(session);
      entries.forEach((item, seq) => {
        const { span } = item;
        if (session === 's')
          older
            .prepare('INSERT INTO spans (id, kind, text, tool_name, tool_call_id, tokens) VALUES (?, ?, ?, ?, ?, ?)')
            .run(span.id, span.kind, span.text, span.toolName ?? null, span.toolCallId ?? null, span.tokens);
        older
          .prepare(
            'INSERT INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end, label) VALUES (?, ?, ?, ?, ?, ?, ?)',
          )
          .run(session, seq, span.id, item.role, item.byteStart, item.byteEnd, item.label ?? null);
        item.handles.forEach((handle, position) =>
          older
            .prepare(
              `INSERT INTO handles (session_id, seq, position, span_id, kind, text, key, start, "end", role, tokens)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              session,
              seq,
              position,
              handle.spanId,
              handle.kind,
              handle.text,
              handle.key,
              handle.start,
              handle.end,
              handle.role,
              handle.tokens,
            ),
        );
        older.prepare('INSERT INTO occurrence_text_rows (session_id, seq) VALUES (?, ?)').run(session, seq);
      });
    }
    older.close();
    const store = createSqliteStore({ path });
    for (const session of ['s', 't']) {
      expect(await store.handles(session)).toEqual(handlesOf(entries));
      expect((await store.findHandles(session, 'eu-west-2b')).map((handle) => handle.seq)).toEqual([0, 2, 3]);
      expect(await store.findHandles(session, 'zero')).toEqual([{ ...entries[3]!.handles[1]!, seq: 3 }]);
    }
    const next = entry('user', 'after the migration: eu-west-2b', [{ kind: 'identifier', text: 'eu-west-2b' }]);
    await store.append('s', entries.length, [next]);
    expect(await store.handles('s', { fromSeq: entries.length })).toEqual(handlesOf([next], entries.length));
    await store.openSession('u');
    await store.append('u', 0, [next]);
    expect(await store.handles('u')).toEqual(handlesOf([next]));
    await store.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.prepare("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'handles'").pluck().get()).toBe(0);
    expect(raw.prepare('SELECT session_id FROM session_keys ORDER BY key').pluck().all()).toEqual(['s', 't', 'u']);
    raw.close();
  });
});
