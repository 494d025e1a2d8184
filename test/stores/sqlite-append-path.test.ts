/**
 * SQLite append path: WAL checkpoints run in a background worker (not in the COMMIT of an append),
 * the free-text index is written after the append (idle steps, search, close) and merged in small
 * steps instead of by FTS5 automerge.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FALLBACK_AUTOCHECKPOINT_PAGES, TAIL_MIN_FRAMES } from '../../src/stores/sqlite/background-checkpoint.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { HANDLE_BATCH_ROWS } from '../../src/stores/sqlite/statements.js';
import { entry } from './fixtures.js';
import { sessionsInMainFile, textIndexState, waitFor } from './sqlite-main-file.js';

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

  it('keeps the WAL far below the fallback checkpoint under a steady stream of appends (writer finishes it when idle)', async () => {
    // Appends back to back, one timer turn apart: no worker checkpoint ever sees the whole WAL copied when a write
    // begins, so before, the WAL grew until FALLBACK_AUTOCHECKPOINT_PAGES and an append's COMMIT checkpointed (measured
    // here: 16,005 frames after 600 appends, about 26 frames each). Now the writer's idle step copies what the worker
    // left behind, and its text-index write restarts the WAL (measured: at most about 3,000 frames).
    const store = createSqliteStore({ path });
    await store.openSession('s');
    const walFrames = () => Math.floor((statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) / (4096 + 24));
    let largest = 0;
    for (let seq = 0; seq < 1_000; seq += 1) {
      const lines = Array.from({ length: 40 }, (_, line) => `${turn(seq * 40 + line).span.text} line ${line}`);
      await store.append('s', seq, [entry('user', lines.join('\n'))]);
      largest = Math.max(largest, walFrames());
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await store.close();
    expect(largest).toBeGreaterThan(TAIL_MIN_FRAMES);
    expect(largest).toBeLessThan(FALLBACK_AUTOCHECKPOINT_PAGES / 2);
  });
});

describe('SQLite deferred free-text index', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-text-index-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('appends without indexing, and a search right after still finds the new text', async () => {
    const store = createSqliteStore({ path, backgroundCheckpoint: false });
    await store.openSession('s');
    await store.append('s', 0, [turn(0), turn(1)]);
    // Read in the same tick as the append's promise: no idle step has run yet.
    const before = textIndexState(path);
    expect(before.last).toBe(2);
    expect(before.mark).toBe(0);
    expect((await store.searchText('s', 'host-1 ', 5)).map((hit) => hit.seq)).toEqual([1]);
    expect(textIndexState(path)).toEqual({ mark: 2, last: 2 });
    await store.close();
  });

  it('indexes in idle steps while the store stays open, and whatever is left on close', async () => {
    const store = createSqliteStore({ path, backgroundCheckpoint: false });
    await store.openSession('s');
    await store.append('s', 0, [turn(0)]);
    await waitFor(() => textIndexState(path).mark === 1, 'an idle step to index the append');
    const big = Array.from({ length: 40 }, (_, index) => entry('assistant', `${'x'.repeat(4000)} marker-${index} `));
    await store.append('s', 1, big);
    await store.close();
    expect(textIndexState(path)).toEqual({ mark: 41, last: 41 });
    const again = createSqliteStore({ path, readonly: true });
    expect((await again.searchText('s', 'marker-39 ', 5)).map((hit) => hit.seq)).toEqual([40]);
    await again.close();
  });

  it('a read-only connection finds rows the writer has not indexed yet, and the mark never moves back', async () => {
    const writer = createSqliteStore({ path, backgroundCheckpoint: false });
    await writer.openSession('s');
    await writer.append('s', 0, [turn(0)]);
    await writer.searchText('s', 'host-0 ', 1);
    await writer.append('s', 1, [turn(1)]);
    const reader = createSqliteStore({ path, readonly: true });
    const hits = reader.searchText('s', 'eu-west-1b', 5);
    expect(textIndexState(path)).toEqual({ mark: 1, last: 2 });
    expect((await hits).map((hit) => hit.seq)).toEqual([1]);
    await reader.close();
    await writer.close();
    const raw = new Database(path);
    expect(() => raw.prepare('UPDATE text_index_mark SET row = 0 WHERE id = 1').run()).toThrow(/only moves forward/);
    expect(() => raw.prepare('DELETE FROM text_index_mark').run()).toThrow(/only moves forward/);
    expect(() => raw.prepare('UPDATE text_index_mark SET row = 99 WHERE id = 1').run()).toThrow(/only moves forward/);
    raw.close();
  });

  it('a writer that exits before indexing loses nothing: the next writer indexes from the mark', async () => {
    const dist = (file: string) => JSON.stringify(new URL(`../../dist/${file}`, import.meta.url).href);
    const script = `
      const { createLedger } = await import(${dist('index.js')});
      const { createSqliteStore } = await import(${dist('stores/sqlite/index.js')});
      const store = createSqliteStore({ path: ${JSON.stringify(path)}, backgroundCheckpoint: false });
      const session = await createLedger({ store }).session('s');
      await session.append({ role: 'user', content: 'Never target replica payments-db-eu-west-1a.' });
      process.exit(0);
    `;
    // The child appends through the public API and exits at once: no idle step, no close.
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const left = textIndexState(path);
    expect(left.last).toBeGreaterThan(0);
    expect(left.mark).toBe(0);
    const store = createSqliteStore({ path, backgroundCheckpoint: false });
    expect((await store.searchText('s', 'payments-db-eu-west-1a', 5)).length).toBe(1);
    expect(textIndexState(path)).toEqual({ mark: left.last, last: left.last });
    await store.close();
  });
});

describe('SQLite handle rows written in batches', () => {
  it('stores every handle of a seq in order, across whole batches and the rows after them', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'context-ledger-handle-batch-'));
    try {
      const store = createSqliteStore({ path: join(directory, 'ledger.db'), backgroundCheckpoint: false });
      await store.openSession('batch');
      const counts = [0, 1, HANDLE_BATCH_ROWS - 1, HANDLE_BATCH_ROWS, 2 * HANDLE_BATCH_ROWS + 5];
      const entries = counts.map((count, index) => {
        const words = Array.from({ length: count }, (_, word) => `host${index}x${word}`);
        return entry(
          'user',
          `seq ${index}: ${words.join(' ')}`,
          words.map((text) => ({ kind: 'identifier', text })),
        );
      });
      const written = await store.append('batch', 0, entries);
      const stored = await store.handles('batch');
      const expected = entries.flatMap((item, seq) => item.handles.map((handle) => ({ ...handle, seq })));
      expect(stored).toEqual(expected);
      expect(written.map((occurrence) => occurrence.seq)).toEqual(counts.map((_, seq) => seq));
      const raw = new Database(join(directory, 'ledger.db'), { readonly: true });
      const positions = raw.prepare('SELECT seq, position FROM handle_rows ORDER BY seq, position').all();
      expect(positions).toEqual(
        counts.flatMap((count, seq) => Array.from({ length: count }, (_, position) => ({ seq, position }))),
      );
      raw.close();
      await store.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('writes the rows of all entries of an append, across statements, as appends of one entry each would', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'context-ledger-handle-batch-'));
    try {
      // 7 entries of 0 to 45 handles: 150 rows in all, so statements of HANDLE_BATCH_ROWS rows span entries.
      const counts = [3, 45, 0, 17, HANDLE_BATCH_ROWS - 30, 40, 11];
      const entries = counts.map((count, index) => {
        const words = Array.from({ length: count }, (_, word) => `svc${index}-${word}`);
        return entry(
          'user',
          `turn ${index}: ${words.join(' ')}`,
          words.map((text) => ({ kind: 'path', text })),
        );
      });
      const rows: unknown[] = [];
      const read: unknown[] = [];
      for (const [name, batches] of [
        ['one', [entries]],
        ['each', entries.map((item) => [item])],
      ] as const) {
        const path = join(directory, `${name}.db`);
        const store = createSqliteStore({ path, backgroundCheckpoint: false });
        await store.openSession('s');
        let seq = 0;
        for (const batch of batches) seq += (await store.append('s', seq, batch)).length;
        read.push([await store.handles('s'), await store.findHandles('s', 'svc3-16')]);
        await store.close();
        const raw = new Database(path, { readonly: true });
        rows.push(raw.prepare('SELECT * FROM handle_rows ORDER BY session, seq, position').all());
        raw.close();
      }
      expect(rows[0]).toHaveLength(counts.reduce((sum, count) => sum + count, 0));
      expect(rows[0]).toEqual(rows[1]);
      expect(read[0]).toEqual(read[1]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
