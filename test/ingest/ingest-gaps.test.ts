/**
 * A transcript line the ledger could not ingest is a gap: recall never says a detail "was never said" while the
 * session holds a note about a skipped line, on every store. Replay with --skip-invalid leaves such notes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { INGEST_GAP_MARK, ingestGapMessage } from '../../src/ingest/ingest-gaps.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { createApproximateCounter } from '../../src/tokens/token-counter.js';
import { PG_URL, describePostgres, dropSchema, uniqueSchema } from '../stores/postgres-env.js';

const directory = mkdtempSync(join(tmpdir(), 'cl-ingest-gaps-'));
const schemas: string[] = [];
afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
  for (const schema of schemas) await dropSchema(schema);
});

async function recallsAGap(store: LedgerStore): Promise<void> {
  const ledger = createLedger({ store, tokenCounter: createApproximateCounter() });
  try {
    const session = await ledger.session('gaps');
    await session.append([
      { role: 'user', content: 'Deploy the payments service today.' },
      { role: 'assistant', content: 'Starting the deploy.' },
    ]);
    const before = await session.recall('db-2.inventory.internal');
    expect(before.status).toBe('unverified');
    expect(before.note).toMatch(/never said/);
    await session.append(ingestGapMessage('/work/s.jsonl:3', 'not valid UTF-8 (bytes FF FE at byte 40 of the line)'));
    const after = await session.recall('db-2.inventory.internal');
    expect(after.status).toBe('gap');
    expect(after.note).not.toMatch(/never said/);
    expect(after.note).toContain('/work/s.jsonl:3 was not ingested (not valid UTF-8');
    expect(after.gap).toMatchObject({ type: 'ingest', originalsStored: false, droppedRange: { fromSeq: 2, toSeq: 2 } });
  } finally {
    await ledger.close();
  }
}

describe('ingest gaps', () => {
  it('memory store: recall reports a gap, not "never said", once a line was skipped', async () => {
    await recallsAGap(createMemoryStore());
  });

  it('SQLite store: the same', async () => {
    await recallsAGap(createSqliteStore({ path: join(directory, 'gaps.db') }));
  });

  it('a user who types the mark does not make a gap (only the ledger writes notes, as system messages)', async () => {
    const ledger = createLedger({ store: createMemoryStore(), tokenCounter: createApproximateCounter() });
    const session = await ledger.session('typed');
    await session.append({ role: 'user', content: `${INGEST_GAP_MARK} is a funny word` });
    expect((await session.recall('db-2.inventory.internal')).status).toBe('unverified');
    await ledger.close();
  });

  it('replay --skip-invalid leaves a note for each skipped line, and recall then reports a gap', async () => {
    const cli = join(process.cwd(), 'dist/cli/main.js');
    const transcript = join(directory, 'bad.jsonl');
    await writeFile(
      transcript,
      Buffer.concat([
        Buffer.from('{"role":"user","content":"Deploy today."}\n{"role":"user","content":"use '),
        Buffer.from([0xff]),
        Buffer.from(' db-2.inventory.internal"}\n{"role":"assistant","content":"On it."}\n'),
      ]),
    );
    const store = `sqlite:${join(directory, 'replayed.db')}`;
    const run = promisify(execFile);
    await run('node', [cli, 'replay', transcript, '--store', store, '--session', 'r', '--skip-invalid', '--json']);
    const { stdout } = await run('node', [
      cli,
      'recall',
      'db-2.inventory.internal',
      '--store',
      store,
      '--session',
      'r',
      '--json',
    ]);
    const result = JSON.parse(stdout) as { status: string; note: string };
    expect(result.status).toBe('gap');
    expect(result.note).toContain(`${transcript}:2 was not ingested (not valid UTF-8`);
  });
});

describePostgres('ingest gaps on PostgreSQL', () => {
  it('recall reports a gap, not "never said", once a line was skipped', async () => {
    const schema = uniqueSchema('ingest_gaps');
    schemas.push(schema);
    await recallsAGap(await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 }));
  });
});
