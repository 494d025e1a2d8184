import { describe, expect, it } from 'vitest';
import {
  CheckpointChains,
  loadChainHandles,
  mergedCheckpoint,
  summarizeCheckpoint,
} from '../../src/model/checkpoints.js';
import type { CompactionRecord, Handle } from '../../src/types.js';
import { sampleRecord } from '../stores/fixtures.js';

function handle(
  text: string,
  seq: number,
  role: Handle['role'] = 'assistant',
  kind: Handle['kind'] = 'identifier',
): Handle {
  return {
    kind,
    text,
    key: text.toLowerCase(),
    start: 0,
    end: text.length,
    spanId: 'sha256:' + 'b'.repeat(64),
    seq,
    role,
    tokens: 2,
  };
}

function checkpoint(ordinal: number, handles: Handle[], ancestor?: string): CompactionRecord {
  return sampleRecord('s', {
    id: `chk_${ordinal}`,
    ordinal,
    type: 'checkpoint',
    handles,
    ancestors: ancestor ? [ancestor] : [],
    checkpointId: undefined,
  });
}

describe('CheckpointChains', () => {
  it('gives the same merged handles and summary as a full walk while the chain grows', () => {
    const chains = new CheckpointChains();
    const records: CompactionRecord[] = [];
    for (let ordinal = 0; ordinal < 6; ordinal++) {
      const handles = [
        handle(`id-${ordinal}`, ordinal * 10),
        handle('shared', 50 - ordinal),
        handle(`Never ${ordinal}.`, ordinal, 'user', 'constraint'),
      ];
      records.push(checkpoint(ordinal, handles, ordinal === 0 ? undefined : `chk_${ordinal - 1}`));
      const head = `chk_${ordinal}`;
      expect(chains.merged(records, head)).toEqual(mergedCheckpoint(records, head));
      expect(chains.summary(records, head)).toEqual(summarizeCheckpoint(records, head));
      expect(chains.summary(records, head)).toEqual({
        id: head,
        count: 3 * (ordinal + 1),
        userConstraints: ordinal + 1,
      });
    }
    expect(chains.merged(records, 'chk_2')).toEqual(mergedCheckpoint(records, 'chk_2'));
  });

  it('returns a copy that the caller may change without changing later answers', () => {
    const chains = new CheckpointChains();
    const records = [checkpoint(0, [handle('alpha', 1)])];
    const first = chains.merged(records, 'chk_0')?.handles as Handle[] | undefined;
    first?.push(handle('beta', 2));
    expect(first).toHaveLength(2);
    expect(chains.merged(records, 'chk_0')?.handles.map((item) => item.text)).toEqual(['alpha']);
  });

  it('does not remember a chain whose ancestor is missing, and answers undefined for an unknown head', () => {
    const chains = new CheckpointChains();
    const orphan = checkpoint(1, [handle('late', 9)], 'chk_0');
    expect(chains.merged([orphan], 'chk_1')?.handles.map((item) => item.text)).toEqual(['late']);
    const full = [checkpoint(0, [handle('early', 1)]), orphan];
    expect(chains.merged(full, 'chk_1')?.handles.map((item) => item.text)).toEqual(['early', 'late']);
    expect(chains.summary(full, 'chk_9')).toBeUndefined();
    expect(chains.merged(full, undefined)).toBeUndefined();
  });

  it('remembers only the newest heads, and still answers an older head as a full walk does', () => {
    const chains = new CheckpointChains(2);
    const records: CompactionRecord[] = [];
    for (let ordinal = 0; ordinal < 8; ordinal++) {
      records.push(
        checkpoint(ordinal, [handle(`id-${ordinal}`, ordinal)], ordinal === 0 ? undefined : `chk_${ordinal - 1}`),
      );
      chains.merged(records, `chk_${ordinal}`);
      expect(chains.remembered).toBeLessThanOrEqual(2);
    }
    expect(chains.remembered).toBe(2);
    expect(chains.merged(records, 'chk_1')).toEqual(mergedCheckpoint(records, 'chk_1'));
    expect(chains.summary(records, 'chk_3')).toEqual(summarizeCheckpoint(records, 'chk_3'));
    expect(chains.merged(records, 'chk_7')).toEqual(mergedCheckpoint(records, 'chk_7'));
  });

  it('summarizes a growing chain without building its merged handle list', () => {
    const chains = new CheckpointChains();
    const records: CompactionRecord[] = [];
    for (let ordinal = 0; ordinal < 5; ordinal++) {
      records.push(
        checkpoint(ordinal, [handle(`id-${ordinal}`, ordinal)], ordinal === 0 ? undefined : `chk_${ordinal - 1}`),
      );
      expect(chains.summary(records, `chk_${ordinal}`)).toEqual(summarizeCheckpoint(records, `chk_${ordinal}`));
    }
    expect(chains.remembered).toBe(0);
    // Only the newest record is read for a new head: the ancestors' summary is remembered.
    const withoutOld = records.slice(3);
    records.push(checkpoint(5, [handle('id-5', 5)], 'chk_4'));
    expect(chains.summary([...withoutOld, records[5] as CompactionRecord], 'chk_5')).toEqual({
      id: 'chk_5',
      count: 6,
      userConstraints: 0,
    });
  });
});

describe('loadChainHandles', () => {
  it('merges a chain read one record at a time as mergedCheckpoint does', async () => {
    const records: CompactionRecord[] = [];
    for (let ordinal = 0; ordinal < 6; ordinal++)
      records.push(
        checkpoint(
          ordinal,
          [handle(`id-${ordinal}`, ordinal * 10), handle('shared', 50 - ordinal)],
          ordinal === 0 ? undefined : `chk_${ordinal - 1}`,
        ),
      );
    const byId = new Map(records.map((record) => [record.id, record]));
    const read = (id: string) => Promise.resolve(byId.get(id));
    expect(await loadChainHandles('chk_5', read)).toEqual(mergedCheckpoint(records, 'chk_5')?.handles);
    expect(await loadChainHandles('chk_2', read)).toEqual(mergedCheckpoint(records, 'chk_2')?.handles);
    expect(await loadChainHandles('chk_9', read)).toEqual([]);
    expect(await loadChainHandles(undefined, read)).toEqual([]);
  });

  it('stops at a record that is not a checkpoint and at a cycle', async () => {
    const summary = sampleRecord('s', { id: 'rec_0', handles: [handle('summary-only', 1)] });
    const looped = checkpoint(1, [handle('looped', 2)], 'chk_1');
    const pointsAtSummary = checkpoint(2, [handle('late', 3)], 'rec_0');
    const byId = new Map([summary, looped, pointsAtSummary].map((record) => [record.id, record]));
    const read = (id: string) => byId.get(id);
    expect((await loadChainHandles('chk_2', read)).map((item) => item.text)).toEqual(['late']);
    expect((await loadChainHandles('chk_1', read)).map((item) => item.text)).toEqual(['looped']);
  });
});
