/**
 * Which store and session a CLI command (serve, recall, describe, expand, grep) uses when it is not
 * told: with the default `--store` and no `.context-ledger/ledger.db` in the working
 * directory, the ledger of the Claude Code project there (`$CLAUDE_PROJECT_DIR` or the working
 * directory), found through what its hooks recorded, and the running conversation.
 */
import { existsSync } from 'node:fs';
import { InvalidInputError } from '../errors.js';
import { findProjectTarget } from '../integrations/claude-code/project-session.js';
import { DEFAULT_STORE, parseSqliteSpec } from '../stores/store-spec.js';

/** The store spec and default session a command should use. */
export interface ServeTarget {
  /** Store spec. */
  readonly store: string;
  /** A fixed session id, a function finding the running session at each call, or none. */
  readonly defaultSession: string | (() => Promise<string | undefined>) | undefined;
  /** True when the store is a project ledger its hooks write (found through the project, not given). */
  readonly hookManaged: boolean;
}

/** The project directory of a command started by Claude Code. */
export function projectDirectory(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  return environment.CLAUDE_PROJECT_DIR ?? process.cwd();
}

/** Resolve the store and default session from `--store` and `--session` as given (or defaulted). */
export async function projectServeTarget(store: string, session: string | undefined): Promise<ServeTarget> {
  if (store !== DEFAULT_STORE || existsSync(parseSqliteSpec(DEFAULT_STORE).path))
    return { store, defaultSession: session, hookManaged: false };
  const directory = projectDirectory();
  const found = await findProjectTarget(directory);
  if (found.source !== 'hook' && (!found.store.startsWith('sqlite:') || !existsSync(parseSqliteSpec(found.store).path)))
    return { store, defaultSession: session, hookManaged: false };
  return {
    store: found.store,
    hookManaged: true,
    defaultSession: session ?? (async () => (await findProjectTarget(directory)).sessionId),
  };
}

/**
 * The store spec and the one session a read command (recall, describe, expand, grep) reads: `--session`, else the
 * running conversation of a hooked project. Throws InvalidInputError naming `--session` when there is none.
 */
export async function drillDownTarget(
  store: string,
  session: string | undefined,
): Promise<{ store: string; sessionId: string }> {
  const target = await projectServeTarget(store, session);
  const sessionId = typeof target.defaultSession === 'function' ? await target.defaultSession() : target.defaultSession;
  if (sessionId === undefined)
    throw new InvalidInputError(
      'No session given: pass --session ID (or run it in a Claude Code project whose hooks recorded one).',
      { field: '--session' },
    );
  return { store: target.store, sessionId };
}
