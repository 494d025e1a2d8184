/**
 * Careful edits of a user's configuration files, shared by `install` and `uninstall` of every
 * agent: the planned edits (text before and after), private backups of the original bytes (so
 * an uninstall that leaves nothing of ours restores each file byte for byte), an install
 * record beside the edited files naming where the backups are (so uninstall finds them whatever
 * `HOME` or `CONTEXT_LEDGER_HOME` say then), writes that change nothing but the text and undo
 * the earlier files when a later one fails, and a diff for `--dry-run`.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '../../errors.js';
import { checkWritable, readOptional, removeFile, writeFileAtomic } from './safe-write.js';

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
  /** Mode of the file when install creates it (default: 0666 less the umask). */
  readonly newFileMode?: number | undefined;
  /** The entries this edit writes (install records them: uninstall removes only what install wrote). */
  readonly written?: readonly WrittenEntry[] | undefined;
}

/**
 * One entry install wrote into a user's file, recorded so that install and uninstall tell it from an
 * entry someone else wrote under the same name: a hook command (`name`: its event) or an MCP server
 * entry (`name`: the server's name; `value`: the whole entry).
 */
export interface WrittenEntry {
  /** The file it was written to. */
  readonly file: string;
  /** What it is. */
  readonly kind: 'hook' | 'mcp-server';
  /** The hook event, or the MCP server's name. */
  readonly name: string;
  /** The hook command, or the MCP server entry. */
  readonly value: unknown;
}

/**
 * What the install record says install wrote: `recorded` (this release's record lists the entries),
 * `legacy` (an older release's record, which lists the edited files only) or `none` (no record).
 */
export interface RecordedEntries {
  readonly state: 'recorded' | 'legacy' | 'none';
  readonly entries: readonly WrittenEntry[];
}

/** Where the edits of one install are recorded and backed up. */
export interface InstallPlaces {
  /** The backup directory of the current environment (`<ledger home>/install-backups`). */
  readonly backupDirectory: string;
  /** The install record beside the edited files (e.g. `.claude/context-ledger-install.json`). */
  readonly recordFile: string;
}

/** Mode of backup files and of the install record: private to the user. */
const PRIVATE_FILE = 0o600;
/** Mode of the backup directory. */
const PRIVATE_DIRECTORY = 0o700;

/** Where the original bytes of an edited file are kept until uninstall. */
function backupFile(directory: string, file: string): string {
  return join(directory, `${createHash('sha256').update(file).digest('hex').slice(0, 16)}.json`);
}

interface Backup {
  readonly file: string;
  /** The bytes before install (null: the file did not exist). */
  readonly original: string | null;
}

interface InstallRecord {
  readonly about: string;
  /** The directory holding the backups of this install. */
  readonly backupDirectory: string;
  /** The files this install edited. */
  readonly files: readonly string[];
  /** The entries install wrote into them (absent in an older release's record). */
  readonly written?: readonly WrittenEntry[];
}

/** Two JSON values with the same members and items (object member order aside). */
export function sameJsonValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

/** The entries the install record beside the files says install wrote. */
export async function recordedEntries(places: InstallPlaces): Promise<RecordedEntries> {
  const text = await readOptional(places.recordFile).catch(() => undefined);
  if (text === undefined) return { state: 'none', entries: [] };
  try {
    const record = JSON.parse(text) as Partial<InstallRecord>;
    if (!Array.isArray(record.written)) return { state: 'legacy', entries: [] };
    return { state: 'recorded', entries: record.written };
  } catch {
    return { state: 'none', entries: [] };
  }
}

/** True when `entries` hold an entry of `file` of this kind, name (any, when undefined) and value. */
export function wasWritten(
  entries: readonly WrittenEntry[],
  entry: { file: string; kind: WrittenEntry['kind']; name?: string | undefined; value: unknown },
): boolean {
  return entries.some(
    (written) =>
      written.file === entry.file &&
      written.kind === entry.kind &&
      (entry.name === undefined || written.name === entry.name) &&
      sameJsonValue(written.value, entry.value),
  );
}

/** The backup directory recorded by install beside the files, else the current environment's. */
export async function recordedBackupDirectory(places: InstallPlaces): Promise<string> {
  const text = await readOptional(places.recordFile).catch(() => undefined);
  if (text === undefined) return places.backupDirectory;
  try {
    const record = JSON.parse(text) as Partial<InstallRecord>;
    return typeof record.backupDirectory === 'string' ? record.backupDirectory : places.backupDirectory;
  } catch {
    return places.backupDirectory;
  }
}

function changed(edit: FileEdit): boolean {
  return edit.after !== edit.before;
}

/** Refuse (before writing anything) when a file to change is read-only or not a regular file. */
async function checkAll(edits: readonly FileEdit[]): Promise<void> {
  for (const edit of edits) if (changed(edit)) await checkWritable(edit.file);
}

