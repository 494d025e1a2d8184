import { describe, expect, it } from 'vitest';
import { SUMMARIES_KEPT, CheckpointChains, summarizeCheckpoint } from '../../src/model/checkpoints.js';
import { InvalidInputError } from '../../src/errors.js';
import { SessionRecords } from '../../src/session/session-records.js';
import type { CompactionRecord, Handle } from '../../src/types.js';
import { sampleRecord } from '../stores/fixtures.js';

function handle(text: string, seq: number, role: Handle['role'] = 'assistant'): Handle {
  return {
    kind: 'identifier',
    text,
    key: text.toLowerCase(),
    start: 0,
    end: text.length,
    spanId: 'sha256:' + 'c'.repeat(64),
    seq,
    role,
    tokens: 2,
  };
}

/** A session's records as compaction writes them: each round a checkpoint, then the summary naming it as head. */
function history(rounds: number): CompactionRecord[] {
  const records: CompactionRecord[] = [];
  for (let round = 0; round < rounds; round++) {
    const checkpoint = sampleRecord('s', {
      id: `chk_${round}`,
      ordinal: 2 * round,
      type: 'checkpoint',
      summary: '',
      claims: [],
      handles: [handle(`spilled-${round}`, round), handle('shared', 100 - round)],
      ancestors: round === 0 ? [] : [`chk_${round - 1}`],
      checkpointId: undefined,
      findings: [],
      reversible: true,
    });
    const summary = sampleRecord('s', {
      id: `rec_${round}`,
      ordinal: 2 * round + 1,
      handles: [handle(`kept-${round}`, round), handle('shared', 200)],
      ancestors: round === 0 ? [] : [`rec_${round - 1}`],
      checkpointId: checkpoint.id,
      findings: [],
      reversible: true,
    });
    records.push(checkpoint, summary);
  }
  return records;
}

describe('SessionRecords with a held limit', () => {
  it('releases old checkpoints too, keeps the head and the window counts, and reads the index back exactly', async () => {
    const records = history(30);
    const all = new SessionRecords('s', records);
    const held = new SessionRecords('s', records, 2);
    const heldCheckpoints = held.heldRecords.filter((record) => record.type === 'checkpoint');
    expect(heldCheckpoints.length).toBeLessThanOrEqual(4);
    expect(held.find('chk_29')).toBeDefined();
    expect(held.find('chk_0')).toBeUndefined();
    expect(held.complete).toBe(false);
    expect(held.count).toBe(records.length);
    expect(held.checkpointSummary('chk_29')).toEqual(summarizeCheckpoint(records, 'chk_29'));

    expect(() => held.handleIndex()).toThrow(InvalidInputError);
    expect(() => held.handleIndex()).toThrow(/Session s: .*spill checkpoints were released.*loadHandleIndex/);
    const byId = new Map(records.map((record) => [record.id, record]));
    const read: string[] = [];
    const loaded = await held.loadHandleIndex((id) => {
      read.push(id);
      return Promise.resolve(byId.get(id));
    });
    expect(loaded).toEqual(all.handleIndex());
    expect(loaded.map((item) => item.text)).toContain('spilled-0');
    // Only the released checkpoints come from the store; the held ones are not read again.
    expect(read).not.toContain('chk_29');
    expect(read).toContain('chk_0');
  });

  it('gives the same index from loadHandleIndex as from handleIndex when every record is held', async () => {
    const all = new SessionRecords('s', history(12));
    const loaded = await all.loadHandleIndex(() => Promise.reject(new Error('nothing is read from the store')));
    expect(loaded).toEqual(all.handleIndex());
    expect(loaded.length).toBeGreaterThan(12);
  });

  it('never releases the checkpoint head of the active record', () => {
    const held = new SessionRecords('s', history(1), 1);
    // Checkpoints written after the active record's head (left by interrupted compactions) are released first.
    for (const record of history(20).filter((item) => item.type === 'checkpoint'))
      held.add({ ...record, id: `orphan_${record.id}`, ancestors: [] });
    expect(held.find('chk_0')).toBeDefined();
    expect(held.find('orphan_chk_19')).toBeDefined();
    expect(held.heldRecords.filter((record) => record.type === 'checkpoint').length).toBeLessThanOrEqual(3);
  });
});

describe('CheckpointChains summaries', () => {
  it(`remembers at most ${SUMMARIES_KEPT} heads' summaries while the chain grows`, () => {
    const chains = new CheckpointChains();
    const records = history(SUMMARIES_KEPT + 20).filter((record) => record.type === 'checkpoint');
    for (const [index, record] of records.entries()) {
      const held = records.slice(Math.max(0, index - 1), index + 1);
      expect(chains.summary(held, record.id)).toEqual(summarizeCheckpoint(records, record.id));
    }
    expect(chains.rememberedSummaries).toBe(SUMMARIES_KEPT);
  });
});
