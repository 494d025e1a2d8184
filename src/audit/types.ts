/**
 * The document `context-ledger audit --json` prints, and that the HTML report is drawn from.
 * Every field here is part of the CLI's output contract (see README "Audit your own sessions").
 */
import type { Gap } from '../model/gaps.js';
import type { SupersededValue } from '../types.js';
import type { HandleKind, Role } from '../types.js';

/** Handle counts by kind; kinds with no handle are left out. */
export type KindCounts = Partial<Record<HandleKind, number>>;

/** How `session.recall(text)` answered for a handle, on the context-ledger session of the comparison. */
export type LedgerRecallStatus = 'verified' | 'unverified' | 'gap';

/** Where a handle first appeared before a boundary. */
export interface HandleSource {
  /** Handle kind. */
  readonly kind: HandleKind;
  /** Verbatim text of its first appearance. */
  readonly text: string;
  /** Seq of the span it first appeared in (context-ledger seq: one per message, tool call or chunk). */
  readonly firstSeq: number;
  /** Source label of that span (a Claude Code uuid, a Codex `FILE:LINE`), or `null`. */
  readonly firstLabel: string | null;
  /** Role of that span. */
  readonly role: Role;
}

/**
 * A future-needed handle: the agent used it after the boundary (in assistant text or
 * tool-call arguments), and it had appeared before the boundary.
 */
export interface FutureNeededHandle extends HandleSource {
  /** The agent's own summary contains one of its verbatim forms. */
  readonly keptByAgent: boolean;
  /** context-ledger's record at the same footprint holds it (handle set or summary prose; not the checkpoint). */
  readonly inLedgerWindow: boolean;
  /** Not in context-ledger's window but in its spill checkpoint (outside the window, one recall away). */
  readonly inLedgerCheckpoint: boolean;
  /** What `session.recall(text)` returns on the context-ledger session. */
  readonly ledgerRecall: LedgerRecallStatus;
}

/** A negative constraint the user gave before the boundary. */
export interface ConstraintAudit extends HandleSource {
  /** context-ledger pinned it in the window. */
  readonly inLedgerWindow: boolean;
}

/** What context-ledger keeps for the same region at the agent summary's footprint. */
export interface LedgerComparison {
  /** Tokens of the ledger block in the window (summary, pinned constraints, handle index, frame lines). */
  readonly tokens: number;
  /** Tokens of its summary prose alone. */
  readonly summaryTokens: number;
  /**
   * The budgets the comparison used: summary 30%, handles 70% of the agent's tokens minus the
   * ledger frame (160).
   */
  readonly budgets: { readonly summaryBudgetTokens: number; readonly handleBudgetTokens: number };
  /** Future-needed handles in the window (record handle set or summary prose). */
  readonly futureNeededInWindow: number;
  /** Future-needed handles in the window, in the checkpoint, or recall-verified. */
  readonly futureNeededReachable: number;
  /** User constraints (of those before the boundary) pinned in the window. */
  readonly constraintsKept: number;
  /** The record written. */
  readonly recordId: string;
  /** Whether that record is reversible. */
  readonly reversible: boolean;
  /** Handles in the window by kind. */
  readonly keptInWindow: KindCounts;
  /** Handles spilled to the checkpoint by kind. */
  readonly keptInCheckpoint: KindCounts;
}

/** One of the agent's own compactions. */
export interface CompactionAudit {
  /** Source label of the summary record (Claude Code: the isCompactSummary record's uuid). */
  readonly label: string | null;
  /** Who wrote it, e.g. `claude-code 2.1.17`. */
  readonly summarizer: string;
  /** Seq of the first span after the boundary (= number of spans before it). */
  readonly seqBoundary: number;
  /** Tokens of the agent's summary (o200k_base). */
  readonly agentSummaryTokens: number;
  /** Distinct handles (kind + normalised key) in all messages before the boundary, by kind. */
  readonly handlesBefore: KindCounts;
  /** Of those, how many the agent's summary contains verbatim, by kind. */
  readonly keptByAgent: KindCounts;
  /** Future-needed handles, in order of first appearance. */
  readonly futureNeeded: readonly FutureNeededHandle[];
  /** User constraints said before the boundary. */
  readonly userConstraints: number;
  /** User constraints the agent's summary does not contain verbatim. */
  readonly lostConstraints: readonly ConstraintAudit[];
  /** context-ledger at the same footprint. */
  readonly ledger: LedgerComparison;
}

