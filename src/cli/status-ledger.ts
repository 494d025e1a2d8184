/**
 * For `context-ledger status`: the ledger a project uses (its store, file and size, sessions and spans), the hook
 * runs recorded beside it (the per-session ingest state each hook call leaves), and the hook log's lines. Reads only.
 */
import { existsSync } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { LedgerError } from '../errors.js';
import { claudeProjectDirectory, ingestDirectoryOf } from '../integrations/claude-code/ledger-home.js';
import type { LedgerEnvironment } from '../integrations/claude-code/ledger-home.js';
import { findProjectTarget } from '../integrations/claude-code/project-session.js';
import { DEFAULT_STORE, openStore } from '../stores/store-spec.js';

/** The ledger of a project, as status found it. */
export interface LedgerStatus {
  /** Store spec. */
  readonly store: string;
  /** How it was chosen: `--store`, `.context-ledger/ledger.db` in the working directory, or the project's hook ledger. */
  readonly source: 'given' | 'working directory' | 'hooks';
  /** The SQLite file (absolute), when the store is one. */
  readonly file?: string | undefined;
  /** False when the SQLite file does not exist. */
  readonly exists: boolean;
  /** Bytes of the SQLite file and its WAL. */
  readonly bytes?: number | undefined;
  /** Sessions and spans it holds (when it could be opened). */
  readonly sessions?: number | undefined;
  readonly spans?: number | undefined;
  /** Ids of its sessions (the first 1000), to match hook log lines. */
  readonly sessionIds: readonly string[];
  /** Why it could not be opened. */
  readonly error?: string | undefined;
}

/** Which store status reads: `--store`, else the working directory's `.context-ledger/ledger.db`, else the hooks'. */
export async function statusStore(
  given: string | undefined,
  cwd: string,
  environment: LedgerEnvironment,
): Promise<{ store: string; source: LedgerStatus['source'] }> {
  if (given !== undefined) return { store: given, source: 'given' };
  if (existsSync(resolve(cwd, DEFAULT_STORE.slice('sqlite:'.length))))
    return { store: `sqlite:${resolve(cwd, DEFAULT_STORE.slice('sqlite:'.length))}`, source: 'working directory' };
  return { store: (await findProjectTarget(cwd, environment)).store, source: 'hooks' };
}

/** Bytes of a file, 0 when it does not exist. */
async function sizeOf(file: string): Promise<number> {
  return (await stat(file).catch(() => undefined))?.size ?? 0;
}

/** Open the store read-only and count its sessions and spans; a SQLite file that does not exist is not opened. */
export async function ledgerStatus(store: string, source: LedgerStatus['source']): Promise<LedgerStatus> {
  const file = store.startsWith('sqlite:') ? resolve(store.slice('sqlite:'.length)) : undefined;
  const exists = file === undefined || existsSync(file);
  const bytes = file === undefined || !exists ? undefined : (await sizeOf(file)) + (await sizeOf(`${file}-wal`));
  const base = { store, source, file, exists, bytes };
  if (!exists) return { ...base, sessionIds: [] };
  try {
    const opened = await openStore(store, { readonly: true });
    try {
      const sessions = await opened.listSessions();
      let spans = 0;
      for (const session of sessions) spans += await opened.nextSeq(session.id);
      const sessionIds = sessions.slice(0, 1000).map((session) => session.id);
      return { ...base, sessions: sessions.length, spans, sessionIds };
    } finally {
      await opened.close();
    }
  } catch (error) {
    const message = LedgerError.isInstance(error) ? `${error.code}: ${error.message}` : (error as Error).message;
    return { ...base, sessionIds: [], error: message };
  }
}

/** One hook ingest, from the state file it left: when, which session, how far. */
export interface HookRun {
  readonly sessionId: string;
  /** ISO time the state file was last written (the last ingest of the session). */
  readonly at: string;
  readonly transcriptPath?: string | undefined;
  /** Spans the session held after it. */
  readonly spans?: number | undefined;
}

