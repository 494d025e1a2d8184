/**
 * A named pipe (FIFO) for tests of inputs that are not regular files: it gives its bytes once per writer, like
 * `<(cat f)` or `/dev/stdin`. A read of it with no writer (or a write with no reader) waits; `release` ends such a wait
 * when a test failed, so no open call is left hanging.
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a write and its read may take before the test fails (they wait on each other forever when one is missing). */
const WAIT_MS = 5_000;

/** A FIFO in a fresh directory. */
export interface Fifo {
  readonly path: string;
  /** Runs `read` while one writer writes `text` into the FIFO once; gives what `read` gave (fails after 5 s). */
  written<T>(text: string, read: () => Promise<T>): Promise<T>;
  /** Lets go of any reader or writer still waiting on the FIFO, and removes it. */
  remove(): Promise<void>;
}

async function touch(path: string, flags: number): Promise<void> {
  const handle = await open(path, flags).catch(() => undefined);
  await handle?.close();
}

/** Make a FIFO (POSIX only). */
export async function makeFifo(prefix: string): Promise<Fifo> {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  const path = join(directory, 'transcript.fifo');
  execFileSync('mkfifo', [path]);
  return {
    path,
    async written<T>(text: string, read: () => Promise<T>): Promise<T> {
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${path}: no reader took the bytes written, or the read waited for another writer`)),
          WAIT_MS,
        );
      });
      try {
        const [result] = await Promise.race([Promise.all([read(), writeFile(path, text)]), stuck]);
        return result;
      } finally {
        clearTimeout(timer);
      }
    },
    async remove(): Promise<void> {
      // A reader waiting for a writer gets an empty pipe; a writer waiting for a reader is let go (its write fails).
      await touch(path, constants.O_WRONLY | constants.O_NONBLOCK);
      await touch(path, constants.O_RDONLY | constants.O_NONBLOCK);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
