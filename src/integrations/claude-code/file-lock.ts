/**
 * A small exclusive lock file, so two hook processes of one session (Stop and PreCompact can
 * overlap) do not ingest the same lines at once.
 *
 * The lock file holds the holder's PID and a random token, and appears with both at once (it is
 * written under another name and hard-linked into place, which fails when a lock exists). A lock
 * whose holder is gone (a hook killed by SIGKILL or by its timeout) is taken over at once: its
 * PID is checked for liveness. A lock that names no PID is taken over once it is a little old
 * (`unreadableMs`), and any lock once it is older than `staleMs` (a PID reused by another process).
 * A takeover moves the old file aside and checks that what it moved is the lock it judged
 * stale, so two waiters never both take over, nor one take over a lock just taken.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StoreOperationError } from '../../errors.js';

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for a live holder, in ms (default 10 s). */
  readonly waitMs?: number | undefined;
  /** Age past which any lock is taken over, in ms (default 120 s). */
  readonly staleMs?: number | undefined;
  /** Age past which a lock that names no PID is taken over, in ms (default 2 s). */
  readonly unreadableMs?: number | undefined;
  /** Told when a lock is taken over, and why. */
  readonly onTakeover?: ((reason: string) => void) | undefined;
}

/** Whether a process with this PID exists (on this machine). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The PID a lock file names, if it names one. */
function holderPid(content: string): number | undefined {
  const pid = Number(content.split('\n')[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Why the lock `content` (of age `ageMs`) may be taken over, or undefined while its holder may still hold it. */
function staleReason(content: string, ageMs: number, options: Required<Omit<FileLockOptions, 'onTakeover'>>) {
  const pid = holderPid(content);
  if (pid === undefined) return ageMs > options.unreadableMs ? 'it names no process' : undefined;
  if (!processAlive(pid)) return `its holder (pid ${pid}) is gone`;
  return ageMs > options.staleMs ? `it is older than ${options.staleMs} ms` : undefined;
}

/** Create the lock file holding `content` at once; false when a lock exists. */
async function tryCreate(file: string, content: string): Promise<boolean> {
  const staged = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(staged, content, { mode: 0o600 });
  try {
    await link(staged, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // A file system without hard links: create the file exclusively and write it (a reader may see it empty briefly).
    return writeFile(file, content, { flag: 'wx', mode: 0o600 }).then(
      () => true,
      (cause: NodeJS.ErrnoException) => (cause.code === 'EEXIST' ? false : Promise.reject(cause)),
    );
  } finally {
    await rm(staged, { force: true });
  }
}

/** Take over the stale lock that held `content`: move it aside, and put it back if what moved was another lock. */
async function takeOver(file: string, content: string): Promise<void> {
  const aside = `${file}.stale.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => content);
  // Another waiter took the stale lock over first and a new holder now has it: give it back.
  if (moved !== content) await link(aside, file).catch(() => undefined);
  await rm(aside, { force: true });
}

/** Run `body` holding the lock `file`; waits up to `waitMs` for a live holder, and takes over a stale lock at once. */
export async function withFileLock<T>(file: string, body: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const settings = {
    waitMs: options.waitMs ?? 10_000,
    staleMs: options.staleMs ?? 120_000,
    unreadableMs: options.unreadableMs ?? 2_000,
  };
  await mkdir(dirname(file), { recursive: true });
  const content = `${process.pid}\n${randomBytes(12).toString('hex')}\n`;
  const deadline = Date.now() + settings.waitMs;
  let holder = 'another context-ledger hook';
  while (!(await tryCreate(file, content))) {
    const [held, info] = await Promise.all([
      readFile(file, 'utf8').catch(() => undefined),
      stat(file).catch(() => undefined),
    ]);
    const reason =
      held === undefined || info === undefined ? undefined : staleReason(held, Date.now() - info.mtimeMs, settings);
    if (held !== undefined && reason !== undefined) {
      options.onTakeover?.(`Lock ${file} taken over: ${reason}.`);
      await takeOver(file, held);
      continue;
    }
    const pid = held === undefined ? undefined : holderPid(held);
    if (pid !== undefined) holder = `another context-ledger hook (pid ${pid}, running)`;
    if (Date.now() > deadline) {
      throw new StoreOperationError(
        `Lock ${file} is held by ${holder} for over ${settings.waitMs} ms; this run ingested nothing (the next hook call will).`,
        { lock: file },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  try {
    return await body();
  } finally {
    // Release only our own lock: one taken over from us (we ran past staleMs) is another holder's now.
    if ((await readFile(file, 'utf8').catch(() => undefined)) === content) await rm(file, { force: true });
  }
}
