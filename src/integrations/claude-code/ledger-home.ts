/**
 * Where the Claude Code integration keeps things: the ledger home (one SQLite file per
 * project), the hook log, the per-session ingest state, and the project → latest session map
 * that `serve` reads to find the running conversation.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseSqliteSpec } from '../../stores/store-spec.js';

/** Environment variables the integration reads (a subset of `process.env`). */
export type LedgerEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * The ledger home: `$CONTEXT_LEDGER_HOME`, else `$XDG_DATA_HOME/context-ledger`, else
 * `~/.local/share/context-ledger` (the home directory from `$HOME` when set).
 */
export function ledgerHome(environment: LedgerEnvironment = process.env): string {
  if (environment.CONTEXT_LEDGER_HOME) return resolve(environment.CONTEXT_LEDGER_HOME);
  if (environment.XDG_DATA_HOME) return join(resolve(environment.XDG_DATA_HOME), 'context-ledger');
  return join(userHome(environment), '.local', 'share', 'context-ledger');
}

/** The user's home directory: `$HOME` when set, else the OS account's. */
export function userHome(environment: LedgerEnvironment = process.env): string {
  return environment.HOME ? resolve(environment.HOME) : homedir();
}

/** A file-name-safe key for a project directory: its path with other characters as `-`, plus a short hash. */
export function projectKey(cwd: string): string {
  const absolute = resolve(cwd);
  const readable = absolute.replace(/[^A-Za-z0-9]/g, '-').slice(-80);
  return `${readable}-${createHash('sha256').update(absolute).digest('hex').slice(0, 8)}`;
}

/** The files of one project's ledger. */
export interface ProjectLedgerPaths {
  /** The project directory (absolute). */
  readonly cwd: string;
  /** Store spec of the project's ledger (`sqlite:<home>/projects/<key>.db`, or the `--store` given). */
  readonly store: string;
  /** The file mapping this project to its latest Claude Code session (read by `serve`). */
  readonly sessionFile: string;
  /** Directory of the per-session ingest state files. */
  readonly ingestDirectory: string;
}

/** The hook's log file: `<home>/hook.log`. Failures are appended there, never printed. */
export function hookLogFile(environment: LedgerEnvironment = process.env): string {
  return join(ledgerHome(environment), 'hook.log');
}

/**
 * Directory of the per-session ingest state and writer locks of a store: `<file>.ingest` beside a
 * SQLite file, else `<home>/ingest/<hash of the spec>`. The hook and `replay` both use it, so they
 * take the same writer lock for a session of the same store (`sqlite:x.db?durability=batch` is the file `x.db`).
 */
export function ingestDirectoryOf(spec: string, environment: LedgerEnvironment = process.env): string {
  return spec.startsWith('sqlite:')
    ? `${resolve(parseSqliteSpec(spec).path)}.ingest`
    : join(ledgerHome(environment), 'ingest', createHash('sha256').update(spec).digest('hex').slice(0, 12));
}

/** Paths of a project's ledger; `store` overrides the default SQLite file (the ingest state then lives beside it). */
export function projectLedgerPaths(
  cwd: string,
  store: string | undefined,
  environment: LedgerEnvironment = process.env,
): ProjectLedgerPaths {
  const home = ledgerHome(environment);
  const key = projectKey(cwd);
  const defaultFile = join(home, 'projects', `${key}.db`);
  const spec = store ?? `sqlite:${defaultFile}`;
  return {
    cwd: resolve(cwd),
    store: spec,
    sessionFile: join(home, 'projects', `${key}.session.json`),
    ingestDirectory: ingestDirectoryOf(spec, environment),
  };
}

/**
 * Bytes of a session's file-name stem past which it is hashed: the longest file made from it
 * (`<stem>.json.lock.stale.<pid>.<12 hex>`, or the atomic write's `.<stem>.json.<pid>.<12 hex>.tmp`)
 * then stays well under the 255 bytes most file systems allow in a name.
 */
export const MAX_SESSION_STEM_BYTES = 200;

/** Bytes of the readable head kept before the hash in a hashed stem. */
const HASHED_STEM_HEAD_BYTES = 96;

/**
 * The file-name stem of a session's ingest files: the session id URI-encoded (as before, so the state
 * of existing sessions is still found) while that fits {@link MAX_SESSION_STEM_BYTES}; else a readable
 * head of it, `+`, and the SHA-256 of the whole id. `+` never occurs in an encoded id (it encodes as
 * `%2B`), so a hashed stem never equals a plain one, and two ids share a stem only if SHA-256 collides.
 */
export function sessionFileStem(sessionId: string): string {
  const encoded = encodeURIComponent(sessionId);
  if (Buffer.byteLength(encoded) <= MAX_SESSION_STEM_BYTES) return encoded;
  // Cut the head before a partial `%XX` escape (the encoded id is ASCII: bytes are characters).
  const head = encoded.slice(0, HASHED_STEM_HEAD_BYTES).replace(/%[0-9A-F]?$/, '');
  return `${head}+${createHash('sha256').update(sessionId).digest('hex')}`;
}

/** The ingest state file of a session and its writer lock (held by the hook's ingest and by `replay`). */
export interface SessionIngestFiles {
  /** The hook's ingest state of the session. */
  readonly stateFile: string;
  /** The lock every writer of the session holds while it decides what to append and appends it. */
  readonly lockFile: string;
}

/** The ingest state and writer lock files of a session in an ingest directory. */
export function sessionIngestFiles(ingestDirectory: string, sessionId: string): SessionIngestFiles {
  const stateFile = join(ingestDirectory, `${sessionFileStem(sessionId)}.json`);
  return { stateFile, lockFile: `${stateFile}.lock` };
}

/** The directory Claude Code keeps a project's transcripts in: `~/.claude/projects/<cwd with non-alphanumerics as ->`. */
export function claudeProjectDirectory(cwd: string, environment: LedgerEnvironment = process.env): string {
  return join(userHome(environment), '.claude', 'projects', resolve(cwd).replace(/[^A-Za-z0-9]/g, '-'));
}
