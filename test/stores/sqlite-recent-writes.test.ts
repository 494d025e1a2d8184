/**
 * What a SQLite store holds of its own committed appends (`recent-writes.ts`, `recent-entries.ts`, the deferred text
 * index's held texts): reads served from it give exactly what the database gives, and the text index built from held
 * texts equals one built from the rows, also when another connection appends between them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecentEntries } from '../../src/stores/recent-entries.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { entry } from './fixtures.js';

describe('RecentEntries', () => {
  it('holds at most two generations of its capacity, and a read moves an old entry to the current one', () => {
    const recent = new RecentEntries<string, string>((text) => text.length, 10);
    recent.set('a', 'aaaa');
    recent.set('b', 'bbbb');
    expect(recent.get('a')).toBe('aaaa');
    recent.set('c', 'cccc'); // 12 > 10: a and b become the old generation
    expect(recent.get('a')).toBe('aaaa'); // moved to the current generation (c, a)
    recent.set('d', 'dddd'); // 12 > 10: c and a become the old generation, b is let go
    expect(recent.get('b')).toBeUndefined();
    expect(recent.get('c')).toBe('cccc');
    expect(recent.get('a')).toBe('aaaa');
    recent.clear();
    expect(recent.get('a')).toBeUndefined();
  });
});

describe('SQLite store: reads of what it appended lately', () => {
  let directory: string;
  let file: string;
  const opened: LedgerStore[] = [];
  const open = () => {
    const store = createSqliteStore({ path: file, backgroundCheckpoint: false });
    opened.push(store);
    return store;
  };

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'cl-recent-writes-'));
    file = join(directory, 'ledger.db');
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close().catch(() => undefined);
    rmSync(directory, { recursive: true, force: true });
  });

  const texts = [
    'Run the tests in src/app/main.ts before you push to origin/main, please.',
    'tool output: FAILED test_parse (tests/test_parse.py:41) AssertionError '.repeat(8),
    'Done: the fix is in src/app/main.ts at line 12; PORT=8080 stays.',
  ];
  const entries = () => [
    entry('user', texts[0] as string, [{ kind: 'path', text: 'src/app/main.ts' }]),
    entry('tool-result', texts[1] as string, [{ kind: 'path', text: 'tests/test_parse.py' }], {
      toolName: 'bash',
      toolCallId: 'call_1',
    }),
    entry('assistant', texts[2] as string, [
      { kind: 'path', text: 'src/app/main.ts' },
      { kind: 'assignment', text: 'PORT=8080', key: 'port' },
    ]),
  ];

  it('gives back the very spans it appended, equal to what a new connection reads from the file', async () => {
    const store = open();
    await store.openSession('s');
    const written = await store.append('s', 0, entries());
    const ids = written.map((occurrence) => occurrence.spanId);
    const spans = await store.spans('s', ids);
    // The same objects: served from what the append committed, not read and unpacked again.
    spans.forEach((span, index) => expect(span).toBe(written[index]?.span));
    const reader = createSqliteStore({ path: file, readonly: true });
    opened.push(reader);
    const fromFile = await reader.spans('s', ids);
    expect(JSON.stringify(spans)).toBe(JSON.stringify(fromFile));
    // Another session holds none of them: the held spans are the session's own.
    await store.openSession('other');
    expect(await store.spans('other', ids)).toEqual([]);
  });

  it('rebuilds handles from held occurrences exactly as from the file', async () => {
    const store = open();
    await store.openSession('s', { tenantId: 'acme' });
    await store.append('s', 0, entries());
    const held = await store.handles('s', { fromSeq: 0, toSeq: 2 });
    expect(held.length).toBe(4);
    const reader = createSqliteStore({ path: file, readonly: true });
    opened.push(reader);
    expect(JSON.stringify(held)).toBe(JSON.stringify(await reader.handles('s', { fromSeq: 0, toSeq: 2 })));
  });

  it('indexes held texts as the rows give them, when another connection appends in between', async () => {
    const first = open();
    const second = open();
    await first.openSession('a');
    await second.openSession('b');
    let nextA = 0;
    let nextB = 0;
    for (let round = 0; round < 6; round++) {
      const mine = entries().map((item, index) => ({ ...item, byteStart: round * 10 + index }));
      await first.append('a', nextA, mine);
      nextA += mine.length;
      await second.append('b', nextB, [entry('user', `second connection round ${round}: zebra-${round}`)]);
      nextB += 1;
    }
    // The first connection indexes its own held texts and the second's rows read from the file.
    const zebras = await first.searchText('b', 'zebra', 20);
    expect(zebras.map((hit) => hit.seq).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5]);
    const failed = await first.searchText('a', 'test_parse', 50);
    expect(failed.length).toBe(6);
    const fromSecond = await second.searchText('a', 'PORT=8080', 50);
    expect(fromSecond.map((hit) => hit.seq).sort((x, y) => x - y)).toEqual([2, 5, 8, 11, 14, 17]);
  });
});
