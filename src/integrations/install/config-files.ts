/**
 * Careful edits of a user's configuration files, shared by `install` and `uninstall`:
 * JSON read and re-serialised in the file's own indentation, a backup of the original bytes
 * (so an uninstall that leaves nothing of ours restores the file byte for byte), and a diff
 * for `--dry-run`.
 */
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { InvalidInputError } from '../../errors.js';
import { writeFileAtomic } from '../claude-code/project-session.js';

/** One planned change of one file: its text before and after (undefined = the file is absent). */
export interface FileEdit {
  /** The file. */
  readonly file: string;
  /** Text now. */
  readonly before: string | undefined;
  /** Text after the change. */
  readonly after: string | undefined;
  /** What the change does, for the user. */
  readonly notes: readonly string[];
}

/** The text of a file, or undefined when it does not exist. */
export async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A JSON object value. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parse a JSON object file's text (absent or blank: `{}`); anything else is refused, never overwritten. */
export function parseJsonObject(file: string, text: string | undefined): JsonObject {
  if (text === undefined || text.trim().length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InvalidInputError(
      `${file} is not valid JSON (${(cause as Error).message}); fix it first — nothing was changed`,
      { file },
    );
  }
  if (!isJsonObject(value))
    throw new InvalidInputError(`${file} does not hold a JSON object; nothing was changed`, { file });
  return value;
}

/** Serialise like the original: its indentation (default 2 spaces) and its trailing newline (default yes). */
export function serializeJsonLike(value: JsonObject, original: string | undefined): string {
  const indent = original === undefined ? '  ' : (/^([ \t]+)"/m.exec(original)?.[1] ?? '  ');
  const newline = original === undefined || original.length === 0 || original.endsWith('\n');
  return JSON.stringify(value, null, indent) + (newline ? '\n' : '');
}

/** Where the original bytes of an edited file are kept until uninstall. */
function backupFile(directory: string, file: string): string {
  return join(directory, `${createHash('sha256').update(file).digest('hex').slice(0, 16)}.json`);
}

interface Backup {
  readonly file: string;
  /** The bytes before install (null: the file did not exist). */
  readonly original: string | null;
}

/** Write the edits; a file first changed by install gets its original bytes backed up. */
export async function applyInstall(edits: readonly FileEdit[], backupDirectory: string): Promise<void> {
  for (const edit of edits) {
    if (edit.after === edit.before || edit.after === undefined) continue;
    const backup = backupFile(backupDirectory, edit.file);
    if ((await readOptional(backup)) === undefined)
      await writeFileAtomic(
        backup,
        JSON.stringify({ file: edit.file, original: edit.before ?? null } satisfies Backup) + '\n',
      );
    await writeFileAtomic(edit.file, edit.after);
  }
}

/**
 * For uninstall: the text to write once our entries are removed. When what remains equals
 * (as JSON, or as text) the backed-up original, the original bytes come back exactly
 * (undefined: the file did not exist before install, so it is removed).
 */
export async function restoredText(
  file: string,
  remaining: string | undefined,
  backupDirectory: string,
  equal: (a: string, b: string) => boolean,
): Promise<{ text: string | undefined; fromBackup: boolean }> {
  const raw = await readOptional(backupFile(backupDirectory, file));
  if (raw === undefined) return { text: remaining, fromBackup: false };
  const backup = JSON.parse(raw) as Backup;
  if (backup.original === null)
    return remaining === undefined || equal(remaining, '')
      ? { text: undefined, fromBackup: true }
      : { text: remaining, fromBackup: false };
  if (equal(remaining ?? '', backup.original)) return { text: backup.original, fromBackup: true };
  return { text: remaining, fromBackup: false };
}

/** JSON equality of two texts (blank reads as `{}`). */
export function sameJson(a: string, b: string): boolean {
  try {
    return isDeepStrictEqual(a.trim() ? JSON.parse(a) : {}, b.trim() ? JSON.parse(b) : {});
  } catch {
    return a === b;
  }
}

/** Write the uninstall edits and drop their backups. */
export async function applyUninstall(edits: readonly FileEdit[], backupDirectory: string): Promise<void> {
  for (const edit of edits) {
    if (edit.after !== edit.before) {
      if (edit.after === undefined) await rm(edit.file, { force: true });
      else await writeFileAtomic(edit.file, edit.after);
    }
    await rm(backupFile(backupDirectory, edit.file), { force: true });
  }
}

/** A one-hunk diff of an edit (common head and tail left out), for `--dry-run`. */
export function diffEdit(edit: FileEdit): string {
  const before = edit.before === undefined ? [] : edit.before.split('\n');
  const after = edit.after === undefined ? [] : edit.after.split('\n');
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const lines = [
    `--- ${edit.before === undefined ? '/dev/null' : edit.file}`,
    `+++ ${edit.after === undefined ? '/dev/null' : edit.file}`,
  ];
  if (edit.before === edit.after) return [...lines, '(no change)'].join('\n');
  lines.push(`@@ -${head + 1},${before.length - head - tail} +${head + 1},${after.length - head - tail} @@`);
  for (const line of before.slice(head, before.length - tail)) lines.push(`-${line}`);
  for (const line of after.slice(head, after.length - tail)) lines.push(`+${line}`);
  return lines.join('\n');
}
