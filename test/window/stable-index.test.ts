import { describe, expect, it } from 'vitest';
import { createLedger } from '../../src/session/ledger.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { LedgerStore } from '../../src/stores/store.js';
import type { CompactionRecord, Handle } from '../../src/types.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import {
  ADDED_INDEX_SHARE,
  IndexBases,
  STALE_INDEX_SHARE,
  maxStaleTokens,
  STALE_HEADROOM_SHARE,
} from '../../src/window/stable-index.js';
import { resolveWindowConfig } from '../../src/session/config.js';
import { ShownTexts } from '../../src/handle-index/shown-texts.js';
import { agentTranscript } from '../core/agent-transcript.js';
import { memoryLedger } from '../helpers.js';

/** The block's lines above the line naming the record in the window: the frozen pinned constraints and index. */
const frozenPart = (block: string) => block.slice(0, block.search(/^(Earlier turns|History from before)/m));

const ledgerText = (messages: readonly { source: string; content: string }[]) =>
  messages.find((message) => message.source === 'ledger')?.content ?? '';

/** Every handle text a record's layout lists (pinned, quoted, index). */
const listedTexts = (record: CompactionRecord) => {
  const layout = new IndexBases().layoutOf(record);
  return [...layout.instructions, ...layout.quoted, ...layout.groups.flatMap((group) => group.entries)].map(
    (entry) => entry.handle.text,
  );
};

/** Replay `transcript` turn by turn (a render before every assistant turn); calls `onCompaction` after each one. */
async function replayTurns(
  transcript: readonly TranscriptMessage[],
  window: { maxTokens: number },
  onCompaction: (
    before: string,
    after: string,
    active: CompactionRecord,
    records: CompactionRecord[],
  ) => void | Promise<void>,
  options: { heldRecords?: number; store?: LedgerStore } = {},
) {
  const ledger = options.store ? createLedger({ store: options.store }) : memoryLedger();
  const session = await ledger.session('stable', { window, heldRecords: options.heldRecords });
  let batch: TranscriptMessage[] = [];
  let block = '';
  let records = 0;
  for (const message of transcript) {
    if (message.role === 'assistant' && batch.length > 0) {
      await session.append(batch);
      batch = [];
      const context = await session.render();
      const now = ledgerText(context.messages);
      if (session.recordCount() !== records && block !== '') {
        const active = session.activeRecord() as CompactionRecord;
        await onCompaction(block, now, active, options.heldRecords ? [] : session.records());
      }
      records = session.recordCount();
      block = now;
    }
    batch.push(message);
  }
  return { ledger, session };
}

describe('the ledger block keeps its handle index byte-stable across compactions', () => {
  it('repeats the lines above the compaction line while the base holds, and lists every entry of the active record', async () => {
    let kept = 0;
    let rebased = 0;
    await replayTurns(agentTranscript(160), { maxTokens: 8000 }, (before, after, active, records) => {
      const limit = maxStaleTokens(resolveWindowConfig('s', { maxTokens: 8000 }));
      const base = new IndexBases().baseOf(records, active, limit);
      if (base !== active) {
        kept++;
        // A provider's cache keeps the block's start: the frozen lines are the same bytes as one compaction ago.
        expect(frozenPart(after)).toBe(frozenPart(before));
        expect(after).toContain('Handles added since the index above');
      } else {
        rebased++;
        expect(after).not.toContain('added since');
      }
      // Nothing the active record lists is missing from the block (frozen or added since).
      for (const text of listedTexts(active)) expect(after).toContain(text.replace(/\s*\n\s*/g, ' ⏎ '));
    });
    expect(kept).toBeGreaterThan(0);
    expect(rebased).toBeGreaterThan(0);
  });

  it('renders the same block in the session (even holding one record), in replayWindow and after reopening', async () => {
    // SQLite, reopened through a second store: new record objects, so nothing the writing session settled is reused.
    const directory = mkdtempSync(join(tmpdir(), 'cl-stable-index-'));
    const path = join(directory, 'ledger.db');
    const store = createSqliteStore({ path });
    const window = { maxTokens: 8000 };
    const replayer = createLedger({ store });
    let compared = 0;
    let frozen = 0;
    await replayTurns(
      agentTranscript(120),
      window,
      async (_before, after) => {
        compared++;
        // A replay at another window size settles bases for another limit; the session's own stay as they were.
        await replayer.replayWindow('stable', { window: { maxTokens: 32_000 } });
        expect(ledgerText((await replayer.replayWindow('stable', { window })).messages)).toBe(after);
        if (!after.includes('Handles added since the index above')) return;
        // Reopened from the store (the whole chain read again), a session shows the same frozen base; holding one
        // record, it settles the base on the whole chain as it opens, before the rest is released.
        frozen++;
        const other = createSqliteStore({ path });
        const reopened = await createLedger({ store: other }).session('stable', { window });
        expect(ledgerText(reopened.peek().messages)).toBe(after);
        const holdingOne = await createLedger({ store: other }).session('stable', { window, heldRecords: 1 });
        expect(ledgerText(holdingOne.peek().messages)).toBe(after);
        await other.close();
      },
      { heldRecords: 1, store },
    );
    expect(compared).toBeGreaterThan(3);
    expect(frozen).toBeGreaterThan(0);
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });
});

/** A handle of `kind` with `text` (its cost in the index: `tokens` + 2). */
function handle(text: string, tokens = 8, kind: Handle['kind'] = 'identifier'): Handle {
  return {
    kind,
    text,
    key: text,
    start: 0,
    end: text.length,
    spanId: 'sha256:' + '0'.repeat(64),
    seq: 0,
    role: 'tool',
    tokens,
  };
}

