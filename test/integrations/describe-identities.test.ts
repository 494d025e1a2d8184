/**
 * `describe` through the stores' identity reads (`handleIdentities`, `chainHandleIdentities`) answers byte for byte
 * what it answered through whole handles and records read one at a time (a store without those reads), on a ledger
 * with many records and a long spill checkpoint chain, for the memory, SQLite and PostgreSQL stores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handleIdentity, mergeHandles } from '../../src/handles/handle-sets.js';
import { describeRecord } from '../../src/integrations/drill-down.js';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { loadChainHandles } from '../../src/model/checkpoints.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { HandleIdentity, LedgerStore } from '../../src/stores/store.js';
import type { CompactionRecord } from '../../src/types.js';
import { PG_URL, describePostgres, dropSchema, uniqueSchema } from '../stores/postgres-env.js';

const SESSION = 'described';

/** The same store without the identity reads: describe then reads whole handles and records, as before them. */
function withoutIdentityReads(store: LedgerStore): LedgerStore {
  return { ...store, handleIdentities: undefined, chainHandleIdentities: undefined };
}

/** Handles by kind as describe counted them before the identity reads: over the merged list, in its order. */
async function mergedCountsByKind(store: LedgerStore, record: CompactionRecord): Promise<string> {
  const chain = await loadChainHandles(record.checkpointId, (id) => store.record(SESSION, id));
  const counts: Record<string, number> = {};
  for (const handle of mergeHandles(record.handles, chain)) counts[handle.kind] = (counts[handle.kind] ?? 0) + 1;
  return JSON.stringify(counts);
}

/** A session of many compactions (a small handle budget spills a checkpoint each time), plus a record that drops. */
async function manyRecords(store: LedgerStore): Promise<CompactionRecord[]> {
  const ledger = createLedger({ store, now: () => new Date('2026-11-12T10:00:00Z') });
  const session = await ledger.session(SESSION, {
    window: { maxTokens: 1500, handleBudgetTokens: 40, summaryBudgetTokens: 100 },
  });
  for (let index = 0; index < 90; index++) {
    await session.append({
      role: index % 3 === 0 ? 'user' : 'assistant',
      content:
        `Step ${index}: check worker_pool_${index % 17} on port ${40000 + index} in café-zone-${index % 5} 🚀 ` +
        `then set RETRY_LIMIT=${index % 9} and read /srv/app/v${index % 4}/config.yaml.`,
    });
    if (index % 10 === 9) await session.render();
  }
  const records = await store.records(SESSION);
  const last = records[records.length - 1] as CompactionRecord;
  // A summary that carries one handle of each kind, newest first, and no checkpoint: most of its range's handles are
  // dropped, and its kinds are counted in the order of their first handle, not of the record's list.
  const firstOfKind = new Map(last.handles.map((handle) => [handle.kind, handle]));
  const newestFirst = [...firstOfKind.values()].sort((a, b) => b.seq - a.seq || b.start - a.start);
  expect(newestFirst.length).toBeGreaterThan(2);
  const narrow = { ...last, ordinal: last.ordinal + 1, handles: newestFirst, checkpointId: undefined };
  const written = { ...narrow, id: recordId('rec', recordIdContent(narrow)) };
  await store.writeRecord(written);
  return [...records, written];
}

/** Checks every record's description and both identity reads against the whole-object reads. */
async function expectSameAnswers(store: LedgerStore): Promise<void> {
  const records = await manyRecords(store);
  const heads = records.filter((record) => record.checkpointId !== undefined);
  expect(heads.length).toBeGreaterThan(3);
  let dropped = 0;
  for (const record of records) {
    const fast = await describeRecord(store, SESSION, record.id);
    const plain = await describeRecord(withoutIdentityReads(store), SESSION, record.id);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(plain));
    expect(JSON.stringify(fast.handlesByKind)).toBe(await mergedCountsByKind(store, record));
    dropped += fast.dropped.count;
  }
  expect(dropped).toBeGreaterThan(0);
  const range = { fromSeq: 3, toSeq: 70 };
  const handles = await store.handles(SESSION, range);
  expect(await store.handleIdentities?.(SESSION, range)).toEqual(
    handles.map(({ kind, text, seq, start }) => ({ kind, text, seq, start })),
  );
  const sorted = (list: readonly HandleIdentity[]) =>
    list
      .map(({ kind, text, seq, start }) => ({ kind, text, seq, start }))
      .sort((a, b) => (handleIdentity(a) < handleIdentity(b) ? -1 : 1));
  for (const head of heads) {
    const headId = head.checkpointId as string;
    const chain = await loadChainHandles(headId, (id) => store.record(SESSION, id));
    expect(sorted((await store.chainHandleIdentities?.(SESSION, headId)) ?? [])).toEqual(sorted(chain));
  }
  // A head that is not a checkpoint, or not there, carries nothing.
  expect(await store.chainHandleIdentities?.(SESSION, heads[0]?.id as string)).toEqual([]);
  expect(await store.chainHandleIdentities?.(SESSION, 'chk_missing')).toEqual([]);
}

describe('describe through identity reads', () => {
  it('answers the same in the memory store', async () => {
    await expectSameAnswers(createMemoryStore());
  });

  it('answers the same in the SQLite store, and after reopening it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'context-ledger-describe-'));
    const path = join(directory, 'ledger.db');
    try {
      const store = createSqliteStore({ path });
      await expectSameAnswers(store);
      await store.close();
      // A fresh connection holds no recent writes: every span text is read from the file.
      const reopened = createSqliteStore({ path, readonly: true });
      for (const record of await reopened.records(SESSION)) {
        const fast = await describeRecord(reopened, SESSION, record.id);
        const plain = await describeRecord(withoutIdentityReads(reopened), SESSION, record.id);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(plain));
      }
      await reopened.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describePostgres('describe through identity reads (postgres)', () => {
  it('answers the same in the PostgreSQL store', async () => {
    const schema = uniqueSchema('describe');
    const store = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 3 });
    try {
      await expectSameAnswers(store);
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  });
});
