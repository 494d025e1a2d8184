/**
 * Reading and writing a user's configuration file without changing anything but its text:
 * a symbolic link is followed and its target written (the link stays a link); the file keeps
 * its mode and owner; a read-only file is refused, not made writable; the write is atomic (a
 * temporary file in the target's own directory, fsync, rename, fsync of the directory), so a
 * failure leaves the old file whole and no temporary file behind.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, lstat, mkdir, open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InvalidInputError } from '../../errors.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a file (through a symbolic link), or undefined when it does not exist; bytes that are not UTF-8 are refused. */
export async function readOptional(file: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (
      await lstat(file)
        .then((info) => info.isSymbolicLink())
        .catch(() => false)
    )
      throw new InvalidInputError(
        `${file} is a symbolic link to a file that does not exist; create the target or remove the link, ` +
          'then run the command again. Nothing was changed.',
        { file },
      );
    return undefined;
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new InvalidInputError(`${file} is not UTF-8 text; nothing was changed.`, { file });
  }
}

/** The file a write to `file` lands in: the final target of a symbolic link, else the path itself. */
async function writeTarget(file: string): Promise<{ path: string; info: Stats | undefined }> {
  try {
    const path = await realpath(file);
    return { path, info: await stat(path) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: file, info: undefined };
    throw error;
  }
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/**
 * Refuse, before anything is written, a file that cannot be changed as it is: read-only (no
 * write bit, or no write access) — the message names the file and says what to do.
 */
export async function checkWritable(file: string): Promise<void> {
  const { path, info } = await writeTarget(file);
  if (!info) return;
  if (!info.isFile()) throw new InvalidInputError(`${file} is not a regular file; nothing was changed.`, { file });
  const denied = await access(path, constants.W_OK).then(
    () => false,
    () => true,
  );
  if ((info.mode & 0o222) === 0 || denied)
    throw new InvalidInputError(
      `${file}${path === file ? '' : ` (a link to ${path})`} is read-only (mode ${octal(info.mode)}); nothing was changed. ` +
        `If you mean it to change, make it writable (chmod u+w ${path}) and run the command again; ` +
        'or run it with --dry-run and apply the printed change yourself.',
      { file },
    );
}

/**
 * Write `text` to `file` atomically. An existing file (or the target of a link) keeps its mode
 * and owner; a new file gets `newFileMode` (default: 0666 less the umask) and its directory is
 * created. On failure nothing is left behind and the old file is whole.
 */
export async function writeFileAtomic(file: string, text: string, newFileMode?: number): Promise<void> {
  const { path, info } = await writeTarget(file);
  const directory = dirname(path);
  if (!info) await mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', info ? 0o600 : (newFileMode ?? 0o666));
  try {
    try {
      await handle.writeFile(text, 'utf8');
      if (info) {
        await handle.chmod(info.mode & 0o7777);
        const written = await handle.stat();
        if (written.uid !== info.uid || written.gid !== info.gid) await handle.chown(info.uid, info.gid);
      } else if (newFileMode !== undefined) await handle.chmod(newFileMode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'EPERM' && info)
      throw new InvalidInputError(
        `${file} belongs to uid ${info.uid}, gid ${info.gid}, and a copy cannot be given that owner; nothing was changed. ` +
          'Run the command as that user.',
        { file },
      );
    throw error;
  }
  await syncDirectory(directory);
}

/** fsync a directory so a rename in it is durable (not supported everywhere: then skipped). */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // some file systems cannot fsync a directory
  } finally {
    await handle.close();
  }
}

/** Remove a file (the target stays if `file` is a link: the link is what install created or not). */
export async function removeFile(file: string): Promise<void> {
  await rm(file, { force: true });
  await syncDirectory(dirname(file));
}