function record(id: string, handles: Handle[], ancestors: string[] = [], type: CompactionRecord['type'] = 'summary') {
  return {
    id,
    sessionId: 's',
    ordinal: 0,
    type,
    summary: '',
    claims: [],
    handles,
    reversible: true,
    depth: 1,
    droppedRange: { fromSeq: 0, toSeq: 0, byteStart: 0, byteEnd: 0 },
    ancestors,
    rederived: false,
    summarizer: { name: 'test', version: '1' },
    findings: [],
    summaryTokens: 0,
    atSeq: 1,
    createdAt: '',
  } satisfies CompactionRecord;
}

describe('index base rule', () => {
  const a = handle('orders.refund');
  const b = handle('src/orders/module_1.py', 8, 'path');
  const c = handle('ORD-4242', 30);
  const d = handle('refund_rounding');

  const keepsIndexBase = (base: CompactionRecord, active: CompactionRecord, limit: number) =>
    new IndexBases().keeps(base, active, limit);

  it('keeps the base while what the new record dropped costs at most the limit, and starts a new one past it', () => {
    const base = record('rec_a', [a, b, c]);
    expect(keepsIndexBase(base, record('rec_b', [a, b, c, d]), 0)).toBe(true);
    expect(keepsIndexBase(base, record('rec_b', [a, b, d]), 32)).toBe(true);
    expect(keepsIndexBase(base, record('rec_b', [a, b, d]), 31)).toBe(false);
    expect(keepsIndexBase(base, record('ext_b', [a, b, c, d], [], 'external'), 100)).toBe(false);
  });

  it('starts a new base when the entries added since would outweigh ADDED_INDEX_SHARE of the frozen ones', () => {
    const base = record('rec_a', [a, b]);
    const frozen = 2 * (8 + 2);
    const added = (tokens: number) => handle(`added_${tokens}`, tokens - 2);
    expect(keepsIndexBase(base, record('rec_b', [a, b, added(ADDED_INDEX_SHARE * frozen)]), 0)).toBe(true);
    expect(keepsIndexBase(base, record('rec_b', [a, b, added(ADDED_INDEX_SHARE * frozen + 1)]), 0)).toBe(false);
  });

  it('follows the chain of compacted records, settling each once, and lists only new entries since the base', () => {
    const first = record('rec_1', [a, b, c]);
    const second = record('rec_2', [a, b, c, d], ['rec_1']);
    const third = record('rec_3', [c, d], ['rec_2']);
    const records = [first, second, third];
    const bases = new IndexBases();
    expect(bases.baseOf(records, second, 10)).toBe(first);
    expect(bases.baseOf(records, third, 10)).toBe(third);
    expect(bases.baseOf(records, third, 1000)).toBe(first);
    const since = bases.layoutSince(second, first);
    expect(since.groups.flatMap((group) => group.entries.map((entry) => entry.handle.text))).toEqual([
      'refund_rounding',
    ]);
    expect(bases.layoutSince(first, first).groups).toEqual([]);
    // A record whose predecessor is not at hand starts a new base.
    expect(bases.baseOf([record('rec_9', [a], ['rec_gone'])], record('rec_10', [a, b], ['rec_9']), 10)).not.toBe(first);
  });

  it('reads a settled base back from the IndexBases that settled it, and from no other', () => {
    const first = record('rec_1', [a, b, c]);
    const second = record('rec_2', [a, b, c, d], ['rec_1']);
    const owner = new IndexBases();
    expect(owner.baseOf([first, second], second, 10)).toBe(first);
    // The record it compacted released: the owner remembers the base it settled while that record was at hand.
    expect(owner.baseOf([second], second, 10)).toBe(first);
    // Another owner (another session, a replay) was never shown the chain: the record starts a base of its own.
    expect(new IndexBases().baseOf([second], second, 10)).toBe(second);
    // A base settled for one stale limit is not another limit's.
    expect(owner.baseOf([second], second, 11)).toBe(second);
  });

  it('limits stale entries to a small share of the window, or of its headroom when that is more', () => {
    const window = (maxTokens: number) => resolveWindowConfig('s', { maxTokens });
    expect(maxStaleTokens(window(4000))).toBe(Math.floor(4000 * STALE_INDEX_SHARE));
    expect(maxStaleTokens(window(8000))).toBe(Math.floor(8000 * STALE_INDEX_SHARE));
    expect(maxStaleTokens(window(32_000))).toBe(Math.floor(16_000 * STALE_HEADROOM_SHARE));
    expect(maxStaleTokens({ maxTokens: 8000, compactAt: 1, targetFill: 0.5 })).toBe(Math.floor(4000 / 15));
    expect(STALE_INDEX_SHARE).toBeLessThanOrEqual(0.05);
    expect(STALE_HEADROOM_SHARE * 0.5).toBeLessThanOrEqual(0.05);
  });

  it('lays a record out with the placement remembered for its handle list', () => {
    const kept = [a, b, c];
    const laidOut = (bases: IndexBases) =>
      bases.layoutOf(record('rec_p', kept)).groups.flatMap((group) => group.entries.map((entry) => entry.handle.text));
    expect(laidOut(new IndexBases())).toEqual(['orders.refund', 'ORD-4242', 'src/orders/module_1.py']);
    // A placement that had shown `ORD-4242` inside a longer text: the layout searches the texts it hands over.
    const bases = new IndexBases();
    const texts = new ShownTexts(['orders.refund', 'ticket ORD-4242 reopened', 'src/orders/module_1.py']);
    bases.rememberPlacement(kept, { summary: '', texts, checks: new Map() });
    expect(laidOut(bases)).toEqual(['orders.refund', 'src/orders/module_1.py']);
  });
});