/** One compaction generation: a record in the lineage. */
export interface GenerationAudit {
  /** 1-based generation number. */
  readonly generation: number;
  /** Who wrote it: the agent (an `external` record) or context-ledger. */
  readonly writer: 'agent' | 'context-ledger';
  /** Record id. */
  readonly recordId: string;
  /** Its depth. */
  readonly depth: number;
  /** Reversible (lossless) or lossy. */
  readonly reversible: boolean;
  /** Records it compacted. */
  readonly ancestors: readonly string[];
  /** First seq it dropped from the window; null when it covers no stored message (see `preLedger`). */
  readonly fromSeq: number | null;
  /** Last seq it dropped (inclusive); null when it covers no stored message. */
  readonly toSeq: number | null;
  /** The dropped range in words: `seq 3-41`, or what a range that covers no stored message stands for. */
  readonly range: string;
  /** Set when the range is null: what it covered, and that its originals were never stored. */
  readonly preLedger?: string;
  /** Tokens it occupies in the window (agent: the summary; context-ledger: the ledger block). */
  readonly tokens: number;
  /** Distinct handles at seq ≤ toSeq, by kind. */
  readonly handlesBefore: KindCounts;
  /** Handles it keeps in the window, by kind. */
  readonly keptInWindow: KindCounts;
  /** Handles in its checkpoint (outside the window), by kind. */
  readonly keptInCheckpoint: KindCounts;
  /** Future-needed handles (used by the agent before the next generation, present at seq ≤ toSeq). */
  readonly futureNeeded: number;
  /** Of those, in the window. */
  readonly futureNeededInWindow: number;
  /** Of those, in the window, the checkpoint, or recall-verified. */
  readonly futureNeededReachable: number;
  /** The future-needed handles not in the window. */
  readonly lost: readonly HandleSource[];
  /**
   * Values of the region a later binding replaced, as the record carries them (`handle` replaced by `by`, said in span
   * `bySpan` at seq `bySeq`, both verbatim); left out when the record replaced nothing.
   */
  readonly superseded?: readonly SupersededValue[] | undefined;
}

/** A source span quoted in the report (the appendix an HTML link `#span-<seq>` points to). */
export interface SourceSpan {
  /** Seq. */
  readonly seq: number;
  /** Source label or `null`. */
  readonly label: string | null;
  /** Role. */
  readonly role: Role;
  /** Up to ~600 characters around the first handle that points here, verbatim (not escaped). */
  readonly excerpt: string;
}

/** One conversation of a file. */
export interface SessionAudit {
  /** Session id (the file name, or the importer's session id for multi-session files). */
  readonly sessionId: string;
  /** Spans the transcript became. */
  readonly spans: number;
  /** `agent`: the agent's own compactions were audited; `replay`: none, replayed through context-ledger. */
  readonly mode: 'agent' | 'replay';
  /** The agent's compactions (empty in `replay` mode). */
  readonly compactions: readonly CompactionAudit[];
  /** The lineage: agent records and context-ledger's counterparts, or context-ledger's own records. */
  readonly generations: readonly GenerationAudit[];
  /** Known gaps (one per lossy record). */
  readonly gaps: readonly Gap[];
  /** Source spans the lost handles and constraints point to, by seq. */
  readonly sourceSpans: readonly SourceSpan[];
}

/** One audited file. */
export interface FileAudit {
  /** Path as given. */
  readonly file: string;
  /** Detected or given format. */
  readonly format: string;
  /** Invalid lines skipped under `--skip-invalid`. */
  readonly skipped: number;
  /** Its conversations (empty when the file failed). */
  readonly sessions: readonly SessionAudit[];
  /** Present only when the file could not be audited: the error's code and message (file, line, what to do). */
  readonly error?: { readonly code: string; readonly message: string } | undefined;
}

/** The whole `--json` document. */
export interface AuditDocument {
  /** Audited files, in the order given. */
  readonly files: readonly FileAudit[];
}
