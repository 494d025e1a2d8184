/**
 * Concurrency: 4 worker processes append to 4 sessions of one store while 2 more contend for
 * one session. Nothing is lost or duplicated, seqs stay gapless per session, and the
 * contenders see SequenceConflictError (never a silent interleave). SQLite and PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { PG_URL, describePostgres, dropSchema, uniqueSchema } from '../stores/postgres-env.js';
import { checkSession } from './ledger-checks.js';
import { requireBuild, runWorker } from './workers.js';

const BATCHES = 25;
/** More attempts for the two contenders, so that they collide in practice on any scheduler. */
const CONTENDER_BATCHES = 60;

async function contend(spec: string, open: () => Promise<LedgerStore>): Promise<void> {
  requireBuild();
  const solo = ['solo-0', 'solo-1', 'solo-2', 'solo-3'];
  const runs = [
    ...solo.map((session, index) => ({ session, run: `w${index}`, maxBatches: BATCHES })),
    { session: 'shared', run: 'a', maxBatches: CONTENDER_BATCHES, contend: true },
    { session: 'shared', run: 'b', maxBatches: CONTENDER_BATCHES, contend: true },
  ];
  const outcomes = await Promise.all(
    runs.map((run) => runWorker('append-loop.mjs', { store: spec, ...run }, { timeoutMs: 50_000 })),
  );
  outcomes.forEach((outcome, index) => expect(outcome.code, `worker ${index} failed: ${outcome.stderr}`).toBe(0));
  const conflicts = outcomes
    .slice(4)
    .reduce(
      (sum, outcome) =>
        sum + outcome.lines.filter((line) => line.startsWith('conflict') && line.endsWith(' append')).length,
      0,
    );
  const store = await open();
  try {
    for (const [index, session] of solo.entries()) {
      const checked = await checkSession(store, session, outcomes[index]!.acks);
      expect(checked.batches, `${session}: every batch once`).toBe(BATCHES);
    }
    const sharedAcks = [...outcomes[4]!.acks, ...outcomes[5]!.acks];
    const checked = await checkSession(store, 'shared', sharedAcks);
    expect(checked.batches, 'shared: exactly the acknowledged batches, none twice').toBe(sharedAcks.length);
    expect(new Set(sharedAcks.map((ack) => ack.firstSeq)).size, 'no two acknowledgements share a seq').toBe(
      sharedAcks.length,
    );
    expect(sharedAcks.length + conflicts, 'every attempt either landed or got SequenceConflictError').toBe(
      2 * CONTENDER_BATCHES,
    );
    expect(conflicts, 'the contenders collided at least once').toBeGreaterThan(0);
    console.info(
      `[concurrency ${store.kind}] shared: ${sharedAcks.length} batches landed, ${conflicts} appends refused with SequenceConflictError`,
    );
  } finally {
    await store.close();
  }
}

describe('concurrency: SQLite', () => {
  const directory = mkdtempSync(join(tmpdir(), 'context-ledger-concurrency-'));
  const path = join(directory, 'ledger.db');
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('6 processes, one file: no lost or duplicated spans, gapless seqs, conflicts reported', async () => {
    await contend(`sqlite:${path}`, async () => createSqliteStore({ path }));
  }, 60_000);
});

describePostgres('concurrency: PostgreSQL', () => {
  const schema = uniqueSchema('concurrency');
  afterAll(() => dropSchema(schema));

  it('6 processes, one database: no lost or duplicated spans, gapless seqs, conflicts reported', async () => {
    await (await createPostgresStore({ connectionString: PG_URL, schema })).close();
    await contend(`${PG_URL}?schema=${schema}`, () =>
      createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 }),
    );
  }, 60_000);
});
