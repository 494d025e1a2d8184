/** The check both SQL stores make before they migrate or read a ledger: a newer schema than this code reads is refused. */
import { StoreUnavailableError } from '../errors.js';

/** Throws `StoreUnavailableError` when `version` is newer than `supported`, naming the ledger and what to do. */
export function checkNotNewer(version: number, supported: number, location: string): void {
  if (version > supported) {
    throw new StoreUnavailableError(
      `${location}: the ledger has schema version ${version} but this context-ledger reads up to ${supported}; ` +
        'upgrade context-ledger to open it.',
      { location, version, supported },
    );
  }
}
