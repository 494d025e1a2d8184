/**
 * Core data types shared by every part of context-ledger: spans, occurrences,
 * handles, compaction records and sessions. Stores persist exactly these shapes.
 */

/**
 * The kind of transcript unit a span came from: its true source. Part of the span's content address, so it cannot be
 * changed without changing the id. Besides the chat roles' own kinds:
 * - `harness`: text the agent harness put in a user turn that the user did not type (Claude Code's file attachments,
 *   command output, command wrappers, task notifications, system reminders, interruption markers);
 * - `client`: text a tool client wrote in the user's or system's role through the MCP `append` tool.
 * Both are shown in a user turn but are never pinned as instructions: their constraints are quoted output.
 */
export type SourceKind = 'system' | 'user' | 'assistant' | 'tool-call' | 'tool-result' | QuotedSource;

/** A source that writes in a user turn without being the user (see {@link SourceKind}). */
export type QuotedSource = 'harness' | 'client';

/** The chat role a span is shown under when rendered. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** Every handle kind the extractor knows. */
export const HANDLE_KINDS = [
  'constraint',
  'path',
  'url',
  'endpoint',
  'identifier',
  'version',
  'assignment',
  'number',
  'email',
  'date',
  'error',
] as const;

/** A kind of verbatim discriminator. */
export type HandleKind = (typeof HANDLE_KINDS)[number];

/**
 * One original unit of a transcript, immutable and addressed by the SHA-256 of its
 * canonical bytes (see `canonicalSpanBytes`).
 */
export interface Span {
  /** `sha256:` followed by the hex digest of the canonical bytes. */
  readonly id: string;
  /** Where the span came from. */
  readonly kind: SourceKind;
  /** The verbatim text. */
  readonly text: string;
  /** Tool name, for tool calls and tool results. */
  readonly toolName?: string | undefined;
  /** Tool call id linking a tool call to its result. */
  readonly toolCallId?: string | undefined;
  /** Token count, computed once at append with the session's counter. */
  readonly tokens: number;
}

/** A handle as extracted from one span: verbatim text plus where it sits. */
export interface ExtractedHandle {
  /** The handle kind. */
  readonly kind: HandleKind;
  /** The verbatim text, byte for byte as in the span. */
  readonly text: string;
  /** A normalized key used for dedup and lookup; never shown in place of `text`. */
  readonly key: string;
  /** Start offset (UTF-16 code units) in the span text. */
  readonly start: number;
  /** End offset (exclusive) in the span text. */
  readonly end: number;
}

/** `Handle.spanId` of a handle-like token of an external summary that no stored span holds (its seq is -1). */
export const UNRESOLVED_SPAN = 'unresolved';

/** A handle placed in a session: the extracted handle plus its span and source role. */
export interface Handle extends ExtractedHandle {
  /** The span the handle was copied from. */
  readonly spanId: string;
  /** Sequence number of the first occurrence in the session. */
  readonly seq: number;
  /**
   * Who the words are from, as the span's kind says (`handleRoleOf`): `user` and `system` only for what the user typed
   * and the system prompt; `tool` for tool output and for text in a user turn the user did not type (`harness`,
   * `client` spans). A constraint from `tool` is quoted output, not an instruction.
   */
  readonly role: Role;
  /** Token cost of showing this handle in the index, counted once. */
  readonly tokens: number;
}

/** A span placed in a session. */
export interface Occurrence {
  /** The session. */
  readonly sessionId: string;
  /** Gapless sequence number within the session, from 0. */
  readonly seq: number;
  /** The span. */
  readonly spanId: string;
  /** Role the span is rendered under. */
  readonly role: Role;
  /** Byte range of the span in the session transcript (UTF-8). */
  readonly byteStart: number;
  /** End of the byte range (exclusive). */
  readonly byteEnd: number;
  /** Optional label from the source (a LoCoMo `dia_id`, a Claude Code uuid, a file line). */
  readonly label?: string | undefined;
  /** When a large message was chunked: chunk index and count. */
  readonly chunk?: { readonly index: number; readonly count: number } | undefined;
}

/** An occurrence joined with its span. */
export interface SpanOccurrence extends Occurrence {
  /** The span itself. */
  readonly span: Span;
}

/** One sentence of a summary with the spans it came from. */
export interface Claim {
  /** The sentence as written in the summary. */
  readonly text: string;
  /** The span ids it cites. */
  readonly spanIds: readonly string[];
}

/** Something verification found wrong with a summary. */
export interface Finding {
  /** What kind of problem. */
  readonly code:
    | 'invented-handle'
    | 'altered-handle'
    | 'missing-originals'
    | 'lossy-ancestor'
    | 'uncited-claim'
    | 'external-summary'
    | 'tampered-handle'
    | 'polarity-flip'
    | 'contradicts-constraint';
  /** Human-readable description naming the handle or span. */
  readonly message: string;
  /** The handle-like token involved, verbatim, if any. */
  readonly token?: string | undefined;
}

/** The range of the session a record dropped from the window. */
export interface DroppedRange {
  /** First sequence number covered. */
  readonly fromSeq: number;
  /** Last sequence number covered (inclusive). */
  readonly toSeq: number;
  /** First byte of the range in the session transcript. */
  readonly byteStart: number;
  /** End byte (exclusive). */
  readonly byteEnd: number;
}

