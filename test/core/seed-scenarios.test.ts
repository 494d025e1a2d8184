import { describe, expect, it } from 'vitest';
import { LossyRecompactionError } from '../../src/errors.js';
import { fillerTurns, memoryLedger, rewritingSummarizer, SEED_OPENING } from '../helpers.js';

describe('seed 000: the payments replica', () => {
  it('keeps the replica, the prohibition and the retry ceiling verbatim through four cascaded compactions', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('payments', { window: { maxTokens: 3000 } });
    await session.append(SEED_OPENING);
    let round = 0;
    while (session.records().filter((record) => record.type === 'summary').length < 4) {
      await session.append(fillerTurns(2, round));
      round += 2;
      await session.render();
      expect(round).toBeLessThan(400);
    }
    const summaries = session.records().filter((record) => record.type === 'summary');
    expect(summaries.map((record) => record.ancestors.length)).toEqual([0, 1, 1, 1]);
    expect(summaries[3]?.ancestors[0]).toBe(summaries[2]?.id);
    const context = await session.render();
    expect(context.text).toContain('PAYMENTS_DB_REPLICA=eu-west-2b');
    expect(context.text).toContain('The eu-west-1 replica is read-only, do not target it.');
    expect(context.text).toContain('retry ceiling of 7');
    expect(context.text).toContain('[user instruction] The eu-west-1 replica is read-only, do not target it.');
    expect(context.tokens).toBeLessThanOrEqual(3000);
    expect(summaries.every((record) => record.reversible)).toBe(true);
  });

  it('catches a summary that rewrites eu-west-2b as eu-west-1 and marks the record lossy with the finding', async () => {
    const ledger = memoryLedger(rewritingSummarizer());
    const session = await ledger.session('rewrite', { window: { maxTokens: 3000 } });
    await session.append(SEED_OPENING);
    await session.append(fillerTurns(20));
    await session.render();
    const record = session.records().find((candidate) => candidate.type === 'summary');
    expect(record).toBeDefined();
    expect(record?.reversible).toBe(false);
    const finding = record?.findings.find(
      (candidate) => candidate.token === 'eu-west-1' || candidate.message.includes('eu-west-1'),
    );
    expect(finding?.code).toMatch(/altered-handle|invented-handle/);
    const context = await session.render();
    expect(context.text).toContain('LOSSY');
    expect(context.text).toContain('PAYMENTS_DB_REPLICA=eu-west-2b');
  });

  it('returns a gap, not an empty list, when a handle dropped by a lossy record is recalled', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('handoff');
    const record = await session.importExternalSummary({
      summary:
        'User is debugging a deployment failure on the payments service; earlier attempts to adjust configuration were unsuccessful.',
      summarizer: { name: 'other-tool', version: '1' },
      toSeq: -1,
    });
    expect(record.reversible).toBe(false);
    const result = await session.recall('eu-west-2b');
    expect(result.status).toBe('gap');
    expect(result.gap?.recordId).toBe(record.id);
    expect(result.gap?.originalsStored).toBe(false);
    expect(result.gap?.droppedRange).toEqual(record.droppedRange);
  });
});

describe('seed 000: the cascade guard', () => {
  it('refuses to re-compact a lossy record when its handles are not carried forward', async () => {
    const { checkCarriedHandles } = await import('../../src/compaction/guards.js');
    const ledger = memoryLedger(rewritingSummarizer());
    const session = await ledger.session('guard', { window: { maxTokens: 3000 } });
    await session.append(SEED_OPENING);
    await session.append(fillerTurns(20));
    await session.render();
    const lossy = session.records().find((record) => record.type === 'summary' && !record.reversible);
    expect(lossy).toBeDefined();
    if (!lossy) return;
    const dropped = lossy.handles.filter((handle) => handle.text !== 'eu-west-2b');
    expect(() => checkCarriedHandles(lossy, lossy.handles, dropped, { sessionId: 'guard' })).toThrowError(
      LossyRecompactionError,
    );
    expect(() => checkCarriedHandles(lossy, lossy.handles, lossy.handles, { sessionId: 'guard' })).not.toThrow();
    await session.append(fillerTurns(20, 20));
    await session.render();
    const next = session
      .records()
      .filter((record) => record.type === 'summary')
      .at(-1);
    expect(next?.ancestors).toContain(lossy.id);
    const carried = new Set(
      [
        ...(next?.handles ?? []),
        ...(session.records().find((record) => record.id === next?.checkpointId)?.handles ?? []),
      ].map((handle) => `${handle.kind}:${handle.text}`),
    );
    for (const handle of lossy.handles) expect(carried.has(`${handle.kind}:${handle.text}`)).toBe(true);
  });
});
