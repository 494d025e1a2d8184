import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { InvalidInputError, SequenceConflictError, StoreOperationError } from '../../src/errors.js';
import { LedgerSession } from '../../src/session/session.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { SqliteDurability } from '../../src/stores/sqlite/sqlite-store-options.js';
import { GROUP_COMMIT_MS, WriteGroups } from '../../src/stores/sqlite/write-groups.js';
import { openStore, parseSqliteSpec } from '../../src/stores/store-spec.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import { entry, sampleEntries, sampleRecord } from './fixtures.js';
import { snapshot } from './conformance.js';

const directory = mkdtempSync(join(tmpdir(), 'cl-durability-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(directory, `ledger-${++files}.db`);

/** What another connection sees of a session: its occurrences' seqs and its record ids. */
function seenByOthers(path: string, sessionId = 's1') {
  const raw = new Database(path, { readonly: true });
  try {
    return {
      seqs: raw.prepare('SELECT seq FROM occurrences WHERE session_id = ? ORDER BY seq').pluck().all(sessionId),
      records: raw.prepare('SELECT id FROM records WHERE session_id = ? ORDER BY ordinal').pluck().all(sessionId),
    };
  } finally {
    raw.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite durability "commit" (the default)', () => {
  it('commits each write before it is acknowledged: another connection sees it at once', async () => {
    const path = newPath();
    const store = createSqliteStore({ path, backgroundCheckpoint: false });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    expect(seenByOthers(path).seqs).toEqual([0, 1, 2]);
    await store.writeRecord(sampleRecord('s1'));
    expect(seenByOthers(path).records).toEqual(['rec_1']);
    await store.close();
  });
});

describe('SQLite durability "batch"', () => {
  it('groups writes: other connections see them when the group commits, at the latest on close', async () => {
    const path = newPath();
    const store = createSqliteStore({ path, backgroundCheckpoint: false, durability: 'batch' });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    await store.writeRecord(sampleRecord('s1'));
    // The store reads its own writes; another connection does not see the open group.
    expect((await store.occurrences('s1')).map((occurrence) => occurrence.seq)).toEqual([0, 1, 2]);
    expect(await store.records('s1')).toHaveLength(1);
    expect(seenByOthers(path)).toEqual({ seqs: [], records: [] });
    await store.close();
    expect(seenByOthers(path)).toEqual({ seqs: [0, 1, 2], records: ['rec_1'] });
  });

  it('commits an idle group on a timer, without close', async () => {
    const path = newPath();
    const store = createSqliteStore({ path, backgroundCheckpoint: false, durability: 'batch' });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    expect(seenByOthers(path).seqs).toEqual([]);
    await sleep(GROUP_COMMIT_MS + 300);
    expect(seenByOthers(path).seqs).toEqual([0, 1, 2]);
    await store.close();
  });

  it('commits a group once it is GROUP_COMMIT_MS old, so a killed writer keeps a prefix of whole appends', async () => {
    const path = newPath();
    const store = createSqliteStore({ path, backgroundCheckpoint: false, durability: 'batch' });
    await store.openSession('s1');
    const started = performance.now();
    let next = 0;
    const seen: number[] = [];
    // Appends of three entries for a while: what another connection sees (what a killed process would leave) is
    // always the first whole appends, never a part of one.
    while (performance.now() - started < 2.5 * GROUP_COMMIT_MS) {
      const entries = [0, 1, 2].map((part) =>
        entry('user', `append ${next / 3} part ${part}: deploy v2.${next + part}`),
      );
      await store.append('s1', next, entries);
      next += 3;
      const { seqs } = seenByOthers(path);
      expect(seqs).toEqual(seqs.map((_, index) => index));
      expect(seqs.length % 3).toBe(0);
      seen.push(seqs.length);
    }
    // Groups committed while the appends went on (not only on close).
    expect(Math.max(...seen)).toBeGreaterThan(0);
    expect(Math.min(...seen)).toBeLessThan(next);
    await store.close();
    expect(seenByOthers(path).seqs).toHaveLength(next);
  });

  it('ends a group only after an append: never between the records of one compaction', async () => {
    const path = newPath();
    const store = createSqliteStore({ path, backgroundCheckpoint: false, durability: 'batch' });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    // Past the group's age, without letting the event loop run the idle timer.
    const until = performance.now() + GROUP_COMMIT_MS + 50;
    while (performance.now() < until);
    await store.writeRecord(sampleRecord('s1'));
    await store.writeRecord(sampleRecord('s1', { id: 'rec_2', ordinal: 1 }));
    expect(seenByOthers(path)).toEqual({ seqs: [], records: [] });
    await store.append('s1', 3, [entry('user', 'the next turn')]);
    expect(seenByOthers(path)).toEqual({ seqs: [0, 1, 2, 3], records: ['rec_1', 'rec_2'] });
    await store.close();
  });

  it('undoes only a failed write: the rest of its group is committed', async () => {
    const path = newPath();
    const store = createSqliteStore({ path, backgroundCheckpoint: false, durability: 'batch' });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    await expect(store.append('s1', 0, [entry('user', 'a stale append')])).rejects.toBeInstanceOf(
      SequenceConflictError,
    );
    await store.writeRecord(sampleRecord('s1'));
    await expect(store.writeRecord(sampleRecord('s1'))).rejects.toThrow(/immutable/);
    await store.append('s1', 3, [entry('user', 'after the failures')]);
    await store.close();
    expect(seenByOthers(path)).toEqual({ seqs: [0, 1, 2, 3], records: ['rec_1'] });
  });

  it('stores what "commit" stores, row for row, and reads it back the same', async () => {
    // Records hold their creation time: the clock stands still so that both ledgers get the same.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2025-01-02T03:04:05.678Z') });
    try {
      const written = [];
      for (const durability of ['commit', 'batch'] as SqliteDurability[]) {
        const path = newPath();
        const store = createSqliteStore({ path, backgroundCheckpoint: false, durability });
        await writeSession(store);
        const read = await snapshot(store, 'replayed');
        const hits = await store.searchText('replayed', 'eu-west-2b', 50);
        await store.close();
        written.push({ read, hits, rows: tableRows(path) });
      }
      const [commit, batch] = written as [(typeof written)[number], (typeof written)[number]];
      expect(commit.rows.records.length).toBeGreaterThan(1);
      expect(commit.rows.carried.length).toBeGreaterThan(0);
      expect(batch.rows).toEqual(commit.rows);
      expect(batch.read).toEqual(commit.read);
      expect(batch.hits).toEqual(commit.hits);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is ignored read-only: the store reads', async () => {
    const path = newPath();
    const writer = createSqliteStore({ path, backgroundCheckpoint: false, durability: 'batch' });
    await writer.openSession('s1');
    await writer.append('s1', 0, sampleEntries());
    await writer.close();
    const reader = createSqliteStore({ path, readonly: true, durability: 'batch' });
    expect(await reader.nextSeq('s1')).toBe(3);
    await reader.close();
  });
});

/** A session of many turns with compactions (records with deltas and carried handles), as a replay writes it. */
async function writeSession(store: LedgerStore): Promise<void> {
  const session = await LedgerSession.open(
    'replayed',
    {
      store,
      counter: { name: 'approx-4', count: (text: string) => Math.ceil(text.length / 4) },
      summarizer: createExtractiveSummarizer(),
    },
    { window: { maxTokens: 1000 } },
  );
  for (let turn = 0; turn < 40; turn++) {
    await session.append([
      {
        role: 'user',
        content: `Deploy host-${turn} to eu-west-2b with PORT=${8000 + turn}; keep /srv/app/${turn}.env.`,
      },
      { role: 'assistant', content: `Deployed host-${turn} (v2.${turn}.1); the config is at /srv/app/${turn}.env.` },
    ]);
    await session.compactIfDue();
  }
}

/** Every row of the tables a store writes (sessions without their creation time), in a fixed order. */
function tableRows(path: string) {
  const raw = new Database(path, { readonly: true });
  try {
    const all = (sql: string) => raw.prepare(sql).raw().all();
    return {
      sessions: all('SELECT id, tenant_id FROM sessions ORDER BY id'),
      sessionKeys: all('SELECT * FROM session_keys ORDER BY key'),
      spans: all('SELECT * FROM spans ORDER BY id'),
      occurrences: all('SELECT * FROM occurrences ORDER BY session_id, seq'),
      handles: all('SELECT * FROM handle_rows ORDER BY session, seq, position'),
      records: all('SELECT * FROM records ORDER BY session_id, ordinal'),
      carried: all('SELECT * FROM carried_handles ORDER BY session, id'),
      textRows: all('SELECT * FROM occurrence_text_rows ORDER BY row'),
      mark: all('SELECT * FROM text_index_mark'),
    };
  } finally {
    raw.close();
  }
}

describe('WriteGroups (the commits of "batch")', () => {
  function table(): Database.Database {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x INTEGER)');
    return db;
  }

  it('refuses writes after a failure rolled back the whole group (the acknowledged writes in it are lost)', () => {
    const db = table();
    const groups = new WriteGroups(db, 'sqlite:test', 'batch', 60_000);
    groups.run('first', () => db.prepare('INSERT INTO t VALUES (1)').run(), true);
    expect(groups.open).toBe(true);
    // What SQLite does on a full disk or an I/O error in some statements: the whole transaction is rolled back.
    expect(() =>
      groups.run('second', () => {
        db.exec('ROLLBACK');
        throw new Error('disk I/O error');
      }),
    ).toThrow('disk I/O error');
    expect(() => groups.run('third', () => db.prepare('INSERT INTO t VALUES (3)').run())).toThrow(StoreOperationError);
    expect(() => groups.run('third', () => undefined)).toThrow(/rolled back by an earlier failure \(disk I\/O error\)/);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    db.close();
  });

  it('reports on close a group the idle timer failed to commit', async () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`);
    const groups = new WriteGroups(db, 'sqlite:test', 'batch', 20);
    // A deferred foreign key fails at COMMIT.
    groups.run('orphan', () => db.prepare('INSERT INTO child VALUES (7)').run(), true);
    await sleep(100);
    expect(groups.open).toBe(false);
    expect(() => groups.commit()).toThrow(/rolled back by an earlier failure \(FOREIGN KEY constraint failed\)/);
    expect(() => groups.commit()).not.toThrow();
    db.close();
  });

  it('commits after an append that finds the group old enough, not after other writes', () => {
    const old = new WriteGroups(table(), 'sqlite:test', 'batch', 0);
    old.run('append', () => undefined, true);
    expect(old.open).toBe(false);
    expect(old.commits).toBe(1);
    const db = table();
    const groups = new WriteGroups(db, 'sqlite:test', 'batch', 60_000);
    groups.run('append', () => db.prepare('INSERT INTO t VALUES (1)').run(), true);
    groups.run('record', () => db.prepare('INSERT INTO t VALUES (2)').run());
    groups.run('record', () => db.prepare('INSERT INTO t VALUES (3)').run());
    expect(groups.open).toBe(true);
    expect(db.inTransaction).toBe(true);
    groups.commit();
    expect(groups.commits).toBe(1);
    db.close();
  });

  it('opens no group for a write other than an append: it commits on its own (nothing holds the lock after flush)', () => {
    const db = table();
    const groups = new WriteGroups(db, 'sqlite:test', 'batch', 60_000);
    groups.run('text index step', () => db.prepare('INSERT INTO t VALUES (1)').run());
    expect(groups.open).toBe(false);
    expect(db.inTransaction).toBe(false);
    groups.stop();
    db.close();
  });

  it('runs each write on its own with "commit"', () => {
    const db = table();
    const groups = new WriteGroups(db, 'sqlite:test', 'commit');
    groups.run('write', () => db.prepare('INSERT INTO t VALUES (1)').run());
    expect(groups.open).toBe(false);
    expect(db.inTransaction).toBe(false);
    db.close();
  });
});

describe('durability in store specs and options', () => {
  it('reads ?durability= from a sqlite: spec and keeps any other "?" in the path', () => {
    expect(parseSqliteSpec('sqlite:runs.db?durability=batch')).toEqual({ path: 'runs.db', durability: 'batch' });
    expect(parseSqliteSpec('sqlite:runs.db?durability=commit')).toEqual({ path: 'runs.db', durability: 'commit' });
    expect(parseSqliteSpec('sqlite:runs.db')).toEqual({ path: 'runs.db' });
    expect(parseSqliteSpec('sqlite:what?.db')).toEqual({ path: 'what?.db' });
    expect(() => parseSqliteSpec('sqlite:runs.db?durability=sometimes')).toThrow(/"sometimes" is not a durability/);
    expect(() => parseSqliteSpec('sqlite:runs.db?durabilty=batch')).toThrow(
      /unknown parameter "durabilty".*\?durability=commit\|batch/,
    );
    expect(() => parseSqliteSpec('sqlite:runs.db?durability=batch')).not.toThrow(InvalidInputError);
  });

  it('opens a batch store from a spec, the spec winning over the option', async () => {
    const path = newPath();
    const store = await openStore(`sqlite:${path}?durability=batch`, { backgroundCheckpoint: false });
    expect(store.location).toBe(`sqlite:${path}`);
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    expect(seenByOthers(path).seqs).toEqual([]);
    await store.close();
    expect(seenByOthers(path).seqs).toEqual([0, 1, 2]);

    const other = newPath();
    const commits = await openStore(`sqlite:${other}?durability=commit`, {
      backgroundCheckpoint: false,
      durability: 'batch',
    });
    await commits.openSession('s1');
    await commits.append('s1', 0, sampleEntries());
    expect(seenByOthers(other).seqs).toEqual([0, 1, 2]);
    await commits.close();
  });

  it('takes the durability option of openStore (what replay passes)', async () => {
    const path = newPath();
    const store = await openStore(`sqlite:${path}`, { backgroundCheckpoint: false, durability: 'batch' });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    expect(seenByOthers(path).seqs).toEqual([]);
    await store.close();
    expect(seenByOthers(path).seqs).toEqual([0, 1, 2]);
  });

  it('refuses an unknown durability before creating anything', () => {
    const path = newPath();
    expect(() => createSqliteStore({ path, durability: 'sometimes' as SqliteDurability })).toThrow(InvalidInputError);
    expect(() => createSqliteStore({ path, durability: 'sometimes' as SqliteDurability })).toThrow(
      /options\.durability must be "commit" or "batch", got "sometimes"/,
    );
    expect(existsSync(path)).toBe(false);
  });
});

describe('flush', () => {
  it('commits the open group at once: another connection in this process can then write without waiting', async () => {
    const path = newPath();
    const store = createSqliteStore({ path, backgroundCheckpoint: false, durability: 'batch' });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    expect(seenByOthers(path).seqs).toEqual([]);
    await store.flush?.();
    expect(seenByOthers(path).seqs).toEqual([0, 1, 2]);
    // a second store on the same file writes while the first stays open (the demo's next session does this)
    const other = createSqliteStore({ path, backgroundCheckpoint: false, busyTimeoutMs: 200 });
    await other.openSession('s2');
    await other.append('s2', 0, sampleEntries());
    await other.close();
    await store.close();
  });

  it('is a no-op for a store that commits every write', async () => {
    const path = newPath();
    const store = createSqliteStore({ path, backgroundCheckpoint: false });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    await store.flush?.();
    expect(seenByOthers(path).seqs).toEqual([0, 1, 2]);
    await store.close();
  });
});