/** The session id a state file is named after (a hashed long id keeps its readable head). */
function sessionOfStem(stem: string): string {
  try {
    return stem.includes('+') ? `${decodeURIComponent(stem.slice(0, stem.indexOf('+')))}…` : decodeURIComponent(stem);
  } catch {
    return stem;
  }
}

/** The newest hook ingests of a store's sessions (its ingest directory), newest first. */
export async function hookRuns(store: string, environment: LedgerEnvironment, limit = 5): Promise<HookRun[]> {
  const directory = ingestDirectoryOf(store, environment);
  const names = (await readdir(directory).catch(() => [] as string[])).filter(
    (name) => name.endsWith('.json') && !name.startsWith('.'),
  );
  const runs: (HookRun & { time: number })[] = [];
  for (const name of names) {
    const file = join(directory, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const state = await readJsonObject(file);
    runs.push({
      sessionId: sessionOfStem(name.slice(0, -'.json'.length)),
      at: info.mtime.toISOString(),
      time: info.mtimeMs,
      transcriptPath: typeof state.transcriptPath === 'string' ? state.transcriptPath : undefined,
      spans: typeof state.spans === 'number' ? state.spans : undefined,
    });
  }
  return runs
    .sort((a, b) => b.time - a.time)
    .slice(0, limit)
    .map(({ time: _time, ...run }) => run);
}

async function readJsonObject(file: string): Promise<Record<string, unknown>> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The sessions Claude Code keeps transcripts of for the project (`~/.claude/projects/<project>/<session>.jsonl`). */
export async function claudeTranscriptSessions(cwd: string, environment: LedgerEnvironment): Promise<string[]> {
  const names = await readdir(claudeProjectDirectory(cwd, environment)).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.jsonl')).map((name) => name.slice(0, -'.jsonl'.length));
}

/** One line of the hook log. */
export interface HookLogLine {
  readonly at: string;
  /** `claude-code` or `codex`. */
  readonly agent: string;
  /** The hook event, when the call got that far. */
  readonly event?: string | undefined;
  readonly sessionId?: string | undefined;
  /** The project directory the call ran in (`cwd` of the hook input), when the line names it. */
  readonly directory?: string | undefined;
  readonly message: string;
  /** A failed call (an error), not a note about a skipped line or a setting. */
  readonly failure: boolean;
}

/** Bytes of the end of the hook log read (the log only grows; its last lines are the ones that matter). */
const LOG_TAIL_BYTES = 1 << 20;

/** The end of a file, whole lines only; empty when it does not exist. */
async function tail(file: string, bytes: number): Promise<string> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return '';
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - bytes);
    const buffer = new Uint8Array(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = new TextDecoder().decode(buffer);
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    await handle.close();
  }
}

/** `TIME hook AGENT [EVENT session ID [in "DIR"]]: MESSAGE` (lines written before the directory was logged have none). */
const LOG_LINE =
  /^(\d{4}-\d\d-\d\dT\S+) hook (claude-code|codex)(?: (\S+) session (.+?)(?: in ("(?:[^"\\]|\\.)*"))?)?: (.*)$/;
/** A logged failure: an error code (`NOT_FOUND: …`) or an unexpected error; other lines are notes. */
const FAILURE = /^(?:[A-Z][A-Z_]+: |unexpected error: )/;

function directoryOf(quoted: string): string | undefined {
  try {
    const value = JSON.parse(quoted) as unknown;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The hook log's lines (its last MiB), oldest first; lines of another shape are left out. */
export async function hookLogLines(file: string): Promise<HookLogLine[]> {
  const lines: HookLogLine[] = [];
  for (const line of (await tail(file, LOG_TAIL_BYTES)).split('\n')) {
    const match = LOG_LINE.exec(line);
    if (!match) continue;
    const [, at = '', agent = '', event, sessionId, quotedDirectory, message = ''] = match;
    const directory = quotedDirectory === undefined ? undefined : directoryOf(quotedDirectory);
    lines.push({ at, agent, event, sessionId, directory, message, failure: FAILURE.test(message) });
  }
  return lines;
}
