/**
 * The deferred free-text index keeps up with a writer that never lets its idle steps run (a bulk replay keeps the
 * event loop busy): past `CATCH_UP_HELD_CHARS` of held text, appends index rows themselves, so close has little left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATCH_UP_HELD_CHARS, CATCH_UP_STEP_CHARS } from '../../src/stores/sqlite/deferred-text-index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { SqliteDurability } from '../../src/stores/sqlite/sqlite-store-options.js';
import { entry } from './fixtures.js';
import { textIndexState } from './sqlite-main-file.js';

/** Characters of each appended turn. */
const TURN_CHARS = 4_000;

function turn(index: number): ReturnType<typeof entry> {
  return entry('user', `turn ${index} marker-${index}q ${'payload '.repeat(TURN_CHARS / 8)}`.slice(0, TURN_CHARS));
}

describe('deferred text index under a busy writer', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-text-backlog-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it.each<SqliteDurability>(['commit', 'batch'])(
    'indexes as it appends once the held backlog passes the bound (%s)',
    async (durability) => {
      const store = createSqliteStore({ path, backgroundCheckpoint: false, durability });
      await store.openSession('s');
      const turns = Math.ceil((3 * CATCH_UP_HELD_CHARS) / TURN_CHARS);
      // Back to back, awaiting only promises: the idle step's timer never runs in this loop.
      for (let seq = 0; seq < turns; seq++) await store.append('s', seq, [turn(seq)]);
      if (durability === 'commit') {
        const { mark, last } = textIndexState(path);
        expect(last).toBe(turns);
        // Before: mark 0, every row left for close. Now at most the bound plus one step's worth is pending.
        expect(mark).toBeGreaterThan(0);
        expect((last - mark) * TURN_CHARS).toBeLessThanOrEqual(CATCH_UP_HELD_CHARS + 2 * TURN_CHARS);
      }
      expect((await store.searchText('s', `marker-${turns - 1}q`, 5)).map((hit) => hit.seq)).toEqual([turns - 1]);
      expect((await store.searchText('s', 'marker-3q', 5)).map((hit) => hit.seq)).toEqual([3]);
      await store.close();
      expect(textIndexState(path)).toEqual({ mark: turns, last: turns });
    },
  );

  it('catches up in steps of at least CATCH_UP_STEP_CHARS, not one small step per append', async () => {
    const store = createSqliteStore({ path, backgroundCheckpoint: false, durability: 'commit' });
    await store.openSession('s');
    const raw = new Database(path, { readonly: true });
    const mark = raw.prepare('SELECT row FROM text_index_mark WHERE id = 1').pluck();
    const turns = Math.ceil((2 * CATCH_UP_HELD_CHARS) / TURN_CHARS);
    const advances: number[] = [];
    try {
      for (let seq = 0, last = 0; seq < turns; seq++) {
        await store.append('s', seq, [turn(seq)]);
        const now = mark.get() as number;
        if (now !== last) advances.push(now - last);
        last = now;
      }
    } finally {
      raw.close();
      await store.close();
    }
    // Each step is one FTS5 segment to flush and merge: before, one of an idle step's 16 KB every append.
    expect(advances.length).toBeGreaterThan(0);
    for (const rows of advances) expect(rows * TURN_CHARS).toBeGreaterThanOrEqual(CATCH_UP_STEP_CHARS);
  });
});
