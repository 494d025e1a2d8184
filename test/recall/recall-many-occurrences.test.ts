/**
 * Recall of a handle the session mentions more than 150,000 times: it answers with a bounded page, the count of all
 * mentions and a cursor, on every store. Before pages, `found.push(...handles)` threw `RangeError: Maximum call stack
 * size exceeded` past ~100,000 handles (issue 34, item 6).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { handleKey } from '../../src/handles/normalize.js';
import { recall } from '../../src/recall/recall.js';
import { createSpan } from '../../src/model/span.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { AppendEntry, LedgerStore } from '../../src/stores/store.js';
import { describePostgres, dropSchema, PG_URL, uniqueSchema } from '../stores/postgres-env.js';

const HANDLE = 'eu-west-2b';
const PER_SPAN = 4_000;
const SPANS = 40;

/** `SPANS` occurrences of one tool result naming `HANDLE` `PER_SPAN` times: 160,000 handles under one key. */
function manyMentions(): AppendEntry[] {
  const text = `${HANDLE} `.repeat(PER_SPAN);
  const span = createSpan({ kind: 'tool-result', text, toolName: 'bash', toolCallId: 'call_1', tokens: PER_SPAN * 4 });
  const handles = Array.from({ length: PER_SPAN }, (_, index) => ({
    kind: 'identifier' as const,
    text: HANDLE,
    key: handleKey('identifier', HANDLE),
    start: index * (HANDLE.length + 1),
    end: index * (HANDLE.length + 1) + HANDLE.length,
    spanId: span.id,
    role: 'tool' as const,
    tokens: 4,
  }));
  return Array.from({ length: SPANS }, (_, seq) => ({
    span,
    role: 'tool' as const,
    byteStart: seq * text.length,
    byteEnd: (seq + 1) * text.length,
    handles,
  }));
}

async function filled(store: LedgerStore): Promise<LedgerStore> {
  await store.openSession('s');
  const entries = manyMentions();
  for (let seq = 0; seq < entries.length; seq += 10) await store.append('s', seq, entries.slice(seq, seq + 10));
  return store;
}

function checks(open: () => Promise<LedgerStore>): void {
  it('answers a bounded page with the count of all mentions and a cursor', async () => {
    const store = await filled(await open());
    const first = await recall({ store, sessionId: 's', records: [], limit: 10 }, HANDLE);
    expect(first.status).toBe('verified');
    expect(first.results.map((hit) => hit.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(first.total).toBe(SPANS * PER_SPAN);
    expect(first.nextCursor).toBeDefined();
    expect(first.note).toContain(first.nextCursor as string);
  });

  it('pages on without duplicates or gaps, and the last page has no cursor', async () => {
    const store = await open();
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await recall({ store, sessionId: 's', records: [], limit: 7, cursor }, HANDLE);
      seen.push(...page.results.map((hit) => hit.seq));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 20);
    expect(seen).toEqual(Array.from({ length: SPANS }, (_, seq) => seq));
    expect(pages).toBe(Math.ceil(SPANS / 7));
  });

  it('reads a key a page at a time from the store', async () => {
    const store = await open();
    const page = await store.findHandles('s', handleKey('identifier', HANDLE), { fromSeq: 3, limit: 5 });
    expect(page.map((handle) => [handle.seq, handle.start])).toEqual([
      [3, 0],
      [3, 11],
      [3, 22],
      [3, 33],
      [3, 44],
    ]);
  });

  it('refuses a cursor of another view', async () => {
    const store = await open();
    await expect(
      recall({ store, sessionId: 's', records: [], cursor: 'handles:all:3:0' }, HANDLE),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
}

describe('recall of a handle mentioned 160,000 times: memory', () => {
  const store = createMemoryStore();
  checks(async () => store);
});

describe('recall of a handle mentioned 160,000 times: SQLite', () => {
  const store = createSqliteStore({ path: ':memory:' });
  afterAll(() => store.close());
  checks(async () => store);
});

describePostgres('recall of a handle mentioned 160,000 times: PostgreSQL', () => {
  const schema = uniqueSchema('many');
  let store: LedgerStore | undefined;
  afterAll(async () => {
    await store?.close();
    await dropSchema(schema);
  });
  checks(async () => (store ??= await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 })));
});
