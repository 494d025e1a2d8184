/**
 * Maps errors from `pg` to context-ledger errors that name the store, the operation and what
 * to do next.
 */
import { spanIdOfRowKey } from '../store-input.js';
import {
  ImmutableSpanError,
  InvalidInputError,
  LedgerError,
  SequenceConflictError,
  StoreOperationError,
  StoreUnavailableError,
} from '../../errors.js';

/** What the user should check when the server cannot be reached. */
export const UNREACHABLE_ADVICE =
  'is the PostgreSQL server running and reachable? Check the connection string (user, host, port and database)';

/** Network error codes of Node and SQLSTATEs that mean "no usable connection". */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '3D000',
  '28000',
  '28P01',
]);

/** Messages of the pg driver and pool that mean the connection is gone or was never made (no SQLSTATE). */
const CONNECTION_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Client was closed',
    'not queryable',
  ].join('|'),
  'i',
);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when `error` means the connection is gone or could not be made (server down, killed
 * backend, network), as opposed to a failure of the statement itself.
 */
export function isConnectionError(error: unknown): boolean {
  if (LedgerError.isInstance(error)) return false;
  const code = codeOf(error);
  if (code !== undefined && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  const message = error instanceof Error ? error.message : String(error);
  return CONNECTION_MESSAGE.test(message);
}

/** Turns any error thrown during `operation` into a `LedgerError`; ledger errors pass through. */
export function mapPostgresError(location: string, operation: string, error: unknown): LedgerError {
  if (LedgerError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = codeOf(error);
  const details = { location, operation, driverCode: code };
  const options = { cause: error };
  const conflict = /^context-ledger: span content conflict: (\S+)/.exec(message);
  if (conflict) {
    const spanId = spanIdOfRowKey(conflict[1] ?? '');
    return new ImmutableSpanError(
      `${location}: ${operation} failed: span ${spanId} is already stored with other content; ` +
        'refusing to reuse it (nothing was written). ' +
        'The stored row was changed below the API or written by an older version under an ambiguous id: ' +
        'check the ledger (replay its transcript into a new ledger) before appending again.',
      { ...details, spanId },
      options,
    );
  }
  if (/^context-ledger: \w+ are immutable/.test(message)) {
    return new ImmutableSpanError(
      `${location}: ${operation} failed: ${message}; write new spans or records instead of changing stored ones.`,
      details,
      options,
    );
  }
  if (isConnectionError(error)) {
    const what =
      code === '3D000'
        ? 'the database does not exist'
        : code?.startsWith('28')
          ? 'authentication failed'
          : 'the connection failed or was lost';
    return new StoreUnavailableError(
      `${location}: ${operation} failed: ${what} (${message}); ${UNREACHABLE_ADVICE}. ` +
        'A write interrupted this way may or may not have been committed: re-read (nextSeq, records) before retrying.',
      details,
      options,
    );
  }
  if (code === '23505' && /occurrences_pkey/.test(message)) {
    return new SequenceConflictError(
      `${location}: ${operation} failed: another writer took the same seq (${message}); re-read the session (nextSeq) and retry.`,
      details,
      options,
    );
  }
  if (code === '22021' || code === '22P05') {
    return new InvalidInputError(
      `${location}: ${operation} failed: PostgreSQL cannot store this text (${message}); ` +
        'remove U+0000 characters from ids, labels and handles.',
      details,
      options,
    );
  }
  if (code === '25006') {
    return new StoreOperationError(
      `${location}: ${operation} failed: the database is read-only (${message}); connect to the primary or a writable database.`,
      details,
      options,
    );
  }
  if (code === '53100') {
    return new StoreOperationError(
      `${location}: ${operation} failed: the server's disk is full (${message}); free space on the database server, then retry.`,
      details,
      options,
    );
  }
  const state = code === undefined ? '' : ` (SQLSTATE ${code})`;
  return new StoreOperationError(`${location}: ${operation} failed: ${message}${state}`, details, options);
}
