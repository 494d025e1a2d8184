/**
 * The project → latest Claude Code session map. Every hook call records the session it was
 * called for; `serve` reads it (or, without it, the newest transcript of the project) so the
 * MCP server answers about the running conversation without being told its id.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { writeFileAtomic } from '../install/safe-write.js';
import { claudeProjectDirectory, projectLedgerPaths } from './ledger-home.js';
import type { LedgerEnvironment } from './ledger-home.js';

/** What the hook records for a project. */
export interface ProjectSessionRecord {
  /** The project directory. */
  readonly cwd: string;
  /** The latest Claude Code `session_id` seen by a hook in this project. */
  readonly sessionId: string;
  /** Its transcript. */
  readonly transcriptPath: string;
  /** The store the hook wrote it to. */
  readonly store: string;
  /** ISO time of the hook call that first recorded this session (with this transcript and store) for the project. */
  readonly updatedAt: string;
}

/**
 * Record the project's latest session. A file that already names this session, transcript and store is left as it
 * is (each hook call of a conversation would otherwise rewrite and fsync it, for nothing `serve` reads).
 */
export async function recordProjectSession(file: string, record: ProjectSessionRecord): Promise<void> {
  const current = await readProjectSession(file);
  const same =
    current !== undefined &&
    current.cwd === record.cwd &&
    current.sessionId === record.sessionId &&
    current.transcriptPath === record.transcriptPath &&
    current.store === record.store;
  if (!same) await writeFileAtomic(file, JSON.stringify(record, null, 2) + '\n');
}

/** The recorded session of a project, or undefined when no hook ran there (or the file is unreadable). */
export async function readProjectSession(file: string): Promise<ProjectSessionRecord | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<ProjectSessionRecord>;
    if (typeof value.sessionId !== 'string' || typeof value.store !== 'string') return undefined;
    return value as ProjectSessionRecord;
  } catch {
    return undefined;
  }
}

/** The session id of the newest `<session>.jsonl` in the project's Claude Code transcript folder. */
export async function newestTranscriptSession(
  cwd: string,
  environment: LedgerEnvironment = process.env,
): Promise<string | undefined> {
  const directory = claudeProjectDirectory(cwd, environment);
  const names = await readdir(directory).catch(() => [] as string[]);
  let newest: { id: string; time: number } | undefined;
  for (const name of names) {
    if (!name.endsWith('.jsonl') || name.endsWith('.compact-agent.jsonl')) continue;
    const info = await stat(join(directory, name)).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (!newest || info.mtimeMs > newest.time) newest = { id: basename(name, extname(name)), time: info.mtimeMs };
  }
  return newest?.id;
}

/** Where a project's ledger is and which session is running there. */
export interface ProjectTarget {
  /** Store spec. */
  readonly store: string;
  /** The session: the hook-recorded one, else the newest transcript's id; undefined when neither exists. */
  readonly sessionId: string | undefined;
  /** How the session was found. */
  readonly source: 'hook' | 'transcript' | 'none';
}

/** Find the store and running session of the Claude Code project at `cwd`. */
export async function findProjectTarget(
  cwd: string,
  environment: LedgerEnvironment = process.env,
): Promise<ProjectTarget> {
  const paths = projectLedgerPaths(cwd, undefined, environment);
  const recorded = await readProjectSession(paths.sessionFile);
  if (recorded) return { store: recorded.store, sessionId: recorded.sessionId, source: 'hook' };
  const newest = await newestTranscriptSession(cwd, environment);
  return { store: paths.store, sessionId: newest, source: newest === undefined ? 'none' : 'transcript' };
}
