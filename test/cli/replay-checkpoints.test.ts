/**
 * `replay` is a batch write no agent waits on: its SQLite store checkpoints the WAL inline (SQLite's automatic
 * checkpoint) instead of starting the background checkpoint worker, whose thread and heap cost peak RSS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPLAY_SQLITE_CACHE_KIB, replayFile } from '../../src/cli/replay.js';
import { openStore } from '../../src/stores/store-spec.js';
import { entry } from '../stores/fixtures.js';
import { sessionsInMainFile, waitFor } from '../stores/sqlite-main-file.js';

const FIXTURE = join(process.cwd(), 'test/importers/fixtures/claude-code-session.jsonl');
/** Well past the background worker's delay (100 ms): a running worker would have checkpointed by then. */
const PAST_WORKER_DELAY_MS = 400;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('replay checkpoints its SQLite WAL inline', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-replay-wal-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('leaves a small replay in the WAL until the store closes (no background worker copied it out)', async () => {
    const outcome = await replayFile(FIXTURE, { store: `sqlite:${path}`, session: 'replayed' });
    await pause(PAST_WORKER_DELAY_MS);
    expect(sessionsInMainFile(path)).toEqual([]);
    await outcome.close();
    expect(sessionsInMainFile(path)).toEqual(['replayed']);
  });

  it('opens the SQLite store with the replay page cache (REPLAY_SQLITE_CACHE_KIB), other commands with the default', async () => {
    const spied: number[] = [];
    const original = Database.prototype.pragma;
    const spy = vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (
      this: Database.Database,
      source,
      options,
    ) {
      const match = /^cache_size = -(\d+)$/u.exec(source);
      if (match) spied.push(Number(match[1]));
      return original.call(this, source, options);
    });
    try {
      await (await replayFile(FIXTURE, { store: `sqlite:${path}`, session: 'again' })).close();
      expect(spied).toEqual([REPLAY_SQLITE_CACHE_KIB]);
      await (await openStore(`sqlite:${path}`)).close();
      expect(spied).toEqual([REPLAY_SQLITE_CACHE_KIB]);
    } finally {
      spy.mockRestore();
    }
  });

  it('openStore starts the worker by default and not with backgroundCheckpoint: false', async () => {
    const background = await openStore(`sqlite:${path}`);
    await background.openSession('worker');
    await background.append('worker', 0, [entry('user', 'deploy to eu-west-2b')]);
    await waitFor(() => sessionsInMainFile(path).includes('worker'), 'the background worker to checkpoint');
    expect(sessionsInMainFile(path)).toEqual(['worker']);
    await background.close();

    const inline = await openStore(`sqlite:${path}`, { backgroundCheckpoint: false });
    await inline.openSession('inline');
    await inline.append('inline', 0, [entry('user', 'do not target eu-west-1')]);
    await pause(PAST_WORKER_DELAY_MS);
    expect(sessionsInMainFile(path)).toEqual(['worker']);
    await inline.close();
    expect(sessionsInMainFile(path)).toEqual(['inline', 'worker']);
  });
});
