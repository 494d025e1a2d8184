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

/** Base class of every error context-ledger throws. */
export class LedgerError<D extends LedgerErrorDetails = LedgerErrorDetails> extends Error {
  /** Stable machine-readable code. */
  readonly code: LedgerErrorCode;
  /** Structured details (session, record, handle, file, line …). */
  readonly details: Readonly<D>;
  readonly [MARKER] = true;

  constructor(code: LedgerErrorCode, message: string, details: D = {} as D, options?: LedgerErrorOptions) {
    super(message, options);
    this.name = 'LedgerError';
    this.code = code;
    this.details = details;
  }

  /** True for any context-ledger error, even from another copy of the package. */
  static isInstance(value: unknown): value is LedgerError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** True when `value` is a context-ledger error with this code (across package copies). */
function hasCode(value: unknown, code: LedgerErrorCode): boolean {
  return LedgerError.isInstance(value) && value.code === code;
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
  constructor(message: string, details: HandleBudgetDetails, options?: LedgerErrorOptions) {
    super('HANDLE_BUDGET_EXCEEDED', message, details, options);
    this.name = 'HandleBudgetExceededError';
  }
  static override isInstance(value: unknown): value is HandleBudgetExceededError {
    return hasCode(value, 'HANDLE_BUDGET_EXCEEDED');
  }
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
  constructor(message: string, details: LossyRecompactionDetails, options?: LedgerErrorOptions) {
    super('LOSSY_RECOMPACTION', message, details, options);
    this.name = 'LossyRecompactionError';
  }
  static override isInstance(value: unknown): value is LossyRecompactionError {
    return hasCode(value, 'LOSSY_RECOMPACTION');
  }
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
  constructor(message: string, details: UnsafeRecompactionDetails, options?: LedgerErrorOptions) {
    super('UNSAFE_RECOMPACTION', message, details, options);
    this.name = 'UnsafeRecompactionError';
  }
  static override isInstance(value: unknown): value is UnsafeRecompactionError {
    return hasCode(value, 'UNSAFE_RECOMPACTION');
  }
}

/** Something tried to overwrite or delete an immutable span or record. */
export class ImmutableSpanError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('IMMUTABLE_SPAN', message, details, options);
    this.name = 'ImmutableSpanError';
  }
  static override isInstance(value: unknown): value is ImmutableSpanError {
    return hasCode(value, 'IMMUTABLE_SPAN');
  }
}

/** Another writer appended to the session first. */
export class SequenceConflictError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('SEQUENCE_CONFLICT', message, details, options);
    this.name = 'SequenceConflictError';
  }
  static override isInstance(value: unknown): value is SequenceConflictError {
    return hasCode(value, 'SEQUENCE_CONFLICT');
  }
}

/** A session was opened under a tenant other than its own. */
export class TenantMismatchError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('TENANT_MISMATCH', message, details, options);
    this.name = 'TenantMismatchError';
  }
  static override isInstance(value: unknown): value is TenantMismatchError {
    return hasCode(value, 'TENANT_MISMATCH');
  }
}

/** Session or ledger options are invalid. */
export class InvalidConfigError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('INVALID_CONFIG', message, details, options);
    this.name = 'InvalidConfigError';
  }
  static override isInstance(value: unknown): value is InvalidConfigError {
    return hasCode(value, 'INVALID_CONFIG');
  }
}

/** An argument to the API is invalid. */
export class InvalidInputError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('INVALID_INPUT', message, details, options);
    this.name = 'InvalidInputError';
  }
  static override isInstance(value: unknown): value is InvalidInputError {
    return hasCode(value, 'INVALID_INPUT');
  }
}

/** Details of a transcript that could not be parsed. */
export interface TranscriptParseDetails extends LedgerErrorDetails {
  readonly file: string;
}

/** A transcript file could not be parsed (names file, line and field). */
export class TranscriptParseError extends LedgerError<TranscriptParseDetails> {
  constructor(message: string, details: TranscriptParseDetails, options?: LedgerErrorOptions) {
    super('TRANSCRIPT_PARSE', message, details, options);
    this.name = 'TranscriptParseError';
  }
  static override isInstance(value: unknown): value is TranscriptParseError {
    return hasCode(value, 'TRANSCRIPT_PARSE');
  }
}

/** The store cannot be opened or reached. */
export class StoreUnavailableError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('STORE_UNAVAILABLE', message, details, options);
    this.name = 'StoreUnavailableError';
  }
  static override isInstance(value: unknown): value is StoreUnavailableError {
    return hasCode(value, 'STORE_UNAVAILABLE');
  }
}

/** A store operation failed (names the store and the operation). */
export class StoreOperationError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('STORE_OPERATION', message, details, options);
    this.name = 'StoreOperationError';
  }
  static override isInstance(value: unknown): value is StoreOperationError {
    return hasCode(value, 'STORE_OPERATION');
  }
}

/** The fixed parts of the context cannot fit `maxTokens`. */
export class ContextBudgetError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('CONTEXT_BUDGET', message, details, options);
    this.name = 'ContextBudgetError';
  }
  static override isInstance(value: unknown): value is ContextBudgetError {
    return hasCode(value, 'CONTEXT_BUDGET');
  }
}

/** A session, record or span does not exist. */
export class NotFoundError extends LedgerError {
  constructor(message: string, details: LedgerErrorDetails = {}, options?: LedgerErrorOptions) {
    super('NOT_FOUND', message, details, options);
    this.name = 'NotFoundError';
  }
  static override isInstance(value: unknown): value is NotFoundError {
    return hasCode(value, 'NOT_FOUND');
  }
}
