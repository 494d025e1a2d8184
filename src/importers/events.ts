/**
 * The events every transcript importer yields, and the importer interface the registry
 * dispatches to.
 */
import type { TranscriptParseError } from '../errors.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { TranscriptInputs } from './transcript-input.js';

/** A transcript parse failure (kept as an alias for existing imports). */
export type TranscriptParseFailure = TranscriptParseError;

/** Formats the importers read. */
export type ImportFormat =
  'openai' | 'jsonl' | 'claude-code' | 'codex' | 'anthropic' | 'ai-sdk' | 'swe-agent' | 'locomo';

/** The summarizer that wrote an agent's own compaction summary. */
export interface CompactionSummarizer {
  /** Agent or summarizer name, e.g. `claude-code`, `codex`. */
  readonly name: string;
  /** Its version, or `unknown`. */
  readonly version: string;
}

/** What an importer yields. */
export type TranscriptEvent =
  /** A new conversation starts (multi-conversation files: SWE-agent JSONL, LoCoMo). */
  | { readonly type: 'session'; readonly sessionId: string; readonly label?: string | undefined }
  /** One message; `message.label` carries the source label (file:line, a uuid, a LoCoMo dia_id like `D1:3`). */
  | { readonly type: 'message'; readonly message: TranscriptMessage }
  /** The agent's own compaction (Claude Code compact_boundary + isCompactSummary, Codex `compacted`). */
  | {
      readonly type: 'compaction';
      readonly summary: string;
      readonly summarizer: CompactionSummarizer;
      readonly label?: string | undefined;
    };

/**
 * What an importer's reader yields before provenance is granted (see `provenance.ts`): a message event carries the
 * importer's word on whether a person wrote it. `affirmed: true` means the format says so (the user typed it, or it is
 * the system prompt whoever set up the agent wrote); every other user or system message is stored as source `harness`.
 */
export type ImportedEvent =
  | Exclude<TranscriptEvent, { readonly type: 'message' }>
  | { readonly type: 'message'; readonly message: TranscriptMessage; readonly affirmed: boolean };

/**
 * What a format writes in a user or system role, in words: what a person typed there (the importer affirms it, and it
 * may be pinned as an instruction), and everything else (quoted as the harness's or a tool's text, never pinned).
 */
export interface FormatProvenance {
  /** Records a person typed (the user's words, or the system prompt whoever set up the agent wrote). */
  readonly typed: readonly string[];
  /** Records in a user or system role that no person typed there. */
  readonly quoted: readonly string[];
}

/** Options every importer accepts. */
export interface ImportOptions {
  /** Skip records that do not parse (each is reported to `onSkip`) instead of failing. */
  readonly skipInvalid?: boolean | undefined;
  /** Called for every skipped record. */
  readonly onSkip?: ((error: TranscriptParseFailure) => void) | undefined;
  /** Called with bytes read so far, for progress. */
  readonly onProgress?: ((bytesRead: number, totalBytes: number) => void) | undefined;
  /**
   * Called with a warning that is not an error, naming file and line: today, a JSONL file whose
   * last line is unfinished (the transcript is still being written), which is ignored.
   */
  readonly onWarning?: ((message: string) => void) | undefined;
  /**
   * The owner of the inputs that are not regular files (a pipe, a FIFO, `/dev/stdin`): each is read once and held
   * by it, so a caller that reads one path several times (detect, read, explain a failure) passes the same one each
   * time. Default: one per read.
   */
  readonly inputs?: TranscriptInputs | undefined;
}

/** One transcript format: how to recognise it and how to read it. */
export interface Importer {
  /** The format it reads. */
  readonly format: ImportFormat;
  /** What the format's user and system roles hold that a person typed, and what they hold that no person typed. */
  readonly provenance: FormatProvenance;
  /** True when `head` (the first ~64 KB of `file`, possibly cut mid-line) looks like this format. */
  detect(head: string, file: string): boolean;
  /** Read `file` as a stream of events. Errors are `TranscriptParseError`s naming file, line or record, and field. */
  read(file: string, options: ImportOptions): AsyncGenerator<TranscriptEvent>;
}
