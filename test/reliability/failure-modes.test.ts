/**
 * Failure modes: a read-only database, a full disk, a connection dropped mid-batch. Each
 * fails with a typed error naming the store and the operation, loses nothing acknowledged,
 * and (where the store stays open) the next call works.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StoreOperationError, StoreUnavailableError } from '../../src/errors.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { entry, expectLedgerError, sampleEntries } from '../stores/fixtures.js';
import { PG_URL, describePostgres, dropSchema, rawClient, uniqueSchema } from '../stores/postgres-env.js';
import { checkSession } from './ledger-checks.js';
import { WORKERS, parseAcks, requireBuild } from './workers.js';

const directory = mkdtempSync(join(tmpdir(), 'context-ledger-failure-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs a worker with the file size limit `blocks` (1 KiB each) and SIGXFSZ ignored, so writes past it fail with EFBIG. */
function runFileLimited(script: string, config: object, blocks: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const command = `trap '' XFSZ; ulimit -f ${blocks}; exec "${process.execPath}" "${join(WORKERS, script)}" '${JSON.stringify(config)}'`;
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(output.split('\n').filter((line) => line.length > 0)));
  });
}

describe('SQLite', () => {
  it('read-only: append fails naming store and operation, nothing is lost', async () => {
    const path = join(directory, 'readonly.db');
    const writer = createSqliteStore({ path });
    await writer.openSession('s1');
    await writer.append('s1', 0, sampleEntries());
    await writer.close();
    const reader = createSqliteStore({ path, readonly: true });
    await expectLedgerError(
      reader.append('s1', 3, [entry('user', 'not written')]),
      StoreOperationError,
      'STORE_OPERATION',
      [`sqlite:${path}`, 'append to session s1', /read-only/],
    );
    expect(await reader.nextSeq('s1')).toBe(3);
    expect((await reader.occurrences('s1')).map((occurrence) => occurrence.span.text)).toEqual(
      sampleEntries().map((item) => item.span.text),
    );
    await reader.close();
  });

  it('disk full: the append that does not fit fails typed, earlier appends stay intact and readable', async () => {
    requireBuild();
    const path = join(directory, 'full.db');
    const lines = await runFileLimited('fill-disk.mjs', { store: `sqlite:${path}`, session: 'fill' }, 1500);
    const acks = parseAcks(lines);
    const failure = lines.find((line) => line.startsWith('error '));
    expect(acks.length, lines.join('\n')).toBeGreaterThan(3);
    expect(failure, lines.join('\n')).toBeDefined();
    const error = JSON.parse(failure!.slice('error '.length)) as { code: string; message: string };
    expect(error.code).toBe('STORE_OPERATION');
    expect(error.message).toContain(`sqlite:${path}: append to session fill failed`);
    expect(error.message).toMatch(/disk|full|I\/O/i);
    expect(lines.at(-1)).toBe(`read ${acks.at(-1)!.lastSeq + 1}`);
    const store = createSqliteStore({ path });
    try {
      await checkSession(store, 'fill', acks);
      expect(await store.nextSeq('fill')).toBe(acks.at(-1)!.lastSeq + 1);
    } finally {
      await store.close();
    }
  }, 60_000);
});

describePostgres('PostgreSQL', () => {
  const schema = uniqueSchema('failure');
  let store: LedgerStore | undefined;
  afterEach(async () => store?.close());
  afterAll(() => dropSchema(schema));

  /** A connection string whose connections this test alone can find (and kill) by application name. */
  function tagged(name: string): string {
    const url = new URL(PG_URL);
    url.searchParams.set('application_name', `${name}-${process.pid}`);
    return url.toString();
  }

  async function waitingAppend(name: string): Promise<number | undefined> {
    const raw = await rawClient();
    try {
      const result = await raw.query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE '%append_batch%' AND wait_event_type = 'Lock'",
        [`${name}-${process.pid}`],
      );
      return (result.rows[0] as { pid: number } | undefined)?.pid;
    } finally {
      await raw.end();
    }
  }

  it('connection killed mid-batch: typed error, nothing acknowledged lost, the pool reconnects', async () => {
    store = await createPostgresStore({ connectionString: tagged('cl-mid-batch'), schema, maxConnections: 1 });
    await store.openSession('s1');
    await store.append('s1', 0, sampleEntries());
    const blocker = await rawClient();
    await blocker.query('BEGIN');
    await blocker.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [schema, 's1']);
    const pending = store.append('s1', 3, [
      entry('user', 'caught mid-batch with eu-west-9q', [{ kind: 'identifier', text: 'eu-west-9q' }]),
    ]);
    pending.catch(() => undefined);
    let pid: number | undefined;
    for (let attempt = 0; attempt < 100 && pid === undefined; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      pid = await waitingAppend('cl-mid-batch');
    }
    expect(pid, 'the append is waiting for the session lock').toBeDefined();
    await blocker.query('SELECT pg_terminate_backend($1)', [pid]);
    await expectLedgerError(pending, StoreUnavailableError, 'STORE_UNAVAILABLE', [
      store.location,
      'append to session s1',
      /connection/,
      /re-read/,
    ]);
    await blocker.query('ROLLBACK');
    await blocker.end();
    expect(await store.nextSeq('s1')).toBe(3);
    expect(await store.findHandles('s1', 'eu-west-9q')).toEqual([]);
    const [written] = await store.append('s1', 3, [entry('user', 'after the reconnect')]);
    expect(written!.seq).toBe(3);
    expect((await store.occurrences('s1')).map((occurrence) => occurrence.seq)).toEqual([0, 1, 2, 3]);
  }, 30_000);

  it('connection killed while idle: the next calls work on a new connection', async () => {
    store = await createPostgresStore({ connectionString: tagged('cl-idle'), schema, maxConnections: 1 });
    await store.openSession('s2');
    await store.append('s2', 0, sampleEntries());
    const raw = await rawClient();
    const killed = await raw.query(
      'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1',
      [`cl-idle-${process.pid}`],
    );
    expect(killed.rows).toEqual([{ done: true }]);
    await raw.end();
    expect(await store.nextSeq('s2')).toBe(3);
    const outcome = await store.append('s2', 3, [entry('user', 'after an idle kill')]).then(
      () => 'written',
      (error: unknown) => (StoreUnavailableError.isInstance(error) ? 'refused' : error),
    );
    expect(['written', 'refused']).toContain(outcome);
    const next = await store.nextSeq('s2');
    expect(next).toBe(outcome === 'written' ? 4 : 3);
    await store.append('s2', next, [entry('user', 'and then once more')]);
    expect(await store.nextSeq('s2')).toBe(next + 1);
  }, 30_000);

  it('read-only database: append fails naming store and operation, nothing is lost', async () => {
    await (await createPostgresStore({ connectionString: PG_URL, schema })).close();
    const writer = await createPostgresStore({ connectionString: PG_URL, schema });
    await writer.openSession('ro');
    await writer.append('ro', 0, sampleEntries());
    await writer.close();
    const url = new URL(PG_URL);
    url.searchParams.set('options', '-c default_transaction_read_only=on');
    store = await createPostgresStore({ connectionString: url.toString(), schema });
    await expectLedgerError(
      store.append('ro', 3, [entry('user', 'not written')]),
      StoreOperationError,
      'STORE_OPERATION',
      [store.location, 'append to session ro', /read-only/],
    );
    expect(await store.nextSeq('ro')).toBe(3);
  });
});
