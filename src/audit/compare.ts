/**
 * context-ledger at the agent's footprint: the messages before an agent compaction are
 * replayed into a fresh memory-store session and compacted once, with summary and handle
 * budgets that add up to the agent summary's token count.
 */
import { mergedCheckpoint } from '../model/checkpoints.js';
import { LEDGER_FRAME_TOKENS, ledgerBudgetTokens } from '../session/config.js';
import { InvalidInputError } from '../errors.js';
import { createLedger } from '../session/ledger.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { LedgerSession } from '../session/session.js';
import { createMemoryStore } from '../stores/memory/memory-store.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord } from '../types.js';

/** Share of the footprint given to summary prose; the rest goes to the verbatim handle index. */
export const SUMMARY_SHARE = 0.3;

/** The comparison session and what its one compaction wrote. */
export interface FootprintComparison {
  /** The session (for recall). */
  readonly session: LedgerSession;
  /** The summary record in the window. */
  readonly record: CompactionRecord;
  /** Its spill checkpoint, if handles spilled. */
  readonly checkpoint: CompactionRecord | undefined;
  /** Tokens of the ledger block as rendered in the window. */
  readonly tokens: number;
  /** Budgets used. */
  readonly budgets: { readonly summaryBudgetTokens: number; readonly handleBudgetTokens: number };
}

/**
 * Budgets for a footprint of `tokens`: the ledger block's frame lines are reserved first,
 * the rest is split {@link SUMMARY_SHARE} summary / the remainder handles.
 */
export function footprintBudgets(tokens: number): { summaryBudgetTokens: number; handleBudgetTokens: number } {
  const available = Math.max(20, tokens - LEDGER_FRAME_TOKENS);
  const summaryBudgetTokens = Math.max(1, Math.round(available * SUMMARY_SHARE));
  return { summaryBudgetTokens, handleBudgetTokens: Math.max(1, available - summaryBudgetTokens) };
}

/**
 * Replay `messages` into a fresh session and force one compaction at the footprint of
 * `tokens`. When the handles do not fit, the overflow (even older user constraints) spills
 * to a checkpoint outside the window, so `tokens` stays within the footprint. Spans are cut at
 * `maxSpanTokens` (the audited session's), so the record's seq range is the audited session's.
 */
export async function compareAtFootprint(
  sessionId: string,
  messages: readonly TranscriptMessage[],
  tokens: number,
  counter: TokenCounter,
  maxSpanTokens: number,
): Promise<FootprintComparison> {
  const budgets = footprintBudgets(tokens);
  return { ...(await compactOnce(sessionId, messages, { ...budgets, maxSpanTokens }, counter)), budgets };
}

async function compactOnce(
  sessionId: string,
  messages: readonly TranscriptMessage[],
  window: { summaryBudgetTokens: number; handleBudgetTokens: number; maxSpanTokens: number },
  counter: TokenCounter,
): Promise<Omit<FootprintComparison, 'budgets'>> {
  const ledger = createLedger({ store: createMemoryStore(), tokenCounter: counter, now: () => new Date(0) });
  const session = await ledger.session(sessionId, {
    window: { ...window, maxTokens: ledgerBudgetTokens(window) + 1000, keepRecentTokens: 1 },
  });
  await session.append(messages);
  const record = await session.compact(1);
  if (!record)
    throw new InvalidInputError(`Session ${sessionId}: nothing before the compaction to compare with (no messages)`, {
      sessionId,
    });
  const checkpoint = mergedCheckpoint(session.records(), record.checkpointId);
  const block = session.peek().messages.find((message) => message.source === 'ledger');
  return { session, record, checkpoint, tokens: block ? counter.count(block.content) : 0 };
}
