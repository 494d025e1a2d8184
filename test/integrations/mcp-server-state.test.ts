import { describe, expect, it } from 'vitest';
import {
  newLedgerServerState,
  RecentRecordReads,
  SESSIONS_KEPT,
  SessionWriteQueues,
} from '../../src/integrations/mcp/server-state.js';
import type { Ledger } from '../../src/session/ledger.js';

/** A ledger whose store answers only what the read cache asks, counting the reads. */
function countingLedger(counts: Map<string, number>, reads: string[]): Ledger {
  const store = {
    recordCount: async (id: string) => counts.get(id) ?? 0,
    records: async (id: string) => {
      reads.push(id);
      return [];
    },
  };
  return { store } as unknown as Ledger;
}

describe('MCP server state', () => {
  it('runs the writes to one session one at a time, in order, going on after a failure', async () => {
    const queues = new SessionWriteQueues();
    const log: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = queues.run('a', async () => {
      log.push('a1 start');
      await gate;
      log.push('a1 end');
      throw new Error('a1 failed');
    });
    const second = queues.run('a', async () => {
      log.push('a2');
      return 2;
    });
    const other = queues.run('b', async () => {
      log.push('b1');
      return 1;
    });
    await other;
    expect(log).toEqual(['a1 start', 'b1']);
    release();
    await expect(first).rejects.toThrow('a1 failed');
    expect(await second).toBe(2);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('reads records again only when the count moved, and keeps the latest sessions read', async () => {
    const counts = new Map([['s0', 1]]);
    const reads: string[] = [];
    const recent = new RecentRecordReads(countingLedger(counts, reads));
    const first = await recent.read('s0');
    expect(await recent.read('s0')).toBe(first);
    counts.set('s0', 2);
    expect(await recent.read('s0')).not.toBe(first);
    expect(reads).toEqual(['s0', 's0']);
    for (let index = 1; index <= SESSIONS_KEPT; index++) await recent.read(`s${index}`);
    reads.length = 0;
    await recent.read('s0');
    await recent.read(`s${SESSIONS_KEPT}`);
    expect(reads).toEqual(['s0']);
  });

  it('is kept per server: two states over one ledger share no read', async () => {
    const reads: string[] = [];
    const ledger = countingLedger(new Map([['s', 1]]), reads);
    const [one, two] = [newLedgerServerState(ledger), newLedgerServerState(ledger)];
    await one.recordReads.read('s');
    await one.recordReads.read('s');
    await two.recordReads.read('s');
    expect(reads).toEqual(['s', 's']);
  });
});
