/**
 * A small exclusive lock file, so two hook processes of one session (Stop and PreCompact can
 * overlap) do not ingest the same lines at once. A lock older than `staleMs` is taken over.
 */
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StoreOperationError } from '../../errors.js';

/** Run `body` holding the lock `file`; waits up to `waitMs` for another holder. */
export async function withFileLock<T>(
  file: string,
  body: () => Promise<T>,
  options: { waitMs?: number; staleMs?: number } = {},
): Promise<T> {
  const waitMs = options.waitMs ?? 10_000;
  const staleMs = options.staleMs ?? 120_000;
  await mkdir(dirname(file), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await stat(file).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > staleMs) {
        await rm(file, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new StoreOperationError(
          `Lock ${file} is held by another context-ledger hook for over ${waitMs} ms; this run ingested nothing (the next hook call will).`,
          { lock: file },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await body();
  } finally {
    await rm(file, { force: true });
  }
}
