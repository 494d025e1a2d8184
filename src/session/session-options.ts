/** What opening a session takes: its options and dependencies, checked before anything is read. */
import type { RankWeightsInput } from '../ranking/rank-weights.js';
import { resolveRankWeights } from '../ranking/rank-weights.js';
import { InvalidConfigError, InvalidInputError } from '../errors.js';
import type { LedgerStore } from '../stores/store.js';
import type { Summarizer } from '../summarizers/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { WindowConfig } from '../types.js';
import { resolveWindowConfig } from './config.js';

/** Options for opening a session. */
export interface SessionOptions {
  /** Tenant the session belongs to (isolation). */
  readonly tenantId?: string | undefined;
  /** Window configuration; `maxTokens` alone is enough, the rest has defaults. */
  readonly window?: Partial<WindowConfig> | undefined;
  /** The caller's system prompt, rendered first and never compacted. */
  readonly systemPrompt?: string | undefined;
  /**
   * Weights of the handle ranking that orders the index (default `DEFAULT_RANK_WEIGHTS`); the fields given replace
   * the defaults' (`kind` is merged per kind).
   */
  readonly ranking?: RankWeightsInput | undefined;
  /**
   * How many summary and external records, and how many spill checkpoints, the session holds in memory (default:
   * all). Older ones stay in the store: `loadRecords()` and `loadHandleIndex()` read them, `records()` and
   * `handleIndex()` then throw. For long replays: memory follows the window, not the number of compactions.
   */
  readonly heldRecords?: number | undefined;
}

/** What a session needs from its ledger. */
export interface SessionDependencies {
  readonly store: LedgerStore;
  readonly counter: TokenCounter;
  readonly summarizer: Summarizer;
  readonly now?: (() => Date) | undefined;
}

/** Input for recording a summary written by another tool (e.g. an agent's own auto-compaction). */
export interface ExternalSummaryInput {
  /** The summary text, verbatim. */
  readonly summary: string;
  /** Who wrote it, e.g. `{ name: 'claude-code', version: '2.1' }`. */
  readonly summarizer: { readonly name: string; readonly version: string };
  /** First seq it covers (default: the start of the window). */
  readonly fromSeq?: number | undefined;
  /** Last seq it covers (default: the last appended seq; -1 for a summary of history this ledger never saw). */
  readonly toSeq?: number | undefined;
}

/** Longest session id accepted. */
const MAX_SESSION_ID_LENGTH = 200;

/**
 * Throws InvalidInputError or InvalidConfigError, naming the session and the field, when the id, the window
 * configuration, the ranking weights or `heldRecords` cannot open a session.
 */
export function checkSessionOptions(id: string, options: SessionOptions): void {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_SESSION_ID_LENGTH)
    throw new InvalidInputError(
      `session id must be a non-empty string of at most ${MAX_SESSION_ID_LENGTH} characters (got ${JSON.stringify(id)})`,
      { sessionId: id },
    );
  resolveWindowConfig(id, options.window);
  resolveRankWeights(options.ranking, id);
  const held = options.heldRecords;
  if (held !== undefined && !(Number.isInteger(held) && held >= 1))
    throw new InvalidConfigError(`Session ${id}: heldRecords must be a positive integer (got ${String(held)}).`, {
      sessionId: id,
      heldRecords: held,
    });
}
