/**
 * Error classes. Each has a stable `code`, typed `details`, and a static `isInstance` that
 * works across two copies of the package (it checks a global marker symbol and the code,
 * not the prototype chain).
 */
const MARKER = Symbol.for('context-ledger.error');

/** Stable error codes. */
export type LedgerErrorCode =
  | 'HANDLE_BUDGET_EXCEEDED'
  | 'LOSSY_RECOMPACTION'
  | 'UNSAFE_RECOMPACTION'
  | 'IMMUTABLE_SPAN'
  | 'SEQUENCE_CONFLICT'
  | 'TENANT_MISMATCH'
  | 'INVALID_CONFIG'
  | 'INVALID_INPUT'
  | 'TRANSCRIPT_PARSE'
  | 'STORE_UNAVAILABLE'
  | 'STORE_OPERATION'
  | 'CONTEXT_BUDGET'
  | 'NOT_FOUND';

/** What an error is about. Every field is optional; each error class names the ones it always sets. */
export interface LedgerErrorDetails {
  /** Session involved. */
  readonly sessionId?: string | undefined;
  /** Compaction record involved. */
  readonly recordId?: string | undefined;
  /** Span involved (`sha256:…`). */
  readonly spanId?: string | undefined;
  /** File involved. */
  readonly file?: string | undefined;
  /** 1-based line of `file`. */
  readonly line?: number | undefined;
  /** Field of the input that is wrong. */
  readonly field?: string | undefined;
  /** Where in the input, in words (e.g. "message 3 of this append"). */
  readonly where?: string | undefined;
  /** Store location or spec. */
  readonly store?: string | undefined;
  /** Anything else worth keeping (counts, ranges, limits). */
  readonly [key: string]: unknown;
}

/** Options passed through to `Error`. */
export interface LedgerErrorOptions {
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * Base class of every error context-ledger throws. A subclass only names its `code`; the
 * constructor, `name` and `isInstance` come from here.
 */
export abstract class LedgerError<D extends LedgerErrorDetails = LedgerErrorDetails> extends Error {
  /** The code of this class (undefined on the base class, which stands for every code). */
  static readonly code: LedgerErrorCode | undefined = undefined;
  /** Stable machine-readable code. */
  readonly code: LedgerErrorCode;
  /** Structured details (session, record, handle, file, line …). */
  readonly details: Readonly<D>;
  readonly [MARKER] = true;

  constructor(message: string, details: D = {} as D, options?: LedgerErrorOptions) {
    super(message, options);
    const errorClass = new.target as typeof LedgerError;
    this.name = errorClass.name;
    this.code = errorClass.code as LedgerErrorCode;
    this.details = details;
  }

  /**
   * True for an error of this class, even from another copy of the package: it checks a
   * global marker symbol and the code, not the prototype chain. On `LedgerError` itself,
   * true for any context-ledger error.
   */
  static isInstance<T extends abstract new (...args: never[]) => LedgerError>(
    this: T & { readonly code: LedgerErrorCode | undefined },
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[MARKER] !== true)
      return false;
    return this.code === undefined || (value as { code?: unknown }).code === this.code;
  }
}

/** Details of a handle-budget overflow. */
export interface HandleBudgetDetails extends LedgerErrorDetails {
  readonly sessionId: string;
  readonly handles: number;
  readonly tokens: number;
  readonly budgetTokens: number;
}

/** The handle index would exceed its token budget and escalation is set to throw. */
export class HandleBudgetExceededError extends LedgerError<HandleBudgetDetails> {
  static override readonly code = 'HANDLE_BUDGET_EXCEEDED' as const;
}

/** Details of a refused lossy re-compaction. */
export interface LossyRecompactionDetails extends LedgerErrorDetails {
  readonly sessionId: string;
  readonly recordId: string;
  /** Texts of the ancestor handles that would be dropped. */
  readonly missing: readonly string[];
}

/** A region holding a lossy summary would be re-compacted without carrying its handles forward. */
export class LossyRecompactionError extends LedgerError<LossyRecompactionDetails> {
  static override readonly code = 'LOSSY_RECOMPACTION' as const;
}

/** Details of a refused unsafe re-compaction. */
export interface UnsafeRecompactionDetails extends LedgerErrorDetails {
  readonly sessionId: string;
  readonly recordId: string;
  /** How many source spans are missing from the store. */
  readonly missing: number;
}

/** A re-ingested summary would be summarized again while its originals are not stored. */
export class UnsafeRecompactionError extends LedgerError<UnsafeRecompactionDetails> {
  static override readonly code = 'UNSAFE_RECOMPACTION' as const;
}

/** Something tried to overwrite or delete an immutable span or record. */
export class ImmutableSpanError extends LedgerError {
  static override readonly code = 'IMMUTABLE_SPAN' as const;
}

/** Another writer appended to the session first. */
export class SequenceConflictError extends LedgerError {
  static override readonly code = 'SEQUENCE_CONFLICT' as const;
}

/** A session was opened under a tenant other than its own. */
export class TenantMismatchError extends LedgerError {
  static override readonly code = 'TENANT_MISMATCH' as const;
}

/** Session or ledger options are invalid. */
export class InvalidConfigError extends LedgerError {
  static override readonly code = 'INVALID_CONFIG' as const;
}

/** An argument to the API is invalid. */
export class InvalidInputError extends LedgerError {
  static override readonly code = 'INVALID_INPUT' as const;
}

/** Details of a transcript that could not be parsed. */
export interface TranscriptParseDetails extends LedgerErrorDetails {
  readonly file: string;
}

/** A transcript file could not be parsed (names file, line and field). */
export class TranscriptParseError extends LedgerError<TranscriptParseDetails> {
  static override readonly code = 'TRANSCRIPT_PARSE' as const;
}

/** The store cannot be opened or reached. */
export class StoreUnavailableError extends LedgerError {
  static override readonly code = 'STORE_UNAVAILABLE' as const;
}

/** A store operation failed (names the store and the operation). */
export class StoreOperationError extends LedgerError {
  static override readonly code = 'STORE_OPERATION' as const;
}

/** The fixed parts of the context cannot fit `maxTokens`. */
export class ContextBudgetError extends LedgerError {
  static override readonly code = 'CONTEXT_BUDGET' as const;
}

/** A session, record or span does not exist. */
export class NotFoundError extends LedgerError {
  static override readonly code = 'NOT_FOUND' as const;
}
