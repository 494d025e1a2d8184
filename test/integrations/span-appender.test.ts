/**
 * The hook's appender writes what `LedgerSession.append` writes (same span ids, seqs, byte ranges, chunks, handles,
 * token counts, records), batch after batch, without opening the session; it hands a batch holding a rendered ledger
 * block to the session (which imports it as a summary) and refuses an invalid batch whole, as the session does.
 */
import { describe, expect, it } from 'vitest';
import { spanAppender } from '../../src/integrations/claude-code/span-appender.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { RECALL_HINT, SECTION_HEADINGS } from '../../src/text/block-headings.js';

const SESSION = 'appender-1';

/** Turns with handles, a tool call and its result, non-ASCII text, and one message long enough to be chunked. */
function batches(): TranscriptMessage[][] {
  const log = Array.from({ length: 400 }, (_, index) => `line ${index}: pool_size=${40 + (index % 7)} ok`).join('\n');
  return [
    [
      { role: 'user', content: 'Deploy PAY-4821 with /etc/payments/db.conf to eu-west-2b. Ne poussez pas sur main.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'Bash', arguments: '{"command":"./deploy.sh --region eu-west-2b"}' }],
      },
      { role: 'tool', content: `ERROR lock timeout after 30s\n${log}`, toolCallId: 'call_1', toolName: 'Bash' },
    ],
    [
      { role: 'assistant', content: 'Raised PAYMENTS_MIGRATION_LOCK_TIMEOUT=120s; retrying — café ☕.', label: 'u-2' },
      { role: 'user', content: 'Thanks. Same for PAY-4822.', source: 'harness', label: 'u-3' },
    ],
  ];
}

/** Everything the store holds of the session. */
async function stored(store: LedgerStore) {
  const next = await store.nextSeq(SESSION);
  return {
    next,
    occurrences: await store.occurrences(SESSION),
    handles: next > 0 ? await store.handles(SESSION, { fromSeq: 0, toSeq: next - 1 }) : [],
    records: await store.records(SESSION),
  };
}

describe('spanAppender', () => {
  it('stores exactly what the session stores, batch after batch', async () => {
    const viaSession = createLedger({ store: createMemoryStore() });
    const session = await viaSession.session(SESSION);
    const viaAppender = createLedger({ store: createMemoryStore() });
    let appender = await spanAppender(viaAppender, SESSION, { nextSeq: 0, byteEnd: 0 });
    for (const [index, batch] of batches().entries()) {
      const expected = await session.append(batch);
      expect(await appender.append(batch)).toEqual(expected);
      // A later hook call starts from the tail the store gives.
      const occurrences = await viaAppender.store.occurrences(SESSION);
      if (index === 0)
        appender = await spanAppender(viaAppender, SESSION, {
          nextSeq: await viaAppender.store.nextSeq(SESSION),
          byteEnd: occurrences.at(-1)?.byteEnd ?? 0,
        });
    }
    const want = await stored(viaSession.store);
    expect(want.occurrences.some((occurrence) => occurrence.chunk !== undefined)).toBe(true);
    expect(want.handles.length).toBeGreaterThan(5);
    expect(await stored(viaAppender.store)).toEqual(want);
    expect(await viaAppender.store.getSession(SESSION)).toMatchObject({ id: SESSION, tenantId: undefined });
  });

  it('creates the session in the store even before anything is appended, as opening it does', async () => {
    const ledger = createLedger({ store: createMemoryStore() });
    await spanAppender(ledger, SESSION, { nextSeq: 0, byteEnd: 0 });
    expect(await ledger.store.getSession(SESSION)).toMatchObject({ id: SESSION });
  });

  it('hands a batch holding a rendered ledger block to the session, which imports it as the session would', async () => {
    const block = [
      '[context-ledger]',
      SECTION_HEADINGS.base.instructions,
      '- [user instruction] Never push to main without review.',
      'Earlier turns (seq 0-48) were compacted into record rec_0123456789abcdef01234567, depth 1, lossless.',
      RECALL_HINT,
    ].join('\n');
    const batch: TranscriptMessage[] = [
      { role: 'user', content: 'Where were we on PAY-4821?' },
      { role: 'user', content: block },
      { role: 'assistant', content: 'Back on PAY-4821.' },
    ];
    const viaSession = createLedger({ store: createMemoryStore() });
    await (await viaSession.session(SESSION)).append(batch);
    const viaAppender = createLedger({ store: createMemoryStore() });
    const appender = await spanAppender(viaAppender, SESSION, { nextSeq: 0, byteEnd: 0 });
    await appender.append(batch);
    const want = await stored(viaSession.store);
    expect(want.records).toHaveLength(1);
    const got = await stored(viaAppender.store);
    expect(got.occurrences).toEqual(want.occurrences);
    expect(got.records.map(({ createdAt: _at, ...record }) => record)).toEqual(
      want.records.map(({ createdAt: _at, ...record }) => record),
    );
  });

  it('refuses a batch with an invalid message whole, naming it, and writes nothing', async () => {
    const ledger = createLedger({ store: createMemoryStore() });
    const appender = await spanAppender(ledger, SESSION, { nextSeq: 0, byteEnd: 0 });
    const batch = [
      { role: 'user', content: 'fine' },
      { role: 'robot', content: 'no' },
    ] as unknown as TranscriptMessage[];
    await expect(appender.append(batch)).rejects.toThrow(/session appender-1, message 1 of this append/);
    expect(await ledger.store.nextSeq(SESSION)).toBe(0);
  });
});
