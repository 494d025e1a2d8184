/**
 * context-ledger: recoverable, auditable context compaction for LLM agents.
 * The root entry loads no driver (no better-sqlite3, pg, ai or MCP SDK): stores with
 * drivers are under subpaths such as `context-ledger/sqlite`.
 */
export { createLedger } from './session/ledger.js';
export type { Ledger, LedgerOptions } from './session/ledger.js';
export type { LedgerSession } from './session/session.js';
export type { SessionOptions, SessionDependencies, ExternalSummaryInput } from './session/session.js';
export { createMemoryStore } from './stores/memory/memory-store.js';
export type { LedgerStore, AppendEntry, TextHit } from './stores/store.js';
export { LEDGER_STORE_SPECIFICATION_VERSION } from './stores/store.js';
export { createExtractiveSummarizer } from './summarizers/extractive.js';
export type { ExtractiveSummarizerOptions } from './summarizers/extractive.js';
export type { Summarizer, SummarizeRequest, SummarizeResult, SourceUnit } from './summarizers/summarizer.js';
export { createO200kCounter, createApproximateCounter } from './tokens/token-counter.js';
export type { TokenCounter } from './tokens/token-counter.js';
export { extractHandles } from './handles/extract.js';
export { DEFAULT_RANK_WEIGHTS } from './ranking/rank-weights.js';
export type { RankWeights, RankWeightsInput } from './ranking/rank-weights.js';
export { spanId, verifySpan } from './model/span.js';
export type { RenderedContext, RenderedMessage } from './window/window.js';
export type { RecallResult, RecallHit } from './recall/recall.js';
export type { Gap } from './model/gaps.js';
export type { TranscriptMessage, TranscriptToolCall } from './ingest/messages.js';
export {
  LedgerError,
  HandleBudgetExceededError,
  LossyRecompactionError,
  UnsafeRecompactionError,
  ImmutableSpanError,
  SequenceConflictError,
  TenantMismatchError,
  InvalidConfigError,
  InvalidInputError,
  TranscriptParseError,
  StoreUnavailableError,
  StoreOperationError,
  ContextBudgetError,
  NotFoundError,
} from './errors.js';
export type { LedgerErrorCode } from './errors.js';
export { HANDLE_KINDS } from './types.js';
export type {
  Span,
  SourceKind,
  QuotedSource,
  Role,
  HandleKind,
  ExtractedHandle,
  Handle,
  Occurrence,
  SpanOccurrence,
  Claim,
  Finding,
  DroppedRange,
  SummarizerIdentity,
  CompactionRecord,
  SupersededValue,
  WindowConfig,
  SessionInfo,
} from './types.js';