/** Identity of the summarizer that wrote a record. */
export interface SummarizerIdentity {
  /** Name, e.g. `extractive` or `ai-sdk:openai/gpt-4o`. */
  readonly name: string;
  /** Version of the summarizer or its prompt. */
  readonly version: string;
}

/**
 * One compaction: a summary that replaces a region of the window, with the verbatim
 * handle set, lineage and a reversible flag. Records are immutable once written.
 */
/** A handle of the compacted region that a later binding replaced, and that binding. */
export interface SupersededValue {
  /** The replaced handle's text, verbatim (the handle itself is in the record's spill checkpoint). */
  readonly handle: string;
  /** The seq of the span that said it. */
  readonly seq: number;
  /** The text of the handle that replaced it, verbatim. */
  readonly by: string;
  /** The id of the span that said `by`. */
  readonly bySpan: string;
  /** Its seq (never before `seq`). */
  readonly bySeq: number;
}

export interface CompactionRecord {
  /** `rec_` + hash of the record's content, or `chk_` for a spill checkpoint. */
  readonly id: string;
  /** The session. */
  readonly sessionId: string;
  /** Order of the record within the session, from 0. */
  readonly ordinal: number;
  /** `summary` replaces a region; `checkpoint` holds spilled handles; `external` is a summary written by another tool. */
  readonly type: 'summary' | 'checkpoint' | 'external';
  /** Summary prose (empty for checkpoints). */
  readonly summary: string;
  /** Summary sentences with their cited spans. */
  readonly claims: readonly Claim[];
  /** Every handle carried by this record, verbatim (not counting those spilled to `checkpointId`). */
  readonly handles: readonly Handle[];
  /** True only when the record is a lossless projection (see ARCHITECTURE invariant 5). */
  readonly reversible: boolean;
  /** 1 + max depth of summaries it compacted; 0 for checkpoints. */
  readonly depth: number;
  /** The range dropped from the window. */
  readonly droppedRange: DroppedRange;
  /** Records this one compacted (directly), oldest first. */
  readonly ancestors: readonly string[];
  /** The spill checkpoint that holds handles carried but not shown, if any. */
  readonly checkpointId?: string | undefined;
  /** Whether the summary was re-derived from stored originals instead of from a summary. */
  readonly rederived: boolean;
  /** Who wrote the summary. */
  readonly summarizer: SummarizerIdentity;
  /** Verification findings (why a record is lossy). */
  readonly findings: readonly Finding[];
  /** Token count of the summary prose. */
  readonly summaryTokens: number;
  /** The session's next sequence number when the record was written (for replay at a point). */
  readonly atSeq: number;
  /** ISO timestamp. */
  readonly createdAt: string;
  /**
   * The handles of the compacted region a later binding replaced, each with the handle that replaced it (see
   * `model/record-supersession.ts`); left out when none was. Summary and external records only.
   */
  readonly superseded?: readonly SupersededValue[] | undefined;
}

/** Configuration of a session's window. */
export interface WindowConfig {
  /** Hard limit of the rendered context in tokens. */
  readonly maxTokens: number;
  /**
   * Fraction of `maxTokens` over which the window acts: first masking, then, if that is not enough, compaction (default 1:
   * only when the context would not fit).
   */
  readonly compactAt: number;
  /**
   * Fraction of `maxTokens` the context holds right after a compaction or a masking step (default by window size: 0.9
   * under 8,000 tokens, 0.85 under 16,000, 0.5 from 16,000; at most `compactAt`; `compactAt − targetFill` is the
   * headroom the next turns use before the next step): the compaction boundary is chosen so that system prompt +
   * ledger block + recent turns come to about this much.
   */
  readonly targetFill: number;
  /** Explicit cap on the recent original turns kept after a compaction; unset, `targetFill` decides. */
  readonly keepRecentTokens?: number | undefined;
  /** Token budget of the handle index shown in the window (a ceiling: the index uses only what its handles need). */
  readonly handleBudgetTokens: number;
  /**
   * True when `handleBudgetTokens` was not given: the index may then grow past it when the compacted region
   * holds more handles, as long as recent turns keep `minRecentShare` of `maxTokens`.
   */
  readonly adaptiveHandleBudget: boolean;
  /**
   * Share of `maxTokens` an adaptive handle index always leaves to recent turns (default 0.15): below it, the index
   * stops growing and further handles spill to a checkpoint.
   */
  readonly minRecentShare: number;
  /** Token budget of the summary prose (a ceiling). */
  readonly summaryBudgetTokens: number;
  /** What to do when handles exceed their budget: spill to a checkpoint, or throw. */
  readonly onHandleOverflow: 'spill' | 'throw';
  /** Deepest cascade allowed before a summary is re-derived from stored originals. */
  readonly maxDepth: number;
  /** Largest span in tokens; larger messages are chunked at append. */
  readonly maxSpanTokens: number;
  /** Whether old bulky tool results are masked (replaced by a recallable one-line stub) before anything is summarized. */
  readonly maskToolResults: boolean;
  /** Smallest tool result (tokens) that may be masked. */
  readonly maskMinTokens: number;
  /** Tokens of the most recent turns whose tool results are never masked. */
  readonly maskProtectRecentTokens: number;
}

/** A session as the store knows it. */
export interface SessionInfo {
  /** Session id. */
  readonly id: string;
  /** Optional tenant grouping sessions for isolation. */
  readonly tenantId?: string | undefined;
  /** ISO creation time. */
  readonly createdAt: string;
}
