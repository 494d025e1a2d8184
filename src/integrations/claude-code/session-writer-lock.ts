/**
 * The writer lock of one ledger session: the lock file the hook's ingest holds (beside its ingest
 * state), taken by `replay` too, so a writer decides what to append — "does the session already
 * hold spans?" — and appends it under one lock, and a hook commit can never fall between a
 * replay's check and its appends. A memory store lives in one process: it needs no lock file.
 */
import { parseSqliteSpec } from '../../stores/store-spec.js';
import { withFileLock } from './file-lock.js';
import type { FileLockOptions } from './file-lock.js';
import { ingestDirectoryOf, sessionIngestFiles } from './ledger-home.js';
import type { LedgerEnvironment } from './ledger-home.js';

/** The writer lock file of a session of the store `spec` (undefined for a memory store). */
export function sessionWriterLockFile(
  spec: string,
  sessionId: string,
  environment: LedgerEnvironment = process.env,
): string | undefined {
  if (spec === 'memory:' || spec === 'memory') return undefined;
  if (spec.startsWith('sqlite:') && parseSqliteSpec(spec).path === ':memory:') return undefined;
  return sessionIngestFiles(ingestDirectoryOf(spec, environment), sessionId).lockFile;
}

/** Run `body` holding the writer lock of session `sessionId` of the store `spec` (see {@link withFileLock}). */
export async function withSessionWriterLock<T>(
  spec: string,
  sessionId: string,
  body: () => Promise<T>,
  options: FileLockOptions & { environment?: LedgerEnvironment | undefined } = {},
): Promise<T> {
  const file = sessionWriterLockFile(spec, sessionId, options.environment);
  return file === undefined ? body() : withFileLock(file, body, options);
}
