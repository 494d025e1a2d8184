/**
 * Where the Claude Code integration keeps things: the ledger home (one SQLite file per
 * project), the hook log, the per-session ingest state, and the project → latest session map
 * that `serve` reads to find the running conversation.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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
  const ingestDirectory = spec.startsWith('sqlite:')
    ? `${resolve(spec.slice('sqlite:'.length))}.ingest`
    : join(home, 'ingest', createHash('sha256').update(spec).digest('hex').slice(0, 12));
  return {
    cwd: resolve(cwd),
    store: spec,
    sessionFile: join(home, 'projects', `${key}.session.json`),
    ingestDirectory,
  };
}

/** The directory Claude Code keeps a project's transcripts in: `~/.claude/projects/<cwd with non-alphanumerics as ->`. */
export function claudeProjectDirectory(cwd: string, environment: LedgerEnvironment = process.env): string {
  return join(userHome(environment), '.claude', 'projects', resolve(cwd).replace(/[^A-Za-z0-9]/g, '-'));
}
