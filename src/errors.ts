/**
 * Error classes. Each has a stable `code`, and a static `isInstance` that works across two
 * copies of the package (it checks a global marker symbol, not the prototype chain).
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

/** Base class of every error context-ledger throws. */
export class LedgerError extends Error {
  /** Stable machine-readable code. */
  readonly code: LedgerErrorCode;
  /** Structured details (session, record, handle, file, line …). */
  readonly details: Readonly<Record<string, unknown>>;
  readonly [MARKER] = true;

  constructor(code: LedgerErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
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

function defineError<C extends LedgerErrorCode>(code: C, name: string) {
  const ErrorClass = class extends LedgerError {
    constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
      super(code, message, details, options);
      this.name = name;
    }
    static override isInstance(value: unknown): value is LedgerError & { code: C } {
      return LedgerError.isInstance(value) && value.code === code;
    }
  };
  Object.defineProperty(ErrorClass, 'name', { value: name });
  return ErrorClass;
}

/** The handle index would exceed its token budget and escalation is set to throw. */
export const HandleBudgetExceededError = defineError('HANDLE_BUDGET_EXCEEDED', 'HandleBudgetExceededError');
/** A region holding a lossy summary would be re-compacted without carrying its handles forward. */
export const LossyRecompactionError = defineError('LOSSY_RECOMPACTION', 'LossyRecompactionError');
/** A re-ingested summary would be summarized again while its originals are not stored. */
export const UnsafeRecompactionError = defineError('UNSAFE_RECOMPACTION', 'UnsafeRecompactionError');
/** Something tried to overwrite or delete an immutable span or record. */
export const ImmutableSpanError = defineError('IMMUTABLE_SPAN', 'ImmutableSpanError');
/** Another writer appended to the session first. */
export const SequenceConflictError = defineError('SEQUENCE_CONFLICT', 'SequenceConflictError');
/** A session was opened under a tenant other than its own. */
export const TenantMismatchError = defineError('TENANT_MISMATCH', 'TenantMismatchError');
/** Session or ledger options are invalid. */
export const InvalidConfigError = defineError('INVALID_CONFIG', 'InvalidConfigError');
/** An argument to the API is invalid. */
export const InvalidInputError = defineError('INVALID_INPUT', 'InvalidInputError');
/** A transcript file could not be parsed (names file, line and field). */
export const TranscriptParseError = defineError('TRANSCRIPT_PARSE', 'TranscriptParseError');
/** The store cannot be opened or reached. */
export const StoreUnavailableError = defineError('STORE_UNAVAILABLE', 'StoreUnavailableError');
/** A store operation failed (names the store and the operation). */
export const StoreOperationError = defineError('STORE_OPERATION', 'StoreOperationError');
/** The fixed parts of the context cannot fit `maxTokens`. */
export const ContextBudgetError = defineError('CONTEXT_BUDGET', 'ContextBudgetError');
/** A session, record or span does not exist. */
export const NotFoundError = defineError('NOT_FOUND', 'NotFoundError');