/** Write the edits in order; when one fails, put the files already written back as they were. */
async function writeAll(edits: readonly FileEdit[]): Promise<void> {
  const done: FileEdit[] = [];
  try {
    for (const edit of edits) {
      if (!changed(edit)) continue;
      if (edit.after === undefined) await removeFile(edit.file);
      else await writeFileAtomic(edit.file, edit.after, edit.newFileMode);
      done.push(edit);
    }
  } catch (error) {
    for (const edit of done.reverse()) {
      if (edit.before === undefined) await removeFile(edit.file).catch(() => undefined);
      else await writeFileAtomic(edit.file, edit.before, edit.newFileMode).catch(() => undefined);
    }
    throw error;
  }
}

/** Create the backup directory private to the user (and make an existing one private). */
async function privateDirectory(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true, mode: PRIVATE_DIRECTORY });
  await chmod(directory, PRIVATE_DIRECTORY);
}

/**
 * Write the install edits: each file first changed gets its original bytes backed up (0600, in a
 * 0700 directory), the install record names the backup directory, then the files are written.
 */
export async function applyInstall(edits: readonly FileEdit[], places: InstallPlaces): Promise<void> {
  const changes = edits.filter(changed);
  if (changes.length === 0) return;
  await checkAll(changes);
  const directory = await recordedBackupDirectory(places);
  await privateDirectory(directory);
  const created: string[] = [];
  try {
    for (const edit of changes) {
      const backup = backupFile(directory, edit.file);
      if ((await readOptional(backup)) !== undefined) {
        await chmod(backup, PRIVATE_FILE);
        continue;
      }
      const content: Backup = { file: edit.file, original: edit.before ?? null };
      await writeFileAtomic(backup, JSON.stringify(content) + '\n', PRIVATE_FILE);
      created.push(backup);
    }
    const previous = await readOptional(places.recordFile);
    const before = previous ? (JSON.parse(previous) as Partial<InstallRecord>) : {};
    const files = new Set<string>(before.files ?? []);
    for (const edit of changes) files.add(edit.file);
    // An older release's record (no `written`) stays one: what that release wrote is not known entry by entry.
    const legacy = previous !== undefined && !Array.isArray(before.written);
    const written = [...(before.written ?? [])];
    for (const entry of changes.flatMap((edit) => edit.written ?? []))
      if (!wasWritten(written, entry)) written.push(entry);
    const record: InstallRecord = {
      about: 'Written by `context-ledger install`; `context-ledger uninstall` reads it and removes it.',
      backupDirectory: directory,
      files: [...files],
      ...(legacy ? {} : { written }),
    };
    const recordText = JSON.stringify(record, null, 2) + '\n';
    if (recordText !== previous) {
      await writeFileAtomic(places.recordFile, recordText, PRIVATE_FILE);
      if (previous === undefined) created.push(places.recordFile);
    }
    await writeAll(changes);
  } catch (error) {
    for (const file of created) await rm(file, { force: true });
    throw error;
  }
}

/** The backed-up original of a file: its text, null (it did not exist), or undefined (no backup). */
export async function backedUpOriginal(file: string, backupDirectory: string): Promise<string | null | undefined> {
  const where = backupFile(backupDirectory, file);
  const raw = await readOptional(where);
  if (raw === undefined) return undefined;
  try {
    return (JSON.parse(raw) as Backup).original;
  } catch {
    throw new InvalidInputError(
      `The install backup ${where} of ${file} is not valid JSON; remove it and run uninstall again.`,
      {
        file: where,
      },
    );
  }
}

/**
 * For uninstall: the text to write once our entries are removed. When what remains equals the
 * backed-up original but for whitespace (same members, order, numbers, comments), the original
 * bytes come back exactly (undefined: the file did not exist before install, so it is removed).
 */
export async function restoredText(
  file: string,
  remaining: string | undefined,
  backupDirectory: string,
  equal: (a: string, b: string) => boolean,
): Promise<{ text: string | undefined; fromBackup: boolean }> {
  const original = await backedUpOriginal(file, backupDirectory);
  if (original === undefined) return { text: remaining, fromBackup: false };
  const backup = { original };
  if (backup.original === null)
    return remaining === undefined || remaining.trim().length === 0 || equal(remaining, '{}')
      ? { text: undefined, fromBackup: true }
      : { text: remaining, fromBackup: false };
  // Nothing left (undefined) matches an original that was blank or `{}`.
  const left = remaining ?? (backup.original.trim().length === 0 ? '' : '{}');
  if (equal(left, backup.original)) return { text: backup.original, fromBackup: true };
  return { text: remaining, fromBackup: false };
}

/** Write the uninstall edits, then drop their backups and the install record. */
export async function applyUninstall(edits: readonly FileEdit[], places: InstallPlaces): Promise<void> {
  await checkAll(edits);
  const directory = await recordedBackupDirectory(places);
  await writeAll(edits);
  for (const edit of edits) await rm(backupFile(directory, edit.file), { force: true });
  await rm(places.recordFile, { force: true });
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
