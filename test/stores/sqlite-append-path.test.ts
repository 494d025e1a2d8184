/**
 * SQLite append path: WAL checkpoints run in a background worker (not in the COMMIT of an append),
 * and the free-text index is merged in small steps inside each append instead of by FTS5 automerge.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { entry } from './fixtures.js';

/** The sessions stored in the main database file alone (what a checkpoint has copied out of the WAL). */
function sessionsInMainFile(path: string): string[] {
  const image = readFileSync(path);
  // Bytes 18-19 say "WAL"; read the image as a rollback-journal file, without its WAL.
  image[18] = 1;
  image[19] = 1;
  const db = new Database(image, { readonly: true });
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sessions'").get() !== undefined;
    return hasTable ? (db.prepare('SELECT id FROM sessions ORDER BY id').pluck().all() as string[]) : [];
  } finally {
    db.close();
  }
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting: ${what}`);
}

function turn(index: number): ReturnType<typeof entry> {
  return entry('user', `turn ${index}: deploy host-${index} to eu-west-${index % 7}b with PORT=${8000 + index}`);
}

describe('SQLite append path', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-append-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('checkpoints the WAL in the background soon after an append, while the store stays open', async () => {
    const store = createSqliteStore({ path });
    await store.openSession('s');
    await store.append('s', 0, [turn(0)]);
    // Far below the 1000-page automatic checkpoint: only the background checkpointer copies it out.
    await waitFor(() => sessionsInMainFile(path).includes('s'), 'the session in the main file');
    await store.append('s', 1, [turn(1)]);
    expect((await store.occurrences('s')).map((occurrence) => occurrence.seq)).toEqual([0, 1]);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('leaves small appends in the WAL with backgroundCheckpoint: false (SQLite automatic checkpoint only)', async () => {
    const store = createSqliteStore({ path, backgroundCheckpoint: false });
    await store.openSession('s');
    await store.append('s', 0, [turn(0)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sessionsInMainFile(path)).toEqual([]);
    await store.close();
    expect(sessionsInMainFile(path)).toEqual(['s']);
  });

  it('closes cleanly right after writing (worker stopped first, the file reopens with every append)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const store = createSqliteStore({ path });
      await store.openSession('s');
      await store.append('s', round, [turn(round)]);
      await store.close();
      await store.close();
    }
    const reopened = createSqliteStore({ path, readonly: true });
    expect((await reopened.occurrences('s')).length).toBe(3);
    await reopened.close();
  });

  it('turns FTS5 automerge off and keeps the free-text index merged with per-append steps', async () => {
    const store = createSqliteStore({ path, backgroundCheckpoint: false });
    await store.openSession('s');
    for (let index = 0; index < 200; index += 1) await store.append('s', index, [turn(index)]);
    await store.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("SELECT v FROM occurrence_fts_config WHERE k = 'automerge'").pluck().get()).toBe(0);
    // One segment per append without any merging (200); crisismerge alone would allow 15 per level.
    const segments = raw.prepare('SELECT count(DISTINCT segid) FROM occurrence_fts_idx').pluck().get() as number;
    raw.close();
    expect(segments).toBeLessThanOrEqual(12);
    const again = createSqliteStore({ path, readonly: true });
    for (const index of [0, 99, 199])
      expect((await again.searchText('s', `host-${index} `, 5)).map((hit) => hit.seq)).toContain(index);
    await again.close();
  });
});
