/**
 * Checks of a file the CLI will write (`audit --html OUT.html`), made before any work: a run of minutes must not end
 * in "EISDIR" because the path named a directory.
 */
import { access, constants, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InvalidInputError } from '../errors.js';

/**
 * Refuse an output path the command could not write: a directory, an existing file that is not writable, or a file in
 * a folder that does not exist or cannot be written. `option` names the flag (`--html`); `example` is the file name
 * suggested inside a directory (`audit.html`). Throws an `InvalidInputError` (exit code 2) naming path and fix.
 */
export async function checkOutputFile(path: string, option: string, example: string): Promise<void> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => undefined);
  if (info?.isDirectory())
    throw new InvalidInputError(
      `${option} ${path}: is a directory; give a file to write, e.g. ${option} ${join(path, example)}`,
      { field: option, path: absolute },
    );
  if (info !== undefined) {
    if (!info.isFile())
      throw new InvalidInputError(`${option} ${path}: is not a regular file; give a file path, e.g. ${example}`, {
        field: option,
        path: absolute,
      });
    await access(absolute, constants.W_OK).catch(() => {
      throw new InvalidInputError(
        `${option} ${path}: the file exists and cannot be written; change its permissions or give another path`,
        { field: option, path: absolute },
      );
    });
    return;
  }
  const folder = dirname(absolute);
  const folderInfo = await stat(folder).catch(() => undefined);
  if (!folderInfo?.isDirectory())
    throw new InvalidInputError(
      `${option} ${path}: the folder ${folder} does not exist; create it first (mkdir -p ${folder}) or give another ` +
        `path, e.g. ${option} ${basename(path)}`,
      { field: option, path: absolute },
    );
  await access(folder, constants.W_OK).catch(() => {
    throw new InvalidInputError(
      `${option} ${path}: the folder ${folder} cannot be written; give a path in a folder you can write`,
      { field: option, path: absolute },
    );
  });
}
