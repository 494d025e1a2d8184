/**
 * Maps errors from better-sqlite3 to context-ledger errors that name the store and operation.
 */
import { ImmutableSpanError, LedgerError, StoreOperationError, StoreUnavailableError } from '../../errors.js';

function driverCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Turns any error thrown during `operation` into a `LedgerError`; ledger errors pass through. */
export function mapDriverError(
  location: string,
  operation: string,
  error: unknown,
  busyTimeoutMs: number,
): LedgerError {
  if (LedgerError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = driverCode(error);
  const details = { location, operation, driverCode: code };
  if (/^context-ledger: \w+ are immutable/.test(message)) {
    return new ImmutableSpanError(
      `${location}: ${operation} failed: ${message}; write new spans or records instead of changing stored ones.`,
      details,
      { cause: error },
    );
  }
  if (code === 'SQLITE_BUSY' || code?.startsWith('SQLITE_BUSY_')) {
    return new StoreOperationError(
      `${location}: ${operation} failed: another connection held the database lock ` +
        `for more than ${busyTimeoutMs} ms (${message}); retry later.`,
      details,
      { cause: error },
    );
  }
  if (code === 'SQLITE_READONLY' || code?.startsWith('SQLITE_READONLY_')) {
    return new StoreOperationError(
      `${location}: ${operation} failed: the database is read-only (${message}); open it with readonly: false on a writable path.`,
      details,
      {
        cause: error,
      },
    );
  }
  if (code === 'SQLITE_FULL' || code?.startsWith('SQLITE_IOERR')) {
    return new StoreOperationError(
      `${location}: ${operation} failed: ${message} (${code}); the disk is probably full or failing: ` +
        'free space or check the device, then retry (the transaction was rolled back, earlier data is intact).',
      details,
      { cause: error },
    );
  }
  if (error instanceof TypeError && /not open/.test(message)) {
    return new StoreUnavailableError(
      `${location}: ${operation} failed: the store is closed; create a new store with createSqliteStore.`,
      details,
      { cause: error },
    );
  }
  return new StoreOperationError(`${location}: ${operation} failed: ${message}`, details, { cause: error });
}
