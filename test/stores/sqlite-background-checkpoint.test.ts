/**
 * The background checkpointer's report: after a worker checkpoint of a WAL of at least `TAIL_MIN_FRAMES` frames, the
 * writer is told once to checkpoint the rest when idle (a WAL that large has not restarted since it got there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBackgroundCheckpoint, TAIL_MIN_FRAMES } from '../../src/stores/sqlite/background-checkpoint.js';
import { waitFor } from './sqlite-main-file.js';

describe('SQLite background checkpoint report', () => {
  let directory: string;
  let path: string;
  let db: Database.Database;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-checkpoint-'));
    path = join(directory, 'ledger.db');
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (text TEXT)');
  });
  afterEach(() => {
    db.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** Writes about `pages` pages of rows in one transaction. */
  function write(pages: number): void {
    const insert = db.prepare('INSERT INTO t (text) VALUES (?)');
    db.transaction(() => {
      for (let page = 0; page < pages; page += 1) insert.run(`${page} ${'x'.repeat(4_000)}`);
    })();
  }

  it('asks the writer for the tail once after checkpointing a WAL of TAIL_MIN_FRAMES frames or more', async () => {
    write(TAIL_MIN_FRAMES + 100);
    const checkpointer = startBackgroundCheckpoint(path, () => undefined);
    try {
      checkpointer.wrote();
      await waitFor(() => checkpointer.checkpoints >= 1, 'a worker checkpoint');
      expect(checkpointer.takeTail()).toBe(true);
      expect(checkpointer.takeTail()).toBe(false);
    } finally {
      await checkpointer.stop();
    }
  });

  it('does not ask for a tail after checkpointing a smaller WAL', async () => {
    write(TAIL_MIN_FRAMES / 10);
    const checkpointer = startBackgroundCheckpoint(path, () => undefined);
    try {
      checkpointer.wrote();
      await waitFor(() => checkpointer.checkpoints >= 1, 'a worker checkpoint');
      expect(checkpointer.takeTail()).toBe(false);
    } finally {
      await checkpointer.stop();
    }
  });
});
