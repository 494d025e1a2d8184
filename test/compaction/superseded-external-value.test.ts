/**
 * A value only an agent's own summary held (an external record's handle: no stored original, seq -1) that a later
 * binding replaces: the next compaction records no `superseded` entry for it (there is no seq to name) and writes
 * its record. Found replaying a real Claude Code session at 8,000 tokens: the record was refused with
 * "field superseded[0] .seq must be a whole number ≥ 0, got -1" and the replay stopped.
 */
import { describe, expect, it } from 'vitest';
import { supersededValues } from '../../src/compaction/compaction-records.js';
import { UNRESOLVED_SPAN } from '../../src/types.js';
import type { Handle } from '../../src/types.js';
import { fillerTurns, memoryLedger } from '../helpers.js';

const CLAUDE = { name: 'claude-code', version: '2.1.39' };

function handle(text: string, spanId: string, seq: number): Handle {
  return { text, kind: 'assignment', spanId, seq, start: 0, end: text.length, role: 'user', tokens: 4 } as Handle;
}

describe('a superseded value only an external summary held', () => {
  it('is not listed as superseded, as the old value or as the new one', () => {
    const span = 'sha256:' + 'ab'.repeat(32);
    const fromSummary = handle('DB_HOST=db-ro-3', UNRESOLVED_SPAN, -1);
    const stored = handle('DB_HOST=db-ro-10', span, 12);
    const older = handle('DB_PORT=5432', span, 2);
    const newer = handle('DB_PORT=6432', UNRESOLVED_SPAN, -1);
    const listed = supersededValues(
      [fromSummary, older],
      new Map([
        [fromSummary, stored],
        [older, newer],
      ]),
    );
    expect(listed).toEqual([]);
    const kept = supersededValues([older], new Map([[older, stored]]));
    expect(kept).toEqual([{ handle: 'DB_PORT=5432', seq: 2, by: 'DB_HOST=db-ro-10', bySpan: span, bySeq: 12 }]);
  });

  it('does not stop the next compaction', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('rebound', { window: { maxTokens: 1500, compactAt: 0.8 } });
    await session.append([{ role: 'user', content: 'Start the payments checks.' }, ...fillerTurns(2)]);
    await session.importExternalSummary({
      summary: 'The checks ran against the replica. The replica is DB_HOST=db-ro-3 and the pool is POOL_SIZE=44.',
      summarizer: CLAUDE,
    });
    await session.append([{ role: 'user', content: 'We moved: DB_HOST=db-ro-10 now, and POOL_SIZE=79.' }]);
    for (let round = 2; round < 14; round++) {
      await session.append(fillerTurns(1, round));
      await session.render();
    }
    const records = session.records();
    expect(records.filter((record) => record.type === 'summary').length).toBeGreaterThan(0);
    for (const record of records)
      for (const value of record.superseded ?? []) expect(value.seq, value.handle).toBeGreaterThanOrEqual(0);
  });
});
