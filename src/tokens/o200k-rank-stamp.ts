/**
 * Stamps of rank files whose digest was checked (`o200k-rank-file.ts`), so that a short-lived process reading the same
 * file again can skip hashing its 4.6 MB (about a tenth of a Claude Code hook's `Stop` above a bare Node start).
 *
 * A stamp names the file (its path) and what the file system says of it: device, inode, size, and the change and
 * modification times in nanoseconds; and the gpt-tokenizer version the file was checked against. Any write to the
 * file (a rebuild, an edit, a copy over it, a `touch`) changes its change time, which no program can set back, and a
 * file put in its place is another inode: the stamp then no longer matches and the digest is checked again (and the
 * stamp rewritten when the file is whole). What a stamp cannot see is bytes changed below the file system (a failing
 * disk): the digest is checked by every process that keeps no stamps (the library, the CLI's other commands) and after
 * every build, and a table a check refuses is never used.
 *
 * Stamps are kept only where a caller asks for it (`keepRankFileStamps`: the hook, in its ledger home). A stamp that
 * cannot be read or written is as if there were none: the digest is checked, as without stamps.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

let directory: string | undefined;

/**
 * How long a file must have been left alone before a stamp of it is kept (ms). File times are taken from a coarse
 * clock (a few ms): a write in the same tick as the check could leave the times as they were, so a file changed this
 * recently is checked again by the next process instead (as git treats a racily clean file).
 */
export const STAMP_SETTLE_MS = 2_000;
let settleMs = STAMP_SETTLE_MS;

/**
 * Keep stamps of checked rank files in `folder` (undefined: keep none, check every read, the default). `settle`: see
 * {@link STAMP_SETTLE_MS} (tests shorten it).
 */
export function keepRankFileStamps(folder: string | undefined, settle = STAMP_SETTLE_MS): void {
  directory = folder;
  settleMs = settle;
}

/** The folder stamps are kept in, if any. */
export function rankFileStampFolder(): string | undefined {
  return directory;
}

/** What the file system says of an open file: equal for two reads only when the file was not written in between. */
export function fileIdentity(stats: BigIntStats): string {
  return [stats.dev, stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs].join(':');
}

/** The stamp file of the rank file at `path` in `folder`. */
function stampFile(folder: string, path: string): string {
  return join(folder, `o200k-rank-file-${createHash('sha256').update(path).digest('hex').slice(0, 16)}.stamp`);
}

/** The stamp's text: the file's path, identity, and the version it was checked against. */
function stampText(path: string, identity: string, version: string): string {
  return JSON.stringify({ path, identity, version }) + '\n';
}

/** Whether the kept stamp of `path` says its file, now of `identity`, was checked whole against `version`. */
export function hasRankFileStamp(path: string, identity: string, version: string): boolean {
  if (directory === undefined) return false;
  try {
    return readFileSync(stampFile(directory, path), 'utf8') === stampText(path, identity, version);
  } catch {
    return false;
  }
}

/**
 * Keep a stamp saying the file at `path`, of `identity` (`stats`), was checked whole against `version`, when stamps
 * are kept and the file has settled.
 */
export function writeRankFileStamp(path: string, stats: BigIntStats, version: string): void {
  if (directory === undefined) return;
  const changed = stats.ctimeMs > stats.mtimeMs ? stats.ctimeMs : stats.mtimeMs;
  if (Date.now() - Number(changed) < settleMs) return;
  const identity = fileIdentity(stats);
  const file = stampFile(directory, path);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(directory, { recursive: true });
    writeFileSync(temporary, stampText(path, identity, version));
    renameSync(temporary, file);
  } catch {
    // no stamp: the next process checks the digest again
    try {
      rmSync(temporary, { force: true });
    } catch {
      // nothing was written
    }
  }
}
