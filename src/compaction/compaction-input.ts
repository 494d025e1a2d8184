import type { LedgerStore } from '../stores/store.js';
import type { Summarizer } from '../summarizers/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord, SpanOccurrence, WindowConfig } from '../types.js';
import type { RankWeights } from '../ranking/rank-weights.js';
import type { RankHistory } from '../ranking/rank-history.js';
import type { Placement } from '../handle-index/index-layout.js';
import type { TokenMemo } from '../handles/token-memo.js';

/** Everything one compaction needs. */
export interface CompactionInput {
  readonly store: LedgerStore;
  readonly sessionId: string;
  readonly config: WindowConfig;
  readonly summarizer: Summarizer;
  readonly counter: TokenCounter;
  /** Weights of the handle ranking (default `DEFAULT_RANK_WEIGHTS`). */
  readonly rankWeights?: RankWeights | undefined;
  /** The summary region currently in the window (the latest summary or external record). */
  readonly active?: CompactionRecord | undefined;
  /** The head of the spill-checkpoint chain `active` refers to, if any (its handles are not re-read). */
  readonly activeCheckpoint?: CompactionRecord | undefined;
  /** The oldest originals of the window, to be compacted (never empty). */
  readonly region: readonly SpanOccurrence[];
  /** One past the highest ordinal the session stored (a checkpoint reused from a killed compaction keeps its own). */
  readonly nextOrdinal: number;
  /** The session's next seq now. */
  readonly atSeq: number;
  /** Clock, for tests. */
  readonly now?: () => Date;
  /** The originals that stay in the window after this compaction (their user, assistant and tool-call text stays visible). */
  readonly recent?: readonly SpanOccurrence[] | undefined;
  /**
   * The session's handle rows and compacted spans, held across compactions (default: a fresh one, which reads the
   * region's handles and the ranking's lookback from the store).
   */
  readonly history?: RankHistory | undefined;
  /** Look up a record already in the session (a checkpoint left by a crash between two writes is reused). */
  readonly findRecord?: ((id: string) => CompactionRecord | undefined) | undefined;
  /**
   * The session's memo of token classifications (`token-memo.ts`), passed to the summary's verification: it finds the
   * claims' handles sooner, with the same findings as without it.
   */
  readonly tokenMemo?: TokenMemo | undefined;
}

/** The records one compaction wrote: the summary and, when handles spilled, its checkpoint. */
export interface CompactionOutput {
  readonly record: CompactionRecord;
  readonly checkpoint?: CompactionRecord | undefined;
  /** False when the checkpoint was already stored (left by an interrupted compaction) and reused. */
  readonly checkpointWritten: boolean;
  /** What the placement that kept the record's handles found: the session's `IndexBases` lays the record out with it. */
  readonly placement?: Placement | undefined;
}
