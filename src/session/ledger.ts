import { resolveWindowConfig } from './config.js';
import { LedgerSession } from './session.js';
import type { SessionOptions } from './session.js';
import type { LedgerStore } from '../stores/store.js';
import { createExtractiveSummarizer } from '../summarizers/extractive.js';
import type { Summarizer } from '../summarizers/summarizer.js';
import { createO200kCounter } from '../tokens/token-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { WindowConfig } from '../types.js';
import { renderWindow } from '../window/window.js';
import { activeRecord, windowStateOf } from '../window/window-state.js';
import { WindowMemo } from '../window/window-memo.js';
import type { RenderedContext } from '../window/window.js';

/** Options of a ledger. */
export interface LedgerOptions {
  /** Where everything is kept. */
  readonly store: LedgerStore;
  /** Token counter (default o200k_base). */
  readonly tokenCounter?: TokenCounter | undefined;
  /** Summarizer (default: the extractive one). */
  readonly summarizer?: Summarizer | undefined;
  /** Clock, for tests. */
  readonly now?: (() => Date) | undefined;
}

/** A ledger: a store plus the counter and summarizer its sessions use. */
export interface Ledger {
  /** The store. */
  readonly store: LedgerStore;
  /** The token counter. */
  readonly counter: TokenCounter;
  /** Open (or create) a session. */
  session(sessionId: string, options?: SessionOptions): Promise<LedgerSession>;
  /**
   * Replay the window a session had right after the span with seq `atSeq - 1` was appended
   * and any compaction then was done: a pure function of the stored spans and records and of the
   * window configuration (pass the session's `window` options: which tool results are masked depends on them).
   */
  replayWindow(
    sessionId: string,
    options?: { atSeq?: number; systemPrompt?: string; window?: Partial<WindowConfig> },
  ): Promise<RenderedContext>;
  /** Close the store. */
  close(): Promise<void>;
}

/** Create a ledger over a store. */
export function createLedger(options: LedgerOptions): Ledger {
  const counter = options.tokenCounter ?? createO200kCounter();
  const summarizer = options.summarizer ?? createExtractiveSummarizer();
  const { store } = options;
  return {
    store,
    counter,
    session: (sessionId, sessionOptions) =>
      LedgerSession.open(sessionId, { store, counter, summarizer, now: options.now }, sessionOptions),
    async replayWindow(sessionId, replayOptions = {}) {
      const atSeq = replayOptions.atSeq ?? (await store.nextSeq(sessionId));
      const records = (await store.records(sessionId)).filter((record) => record.atSeq <= atSeq);
      const active = activeRecord(records);
      const originals = await store.occurrences(sessionId, {
        fromSeq: active ? active.droppedRange.toSeq + 1 : 0,
        toSeq: atSeq - 1,
      });
      const config = resolveWindowConfig(sessionId, replayOptions.window);
      // One memo for the replay: the index bases settled for the state are the layouts the render reads.
      const memo = new WindowMemo();
      const { systemPrompt } = replayOptions;
      const state = windowStateOf({ records, originals, active, config, systemPrompt, indexBases: memo.indexBases });
      return renderWindow(state, counter, memo);
    },
    close: () => store.close(),
  };
}
