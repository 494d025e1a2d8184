/**
 * The timeline of one conversation in a memory-store session: every span with its seq,
 * every handle, the handles the agent used and where, and the compaction records —
 * either the agent's own (imported as `external` records) or context-ledger's own after a
 * replay at a token budget.
 */
import { resolveWindowConfig } from '../session/config.js';
import { createLedger } from '../session/ledger.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { LedgerSession } from '../session/session.js';
import { createMemoryStore } from '../stores/memory/memory-store.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { ExtractedHandle, Handle, SpanOccurrence, WindowConfig } from '../types.js';
import type { CollectedItem, CollectedSession } from './collect.js';
import { handleIdentityKey, usedHandles } from './handle-sets.js';
import { ModelCalls } from '../session/model-calls.js';

/**
 * Largest span of an audit session: the one a ledger session at a `maxTokens` window cuts (`replay --max-tokens`, and
 * the hooks at the default window), so the audit's seqs are the ledger's seqs and `expand --from-seq N` finds seq N.
 */
export function ledgerSpanTokens(maxTokens: number): number {
  return resolveWindowConfig('audit', { maxTokens }).maxSpanTokens;
}

/** Handles one assistant message used, at the seq of its first span. */
export interface Use {
  /** Seq of the message's first span. */
  readonly seq: number;
  /** Identities (kind + key) it used. */
  readonly identities: ReadonlySet<string>;
  /** The handles. */
  readonly handles: readonly ExtractedHandle[];
}

/** One agent compaction placed on the timeline. */
export interface AgentBoundary {
  /** Seq of the first span after it. */
  readonly seq: number;
  /** Index into the conversation's messages of the first message after it. */
  readonly messageIndex: number;
  /** The summary, verbatim. */
  readonly summary: string;
  /** `name version`. */
  readonly summarizer: string;
  /** Source label. */
  readonly label: string | null;
  /** The external record it became. */
  readonly recordId: string;
}

/** A conversation replayed into a memory-store session. */
export interface Timeline {
  /** The session (holds the records; `recall` works on it). */
  readonly session: LedgerSession;
  /** The conversation's messages, in order. */
  readonly messages: readonly TranscriptMessage[];
  /** Every span. */
  readonly occurrences: readonly SpanOccurrence[];
  /** Every handle, ordered by seq. */
  readonly handles: readonly Handle[];
  /** Handles used by assistant messages. */
  readonly uses: readonly Use[];
  /** The agent's compactions (empty in replay mode). */
  readonly boundaries: readonly AgentBoundary[];
}

/** How to build a timeline. */
export interface TimelineOptions {
  /** `agent`: import the agent's compactions; `replay`: let context-ledger compact at `maxTokens`. */
  readonly mode: 'agent' | 'replay';
  /** Window size for replay mode; in both modes, spans are cut as a ledger session at this window cuts them. */
  readonly maxTokens: number;
  /** Token counter. */
  readonly counter: TokenCounter;
  /**
   * Called after each message: the characters replayed so far (content and tool-call arguments) of the total, so the
   * progress (and its ETA) follows the text appended, not the message count (one large tool output weighs its size).
   */
  readonly onMessage?: ((done: number, total: number) => void) | undefined;
}

/** An item's share of a replay's work: a message's characters (content and tool-call arguments, at least 1); a compaction none. */
export function itemWeight(item: CollectedItem): number {
  if (item.type !== 'message') return 0;
  let characters = item.message.content.length;
  for (const call of item.message.toolCalls ?? []) characters += call.name.length + call.arguments.length;
  return Math.max(1, characters);
}

/** Replay a collected conversation into a fresh memory-store session. */
export async function buildTimeline(collected: CollectedSession, options: TimelineOptions): Promise<Timeline> {
  const store = createMemoryStore();
  const ledger = createLedger({ store, tokenCounter: options.counter, now: () => new Date(0) });
  const window: Partial<WindowConfig> =
    options.mode === 'agent'
      ? { maxTokens: 10_000_000, maxSpanTokens: ledgerSpanTokens(options.maxTokens) }
      : { maxTokens: options.maxTokens };
  const session = await ledger.session(collected.sessionId, { window });
  const messages: TranscriptMessage[] = [];
  const uses: Use[] = [];
  const boundaries: AgentBoundary[] = [];
  const weights = collected.items.map(itemWeight);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let done = 0;
  let seq = 0;
  const calls = new ModelCalls();
  for (const [index, item] of collected.items.entries()) {
    if (item.type === 'compaction') {
      if (options.mode !== 'agent') continue;
      const record = await session.importExternalSummary({ summary: item.summary, summarizer: item.summarizer });
      boundaries.push({
        seq,
        messageIndex: messages.length,
        summary: item.summary,
        summarizer: `${item.summarizer.name} ${item.summarizer.version}`,
        label: item.label,
        recordId: record.id,
      });
      continue;
    }
    const { message } = item;
    // Replay mode compacts where the agent called its model (`ModelCalls`), as `replay` does.
    if (calls.before(message) && options.mode === 'replay') await session.compactIfDue();
    const handles = usedHandles(message);
    if (handles.length > 0) uses.push({ seq, identities: new Set(handles.map(handleIdentityKey)), handles });
    messages.push(message);
    seq += (await session.append(message)).length;
    done += weights[index] ?? 0;
    options.onMessage?.(done, total);
  }
  if (options.mode === 'replay') await session.render();
  const occurrences = await store.occurrences(session.id);
  return { session, messages, occurrences, handles: await store.handles(session.id), uses, boundaries };
}
