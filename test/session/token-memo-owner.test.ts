import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenMemo } from '../../src/handles/token-memo.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { messageToEntries } from '../../src/ingest/ingest.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';

const turn = (n: number): TranscriptMessage => ({
  role: 'tool',
  toolCallId: `call_${n}`,
  toolName: 'bash',
  content: `ERROR_CODE=E4${n}1 in src/shards/shard_${n}.ts at self.retry_count() (v1.2.${n})`,
});

describe('token memo owner', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is one per session: two sessions in one process never classify through the same memo', async () => {
    const ledger = createLedger({ store: createMemoryStore() });
    const [first, second] = [await ledger.session('one'), await ledger.session('two')];
    const used: TokenMemo[] = [];
    const replay = TokenMemo.prototype.replay;
    const spy = vi.spyOn(TokenMemo.prototype, 'replay').mockImplementation(function (this: TokenMemo, ...args) {
      used.push(this);
      return replay.apply(this, args);
    });
    await first.append([turn(1), turn(2)]);
    const byFirst = new Set(used);
    used.length = 0;
    await second.append([turn(1), turn(2)]);
    const bySecond = new Set(used);
    await first.append(turn(3));
    expect(spy).toHaveBeenCalled();
    expect(byFirst.size).toBe(1);
    expect(bySecond.size).toBe(1);
    expect([...bySecond][0]).not.toBe([...byFirst][0]);
    // the first session's later append goes through its own memo again
    expect(used.slice(-1)[0]).toBe([...byFirst][0]);
  });

  it('gives the same entries to an ingest through a warm memo as to one with none', () => {
    const counter = createO200kCounter();
    const tokenMemo = new TokenMemo();
    const messages = [turn(1), turn(2), turn(1), turn(3), turn(2)];
    const entries = (memo: TokenMemo | undefined) =>
      messages.map((message) =>
        messageToEntries(message, { maxSpanTokens: 2000, counter, byteStart: 0, tokenMemo: memo }),
      );
    const plain = entries(undefined);
    expect(entries(tokenMemo)).toEqual(plain);
    expect(entries(tokenMemo)).toEqual(plain);
    expect(plain[0]?.entries[0]?.handles.map((handle) => handle.text)).toContain('src/shards/shard_1.ts');
  });
});
