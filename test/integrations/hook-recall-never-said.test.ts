/**
 * Recall after Claude Code compacted (issue 38 item 4): the hook ingested every turn before the compaction, so the
 * external record of Claude Code's summary stands over stored originals and a miss is "never said" (with the closest
 * stored handles), not a gap that sends the model back to recall. A transcript that starts with a summary (history
 * from before the ledger began) is still a gap.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import { createLedger } from '../../src/session/ledger.js';
import type { Ledger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { claudeSession, jsonl } from './claude-code-fixture.js';
import type { ClaudeRecord } from './claude-code-fixture.js';

const directories: string[] = [];
const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const ledger of ledgers.splice(0)) await ledger.close();
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

/** Ingest `records` as the hook does and open the session. */
async function ingested(
  build: (fixture: ReturnType<typeof claudeSession>) => ClaudeRecord[],
  storeKind: 'memory' | 'sqlite' = 'memory',
) {
  const directory = await mkdtemp(join(tmpdir(), 'cl-hook-recall-'));
  directories.push(directory);
  const transcript = join(directory, 's.jsonl');
  await writeFile(transcript, jsonl(build(claudeSession('s', directory))));
  const store =
    storeKind === 'sqlite' ? createSqliteStore({ path: join(directory, 'ledger.db') }) : createMemoryStore();
  const ledger = createLedger({ store });
  ledgers.push(ledger);
  await ingestClaudeCodeTranscript({
    ledger,
    sessionId: 's',
    transcriptPath: transcript,
    stateFile: join(directory, 'state.json'),
    log: () => undefined,
  });
  const session = await ledger.session('s');
  const records = await ledger.store.records('s');
  return { session, records };
}

describe.each(['memory', 'sqlite'] as const)('recall after a Claude Code compaction the hook saw (%s)', (storeKind) => {
  it('a miss is "never said" with the closest stored handles, not a gap', async () => {
    const { session, records } = await ingested(
      (fixture) => [
        fixture.user('Deploy the payments service. Use DB_HOST=db-ro-3 and the bucket s3://payments-artifacts.'),
        fixture.assistant('Deploying with DB_HOST=db-ro-3; artifacts go to s3://payments-artifacts.'),
        fixture.boundary(),
        fixture.summary('The user asked for a payments deploy; the database host and artifact bucket were chosen.'),
        fixture.user('Carry on.'),
      ],
      storeKind,
    );
    const external = records.find((record) => record.type === 'external');
    expect(external).toBeDefined();
    const miss = await session.recall('zzz-never-said');
    expect(miss.status).toBe('unverified');
    expect(miss.gap).toBeNull();
    expect(miss.note).toMatch(/never said/);
    expect(miss.note).not.toMatch(/known gap/);
    expect(miss.closest?.length).toBeGreaterThan(0);
    const near = await session.recall('DB_HOST=db-ro-4');
    expect(near.note).toMatch(/never said/);
    expect(near.closest?.[0]?.text).toBe('DB_HOST=db-ro-3');
    expect((await session.recall('DB_HOST=db-ro-3')).status).toBe('verified');
  });

  it('a transcript that starts with a summary of older history keeps the gap', async () => {
    const { session, records } = await ingested(
      (fixture) => [
        fixture.boundary(),
        fixture.summary('Earlier the user chose a database host and an artifact bucket for the payments deploy.'),
        fixture.user('Carry on with the deploy.'),
      ],
      storeKind,
    );
    const external = records.find((record) => record.type === 'external');
    expect(external?.droppedRange.toSeq).toBeLessThan(external?.droppedRange.fromSeq ?? 0);
    const miss = await session.recall('zzz-never-said');
    expect(miss.status).toBe('gap');
    expect(miss.gap?.recordId).toBe(external?.id);
    expect(miss.note).not.toMatch(/never said/);
    expect(miss.note).not.toMatch(/\brecall\b/i);
  });
});
