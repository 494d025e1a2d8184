/**
 * Which store and session a CLI command (serve, describe, expand, grep) uses when it is not
 * told: with the default `--store` and no `.context-ledger/ledger.db` in the working
 * directory, the ledger of the Claude Code project there (`$CLAUDE_PROJECT_DIR` or the working
 * directory), found through what its hooks recorded, and the running conversation.
 */
import { existsSync } from 'node:fs';
import { findProjectTarget } from '../integrations/claude-code/project-session.js';
import { DEFAULT_STORE } from './store-spec.js';

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
  if (store !== DEFAULT_STORE || existsSync(DEFAULT_STORE.slice('sqlite:'.length)))
    return { store, defaultSession: session, hookManaged: false };
  const directory = projectDirectory();
  const found = await findProjectTarget(directory);
  if (found.source !== 'hook' && !existsSync(found.store.slice('sqlite:'.length)))
    return { store, defaultSession: session, hookManaged: false };
  return {
    store: found.store,
    hookManaged: true,
    defaultSession: session ?? (async () => (await findProjectTarget(directory)).sessionId),
  };
}
