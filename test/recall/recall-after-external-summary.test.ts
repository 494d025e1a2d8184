/**
 * Honest recall after an external summary (issue 38 item 4, invariant 8): behind an agent's summary whose originals
 * the ledger stored, a miss is "never said" with the closest stored handles, not a gap; a summary of history from
 * before the ledger began stays a gap, whose note says what to do instead of "recall it". And a superseded value
 * (issue 36 item 2) stays recallable, and recall says which later binding superseded it.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { createLedger } from '../../src/session/ledger.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { SEED_OPENING, fillerTurns, memoryLedger } from '../helpers.js';

const CLAUDE = { name: 'claude-code', version: '2.1.39' };
const SUMMARY = 'The user is debugging the payments deploy; the replica was chosen and retries were tuned.';

describe('recall after an external summary whose originals are stored', () => {
  it('answers a miss with "never said" and the closest stored handles, not a gap', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('hooked');
    await session.append([SEED_OPENING, ...fillerTurns(6)]);
    // What the Claude Code hook does at a compaction: every turn was ingested, then the agent's summary replaces them.
    const record = await session.importExternalSummary({ summary: SUMMARY, summarizer: CLAUDE });
    expect(record.reversible).toBe(false);
    expect(record.droppedRange.toSeq).toBeGreaterThanOrEqual(record.droppedRange.fromSeq);

    const miss = await session.recall('zzz-never-said');
    expect(miss.status).toBe('unverified');
    expect(miss.gap).toBeNull();
    expect(miss.results).toEqual([]);
    expect(miss.note).toMatch(/never said/);
    expect(miss.note).toContain(record.id);
    expect(miss.note).not.toMatch(/known gap/);
    expect(miss.closest?.length).toBeGreaterThan(0);
    expect(miss.note).toContain('Closest stored handles');

    // A near miss names what was said.
    const near = await session.recall('PAYMENTS_DB_REPLICA=eu-west-2c');
    expect(near.note).toMatch(/never said/);
    expect(near.closest?.[0]?.text).toBe('PAYMENTS_DB_REPLICA=eu-west-2b');

    // What the summary dropped is still there, verbatim.
    const found = await session.recall('eu-west-2b');
    expect(found.status).toBe('verified');
  });

  it('stays a gap when a stored original of the range no longer checks', async () => {
    const inner = createMemoryStore();
    let tampered = false;
    // A store whose span at seq 0 comes back altered once tampering starts (its hash no longer checks).
    const store: LedgerStore = Object.assign(Object.create(inner) as LedgerStore, {
      occurrences: async (sessionId: string, range?: { fromSeq?: number; toSeq?: number }) =>
        (await inner.occurrences(sessionId, range)).map((occurrence) =>
          tampered && occurrence.seq === 0
            ? { ...occurrence, span: { ...occurrence.span, text: `${occurrence.span.text} (edited)` } }
            : occurrence,
        ),
    });
    const ledger = createLedger({ store, now: () => new Date('2026-11-12T10:00:00Z') });
    const session = await ledger.session('tampered');
    await session.append([SEED_OPENING, ...fillerTurns(3)]);
    await session.importExternalSummary({ summary: SUMMARY, summarizer: CLAUDE });
    expect((await session.recall('zzz-never-said')).note).toMatch(/never said/);
    tampered = true;
    const miss = await session.recall('zzz-never-said');
    expect(miss.status).toBe('gap');
  });
});

describe('recall after a summary of history from before the ledger began', () => {
  it('is still a gap, and its note says to re-read the source or ask, not to recall', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('resumed');
    const record = await session.importExternalSummary({ summary: SUMMARY, summarizer: CLAUDE, toSeq: -1 });
    await session.append(fillerTurns(3));
    const miss = await session.recall('zzz-never-said');
    expect(miss.status).toBe('gap');
    expect(miss.gap?.recordId).toBe(record.id);
    expect(miss.gap?.originalsStored).toBe(false);
    expect(miss.note).not.toMatch(/never said/);
    expect(miss.note).toMatch(/ask the user/);
    expect(miss.note).not.toMatch(/\brecall\b/i);
  });

  it('a ledger summary with stored originals keeps its gap, with a note that does not send the model to recall', async () => {
    const { rewritingSummarizer } = await import('../helpers.js');
    const ledger = memoryLedger(rewritingSummarizer());
    const session = await ledger.session('rewritten', { window: { maxTokens: 3000 } });
    await session.append([SEED_OPENING, ...fillerTurns(6)]);
    await session.compact(300);
    const miss = await session.recall('eu-west-3a');
    expect(miss.status).toBe('gap');
    expect(miss.gap?.reread).not.toMatch(/recall/);
    expect(miss.gap?.reread).toMatch(/expand on record rec_/);
  });
});

describe('recall of a superseded value', () => {
  it('says which later binding superseded it, with its span and seq', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('rebound');
    await session.append({ role: 'user', content: 'Point the service at the replica: DB_HOST=db-ro-3 for now.' });
    await session.append(fillerTurns(2));
    const [rebinding] = await session.append({
      role: 'user',
      content: 'Change of plan: DB_HOST=db-ro-10 from now on.',
    });
    const old = await session.recall('DB_HOST=db-ro-3');
    expect(old.status).toBe('verified');
    const hit = old.results.find((result) => result.handle?.text === 'DB_HOST=db-ro-3');
    expect(hit?.supersededBy).toMatchObject({ handle: 'DB_HOST=db-ro-10', seq: rebinding?.seq });
    expect(hit?.supersededBy?.spanId).toBe(rebinding?.spanId);
    expect(old.note).toContain('superseded by "DB_HOST=db-ro-10"');

    // A bare copy of the old value is superseded by the same binding.
    const bare = await session.recall('db-ro-3');
    expect(bare.results[0]?.supersededBy).toMatchObject({ handle: 'DB_HOST=db-ro-10', seq: rebinding?.seq });

    const current = await session.recall('DB_HOST=db-ro-10');
    expect(current.status).toBe('verified');
    expect(current.results.every((result) => result.supersededBy === undefined)).toBe(true);
    expect(current.note).not.toMatch(/[Ss]uperseded/);
  });

  it('names the later prose binding that superseded a bucket', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('bucket');
    await session.append({ role: 'user', content: 'The deploy bucket is s3://payments-old for this release.' });
    await session.append(fillerTurns(2));
    await session.append({ role: 'user', content: 'Update: the deploy bucket is s3://payments-new.' });
    const old = await session.recall('s3://payments-old');
    expect(old.status).toBe('verified');
    expect(old.results[0]?.supersededBy?.handle).toContain('s3://payments-new');
    expect(old.note).toMatch(/superseded by "[^"]*s3:\/\/payments-new"/);
  });
});
