/**
 * A small exclusive lock file: the writer lock of one ledger session, held by the hook's ingest
 * (Stop and PreCompact can overlap) and by `replay`, so two writers never decide what to append
 * from the same state at once.
 *
 * The lock file holds the holder's PID, a random token, who holds it, and (on Linux) when the
 * holder process started; it appears with all of them at once (it is written under another name
 * and hard-linked into place, which fails when a lock exists). A stale lock is taken over at once,
 * without waiting: its holder is gone (a hook killed by SIGKILL or by its timeout), its PID now
 * belongs to a process that started at another time (the PID was reused), it is older than
 * `staleMs` (its holder touches it every `staleMs / 12` while it holds it), or it names no PID and
 * is older than `unreadableMs`. A takeover moves the old file aside and checks that what it moved
 * is the lock it judged stale, so two waiters never both take over, nor one take over a lock just taken.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StoreOperationError } from '../../errors.js';

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for a live holder, in ms (default 10 s). */
  readonly waitMs?: number | undefined;
  /** Age past which any lock is taken over, in ms (default 60 s; a holder touches its lock every twelfth of it). */
  readonly staleMs?: number | undefined;
  /** Age past which a lock that names no PID is taken over, in ms (default 500 ms). */
  readonly unreadableMs?: number | undefined;
  /** Told when a lock is taken over, and why. */
  readonly onTakeover?: ((reason: string) => void) | undefined;
  /** Who takes the lock, as the message of a writer that finds it held names it (default: a context-ledger hook). */
  readonly owner?: string | undefined;
  /**
   * True for a holder that keeps the lock for long (a replay of a whole transcript): the lock says so,
   * and a writer that finds it gives up at once instead of waiting `waitMs` for it.
   */
  readonly longHold?: boolean | undefined;
  /** The message of the error thrown when a live holder keeps the lock past `waitMs` (default: the hook's). */
  readonly busyMessage?: ((holder: LockHolder, waitedMs: number) => string) | undefined;
}

/** Who holds a lock, as its file says. */
export interface LockHolder {
  /** The holder's PID, if the file names one. */
  readonly pid: number | undefined;
  /** Who it is (`context-ledger replay`, a context-ledger hook), if the file says. */
  readonly owner: string | undefined;
  /** True when the holder said it keeps the lock for long (see `FileLockOptions.longHold`). */
  readonly longHold: boolean;
}

/** Settings of one lock attempt. */
type LockSettings = Required<Pick<FileLockOptions, 'waitMs' | 'staleMs' | 'unreadableMs'>>;

/** The start time of a process (clock ticks since boot, from `/proc/<pid>/stat`), where the system tells it. */
export function processStartTime(pid: number | 'self'): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last `)`.
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
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

/** Who holds the lock `content`. */
export function lockHolder(content: string): LockHolder {
  const lines = content.split('\n');
  const owner = lines[2]?.trim();
  return { pid: holderPid(content), owner: owner ? owner : undefined, longHold: lines[4]?.trim() === 'long' };
}

/** Why the lock `content` (of age `ageMs`) may be taken over, or undefined while its holder may still hold it. */
function staleReason(content: string, ageMs: number, options: LockSettings): string | undefined {
  const pid = holderPid(content);
  if (pid === undefined) return ageMs > options.unreadableMs ? 'it names no process' : undefined;
  if (!processAlive(pid)) return `its holder (pid ${pid}) is gone`;
  const started = content.split('\n')[3]?.trim();
  const now = started ? processStartTime(pid) : undefined;
  if (started && now !== undefined && now !== started) return `pid ${pid} is now another process (its holder is gone)`;
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

/** The message of a lock a live holder keeps past the wait: the hook's (this run ingests nothing; the next one will). */
function hookBusyMessage(file: string): (holder: LockHolder, waitedMs: number) => string {
  return (holder, waitedMs) => {
    const who = holder.owner ?? 'another context-ledger hook';
    const running = holder.pid === undefined ? '' : ` (pid ${holder.pid}, running)`;
    const how = holder.longHold ? ', which holds it until it is done' : ` for over ${waitedMs} ms`;
    return `Lock ${file} is held by ${who}${running}${how}; this run ingested nothing (the next hook call will).`;
  };
}

/** Take the lock `file` (taking a stale one over at once); throws when a live holder keeps it past `waitMs`. */
async function acquire(file: string, content: string, settings: LockSettings, options: FileLockOptions) {
  const deadline = Date.now() + settings.waitMs;
  let holder: LockHolder = { pid: undefined, owner: undefined, longHold: false };
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
    if (held !== undefined) holder = lockHolder(held);
    if (Date.now() > deadline || holder.longHold) {
      const message = (options.busyMessage ?? hookBusyMessage(file))(holder, settings.waitMs);
      throw new StoreOperationError(message, { lock: file, pid: holder.pid, holder: holder.owner });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Run `body` holding the lock `file`; waits up to `waitMs` for a live holder, and takes over a stale
 * lock at once. While `body` runs the lock file is touched every `staleMs / 12`, so a long holder
 * (a replay) is never judged stale by its age.
 */
export async function withFileLock<T>(file: string, body: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const settings: LockSettings = {
    waitMs: options.waitMs ?? 10_000,
    staleMs: options.staleMs ?? 60_000,
    unreadableMs: options.unreadableMs ?? 500,
  };
  await mkdir(dirname(file), { recursive: true });
  const owner = (options.owner ?? 'a context-ledger hook').replaceAll('\n', ' ');
  const content = [
    process.pid,
    randomBytes(12).toString('hex'),
    owner,
    processStartTime('self') ?? '',
    options.longHold === true ? 'long' : '',
  ].join('\n');
  await acquire(file, content, settings, options);
  const heartbeat = setInterval(() => {
    const now = new Date();
    void utimes(file, now, now).catch(() => undefined);
  }, settings.staleMs / 12);
  heartbeat.unref();
  try {
    return await body();
  } finally {
    clearInterval(heartbeat);
    // Release only our own lock: one taken over from us (we ran past staleMs) is another holder's now.
    if ((await readFile(file, 'utf8').catch(() => undefined)) === content) await rm(file, { force: true });
  }
}
