/**
 * What must hold of a session after any crash, kill or contention: acknowledged appends are
 * there, seqs are gapless, batches are whole (with their handles), records are whole and
 * linked, and the replayed window equals the window of a freshly reopened session.
 */
import { expect } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { createLedger } from '../../src/session/ledger.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { createApproximateCounter } from '../../src/tokens/token-counter.js';
import type { Ack } from './workers.js';

/** Window of the workers' sessions (same as `workers/batch-messages.mjs`). */
export const WORKER_WINDOW = { maxTokens: 600 };

function parseBatchText(text: string): { batch: string; part: number; size: number } | undefined {
  const match = /^batch (\S+) part (\d+)\/(\d+):/.exec(text);
  return match ? { batch: match[1]!, part: Number(match[2]), size: Number(match[3]) } : undefined;
}

/** Summary of a checked session. */
export interface CheckedSession {
  readonly occurrences: number;
  readonly records: number;
  readonly batches: number;
}

/**
 * Checks a session; `rawRecordJson` reads the stored record JSON below the API (so a
 * half-written record would show as JSON that does not parse).
 */
export async function checkSession(
  store: LedgerStore,
  sessionId: string,
  acks: readonly Ack[],
  rawRecordJson?: () => Promise<string[]>,
): Promise<CheckedSession> {
  const occurrences = await store.occurrences(sessionId);
  const nextSeq = await store.nextSeq(sessionId);
  expect(
    occurrences.map((occurrence) => occurrence.seq),
    'seqs are gapless from 0',
  ).toEqual(Array.from({ length: nextSeq }, (_, index) => index));
  for (const ack of acks) {
    for (let seq = ack.firstSeq; seq <= ack.lastSeq; seq += 1) {
      expect(
        parseBatchText(occurrences[seq]?.span.text ?? '')?.batch,
        `acknowledged seq ${seq} (batch ${ack.batch}) is stored`,
      ).toBe(ack.batch);
    }
  }
  const handles = await store.handles(sessionId);
  const handlesBySeq = new Map<number, number>();
  for (const handle of handles) handlesBySeq.set(handle.seq, (handlesBySeq.get(handle.seq) ?? 0) + 1);
  const batches = new Map<string, number[]>();
  for (const occurrence of occurrences) {
    const parsed = parseBatchText(occurrence.span.text);
    expect(parsed, `seq ${occurrence.seq} is a worker message`).toBeDefined();
    const seqs = batches.get(parsed!.batch) ?? [];
    expect(parsed!.part, `batch ${parsed!.batch} parts are in order`).toBe(seqs.length + 1);
    seqs.push(occurrence.seq);
    batches.set(parsed!.batch, seqs);
    expect(handlesBySeq.get(occurrence.seq) ?? 0, `seq ${occurrence.seq} has all its handles`).toBe(
      extractHandles(occurrence.span.text).length,
    );
  }
  for (const [batch, seqs] of batches) {
    const size = parseBatchText(occurrences[seqs[0]!]!.span.text)!.size;
    expect(seqs.length, `batch ${batch} is whole (${size} parts), not half-written`).toBe(size);
    expect(seqs[seqs.length - 1]! - seqs[0]!, `batch ${batch} is contiguous`).toBe(size - 1);
  }
  const records = await store.records(sessionId);
  expect(
    records.map((record) => record.ordinal),
    'record ordinals are gapless',
  ).toEqual(records.map((_, index) => index));
  for (const record of records) {
    if (record.checkpointId !== undefined)
      expect(
        records.some((other) => other.id === record.checkpointId),
        `checkpoint ${record.checkpointId} of ${record.id} exists`,
      ).toBe(true);
    expect(record.droppedRange.toSeq).toBeLessThan(nextSeq);
  }
  if (rawRecordJson) {
    const raw = await rawRecordJson();
    expect(raw).toHaveLength(records.length);
    for (const json of raw) expect(() => JSON.parse(json)).not.toThrow();
  }
  const ledger = createLedger({ store, tokenCounter: createApproximateCounter() });
  const replayed = await ledger.replayWindow(sessionId, { window: WORKER_WINDOW });
  const reopened = await ledger.session(sessionId, { window: WORKER_WINDOW });
  expect(replayed, 'replayWindow equals the window of a reopened session').toEqual(reopened.peek());
  return { occurrences: occurrences.length, records: records.length, batches: batches.size };
}
