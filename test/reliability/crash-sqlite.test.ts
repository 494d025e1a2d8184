/**
 * Crash test, SQLite: 50 worker processes appending and rendering (compacting) are SIGKILLed
 * at random moments; after each, the reopened ledger holds every acknowledged append, gapless
 * seqs, whole batches and records, and replays the window a reopened session shows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { crashScenario } from './crash-scenario.js';

const directory = mkdtempSync(join(tmpdir(), 'context-ledger-crash-'));
const path = join(directory, 'ledger.db');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('survives 50 SIGKILLs of a writer without losing or half-writing anything', async () => {
  const result = await crashScenario(
    {
      spec: `sqlite:${path}`,
      open: async () => createSqliteStore({ path }),
      rawRecordJson: async (sessionId) => {
        const raw = new Database(path, { readonly: true });
        try {
          return raw
            .prepare(
              // A delta row (records stored as deltas) keeps its content in `delta` against `base_id`: it must have both.
              // A packed snapshot (schema 11) keeps it in `delta` with no base: it must not be empty.
              `SELECT CASE WHEN delta IS NULL THEN json
                WHEN base_id IS NOT NULL AND length(delta) > 0 THEN '{"delta":true}'
                WHEN base_id IS NULL AND length(delta) > 0 THEN '{"packed":true}' ELSE '' END
               FROM records WHERE session_id = ? ORDER BY ordinal`,
            )
            .pluck()
            .all(sessionId) as string[];
        } finally {
          raw.close();
        }
      },
    },
    50,
    { parallel: 5, maxDelayMs: 300 },
  );
  console.info(`[crash sqlite] ${JSON.stringify(result)}`);
  expect(result.kills).toBe(50);
}, 120_000);
