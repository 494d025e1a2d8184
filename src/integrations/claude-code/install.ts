/**
 * `context-ledger install claude-code` / `uninstall claude-code`.
 *
 * - Hooks (`PreCompact`, `SessionStart`, `Stop` → `context-ledger hook claude-code`; Stop in the background) are
 *   added to `.claude/settings.json` (`--project`, the default: the file a team commits),
 *   `.claude/settings.local.json` (`--local`: this project, for you only) or `~/.claude/settings.json` (`--user`).
 * - The MCP server (`context-ledger serve --stdio`) is registered as `mcpServers.context-ledger`
 *   in `.mcp.json` at the project root (project scope), under `projects.<project path>` in `~/.claude.json`
 *   (local scope, as `claude mcp add --scope local` does) or at the top of `~/.claude.json` (user scope).
 * Install inserts only the bytes of its own entries (a text edit: every other byte, number,
 * comment-free formatting and key order stays); running it twice changes nothing; uninstall
 * removes exactly our entries, and when nothing else changed restores each file's original
 * bytes. Files keep their mode and owner, links are written through, read-only files are refused.
 *
 * An entry is ours only when install wrote it (the install record lists each entry it wrote) or it
 * is exactly what install writes: an MCP server named `context-ledger`, or a hook calling `hook
 * claude-code`, that someone else wrote (a repository can ship `.mcp.json`) makes install fail with
 * an error saying what that entry runs — never "already present" — unless `--force` (ours is then
 * registered beside it); uninstall leaves such an entry as it is.
 */
import { join, resolve } from 'node:path';
import {
  applyInstall,
  applyUninstall,
  backedUpOriginal,
  recordedBackupDirectory,
  recordedEntries,
  restoredText,
  sameJsonValue,
  wasWritten,
} from '../install/config-files.js';
import type { FileEdit, InstallPlaces, RecordedEntries, WrittenEntry } from '../install/config-files.js';
import {
  isOurMcpEntry,
  pathsOf,
  withHookEntries,
  withMcpServer,
  withoutHookEntries,
  withoutMcpServers,
} from '../install/hook-entries.js';
import type { EntryOwner, KeepPath, WrittenItem } from '../install/hook-entries.js';
import type { JsonObject, JsonPath } from '../install/json-text-edit.js';
import { sameJsonTokens } from '../install/json-text-edit.js';
import { readOptional } from '../install/safe-write.js';
import { ledgerHome, projectKey, userHome } from './ledger-home.js';
import type { LedgerEnvironment } from './ledger-home.js';

/** The name our MCP server is registered under. */
export const MCP_SERVER_NAME = 'context-ledger';
/** Hook events the integration registers. */
export const HOOK_EVENTS = ['PreCompact', 'SessionStart', 'Stop'] as const;
/**
 * Hook events Claude Code runs in the background (`"async": true`): the Stop ingest, whose output the agent does not
 * wait for (a failure still reaches the user, on the next turn). PreCompact and SessionStart stay waited for: the
 * context after a compaction is built from what they ingested.
 */
export const BACKGROUND_HOOK_EVENTS: readonly string[] = ['Stop'];

/** Where install writes: the project's committed files, the project for you only, or every project of yours. */
export type InstallScope = 'project' | 'local' | 'user';

/** How to start context-ledger: a program and the arguments before the subcommand. */
export interface Invocation {
  readonly command: string;
  readonly args: readonly string[];
}

/** Options of install and uninstall. */
export interface InstallOptions {
  /**
   * `project` (`.claude/settings.json` + `.mcp.json` under `cwd`: files a team commits), `local`
   * (`.claude/settings.local.json` + `projects.<cwd>` of `~/.claude.json`) or `user` (`~/.claude/settings.json` +
   * `~/.claude.json`).
   */
  readonly scope: InstallScope;
  /** The project directory (default: the working directory). */
  readonly cwd?: string | undefined;
  /** How hooks and the MCP client start context-ledger. */
  readonly invocation: Invocation;
  /** Environment (HOME, the ledger home holding backups). */
  readonly environment?: LedgerEnvironment | undefined;
  /**
   * Install even where an entry under our name (or a hook calling ours) was not written by install:
   * that entry is left as it is, and ours is registered beside it (the MCP server as `context-ledger-2`).
   */
  readonly force?: boolean | undefined;
}

function quote(part: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(part) ? part : `"${part.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The shell command a hook runs (`agent`: which `hook` subcommand, Claude Code's by default). */
export function hookCommand(invocation: Invocation, agent: 'claude-code' | 'codex' = 'claude-code'): string {
  return [invocation.command, ...invocation.args, 'hook', agent].map(quote).join(' ');
}

/** True for a hook command of this integration for `agent` (whatever path it was installed from). */
export function isOurHookCommand(command: unknown, agent: 'claude-code' | 'codex' = 'claude-code'): boolean {
  return typeof command === 'string' && new RegExp(`(^|\\s)hook ${agent}(\\s|$)`).test(command);
}

/** The MCP server entry. */
export function mcpServerEntry(invocation: Invocation): JsonObject {
  return { type: 'stdio', command: invocation.command, args: [...invocation.args, 'serve', '--stdio'], env: {} };
}

/** The files install touches for a scope, and the install record. */
export interface ClaudeCodeFiles {
  /** The settings file holding the hooks. */
  readonly settings: string;
  /** The file holding the MCP server. */
  readonly mcp: string;
  /** Where its `mcpServers` object is in that file (empty: at the top). */
  readonly mcpBase: JsonPath;
  /** The install record (backup directory, entries written). */
  readonly record: string;
  /** Where an older release kept the record of this scope (read and removed when the record is not found). */
  readonly legacyRecord?: string | undefined;
}

/**
 * The files of a scope. The install record names this machine's paths (the backup directory, the edited files), so it
 * is kept in `~/.claude/`, never in the project (whose `.claude/` a team commits): `context-ledger-install.json` for
 * the user scope, one file per project and scope for the others (an older release kept the project's in its
 * `.claude/`: that one is still read, and removed by uninstall).
 */
export function claudeCodeFiles(options: InstallOptions): ClaudeCodeFiles {
  const home = userHome(options.environment ?? process.env);
  const project = resolve(options.cwd ?? process.cwd());
  if (options.scope === 'user')
    return {
      settings: join(home, '.claude', 'settings.json'),
      mcp: join(home, '.claude.json'),
      mcpBase: [],
      record: join(home, '.claude', INSTALL_RECORD_NAME),
    };
  if (options.scope === 'local')
    return {
      settings: join(project, '.claude', 'settings.local.json'),
      mcp: join(home, '.claude.json'),
      mcpBase: ['projects', project],
      record: join(home, '.claude', `context-ledger-install.local-${projectKey(project)}.json`),
    };
  return {
    settings: join(project, '.claude', 'settings.json'),
    mcp: join(project, '.mcp.json'),
    mcpBase: [],
    record: join(home, '.claude', `context-ledger-install.project-${projectKey(project)}.json`),
    legacyRecord: join(project, '.claude', INSTALL_RECORD_NAME),
  };
}

/** Name of the install record of the user scope in `~/.claude/` (and, from an older release, in a project's `.claude/`). */
export const INSTALL_RECORD_NAME = 'context-ledger-install.json';

/** Where install keeps the original bytes of the files it changes: `<ledger home>/install-backups` (0700, files 0600). */
export function backupDirectory(environment: LedgerEnvironment = process.env): string {
  return join(ledgerHome(environment), 'install-backups');
}

/** Who reads these files (named when a file is refused). */
const READER = 'Claude Code';

/** The backup directory and the install record: an older release's record where only that one exists. */
async function places(options: InstallOptions): Promise<InstallPlaces> {
  const { record, legacyRecord } = claudeCodeFiles(options);
  const exists = async (file: string) => (await readOptional(file).catch(() => undefined)) !== undefined;
  const recordFile =
    legacyRecord !== undefined && !(await exists(record)) && (await exists(legacyRecord)) ? legacyRecord : record;
  return { backupDirectory: backupDirectory(options.environment), recordFile };
}

/** The entries of an edit, as the install record keeps them. */
export function writtenEntries(file: string, items: readonly WrittenItem[]): WrittenEntry[] {
  return items.map((item) => ({ file, ...item }));
}

/**
 * Whose an existing hook command is: exactly ours, written by an earlier install (recorded), named
 * like ours but not written by install, or another hook.
 */
export function hookOwner(
  file: string,
  command: string,
  recorded: RecordedEntries,
  isLike: (value: unknown) => boolean,
): (value: unknown) => EntryOwner {
  return (value) => {
    if (value === command) return 'same';
    if (wasWritten(recorded.entries, { file, kind: 'hook', value })) return 'ours';
    return isLike(value) ? 'look-alike' : 'other';
  };
}

/** Plan the install: the edits of the settings and MCP files (nothing written). */
export async function planClaudeCodeInstall(options: InstallOptions): Promise<FileEdit[]> {
  const files = claudeCodeFiles(options);
  const recorded = await recordedEntries(await places(options));
  const command = hookCommand(options.invocation);
  const force = options.force === true;
  const settingsText = await readOptional(files.settings);
  const settings = withHookEntries(files.settings, settingsText, READER, HOOK_EVENTS, command, {
    owner: hookOwner(files.settings, command, recorded, (value) => isOurHookCommand(value)),
    force,
    agent: 'claude-code',
    background: BACKGROUND_HOOK_EVENTS,
  });
  const mcpText = await readOptional(files.mcp);
  const entry = mcpServerEntry(options.invocation);
  const mcp = withMcpServer(files.mcp, mcpText, READER, entry, {
    name: MCP_SERVER_NAME,
    base: files.mcpBase,
    force,
    describe: [options.invocation.command, ...options.invocation.args, 'serve', '--stdio'].join(' '),
    owner: (name, value) =>
      sameJsonValue(value, entry)
        ? 'same'
        : wasWritten(recorded.entries, { file: files.mcp, kind: 'mcp-server', name, value })
          ? 'ours'
          : 'look-alike',
  });
  return [
    {
      file: files.settings,
      before: settingsText,
      after: settings.text,
      notes: settings.notes,
      written: writtenEntries(files.settings, settings.written),
    },
    {
      file: files.mcp,
      before: mcpText,
      after: mcp.text,
      notes: mcp.notes,
      written: writtenEntries(files.mcp, mcp.written),
      // ~/.claude.json holds account data: a new one is private like the one Claude Code writes.
      newFileMode: options.scope === 'project' ? undefined : 0o600,
    },
  ];
}

/**
 * For uninstall: true for a hook command install wrote into `file` — recorded by this release's install;
 * after an older release's install (no entries recorded), any command calling `hook <agent>`; without
 * an install record, none.
 */
export function installedHook(
  file: string,
  recorded: RecordedEntries,
  isLike: (value: unknown) => boolean,
): (value: unknown) => boolean {
  if (recorded.state === 'legacy') return isLike;
  return (value) => wasWritten(recorded.entries, { file, kind: 'hook', value });
}

/** For uninstall: true for an MCP server entry install wrote under that name (see {@link installedHook}). */
function installedServer(file: string, recorded: RecordedEntries): (name: string, value: unknown) => boolean {
  if (recorded.state === 'legacy') return (name, value) => name === MCP_SERVER_NAME && isOurMcpEntry(value);
  return (name, value) => wasWritten(recorded.entries, { file, kind: 'mcp-server', name, value });
}

/** For uninstall: a note when `mcpServers.context-ledger` is there but install did not write it (it stays). */
function foreignLeft(file: string, text: string, base: JsonPath): string[] {
  if (!file.endsWith('.json') || !text.includes(`"${MCP_SERVER_NAME}"`)) return [];
  let value: unknown = JSON.parse(text);
  for (const key of base) value = (value as Record<string, unknown> | undefined)?.[String(key)];
  const servers = (value as { mcpServers?: Record<string, unknown> } | undefined)?.mcpServers;
  return servers && MCP_SERVER_NAME in servers
    ? [`mcpServers.${MCP_SERVER_NAME} was not written by install: left as it is`]
    : [];
}

/** Plan the uninstall: our entries removed; original bytes restored when nothing else changed. */
export async function planClaudeCodeUninstall(options: InstallOptions): Promise<FileEdit[]> {
  const files = claudeCodeFiles(options);
  const backups = await recordedBackupDirectory(await places(options));
  const recorded = await recordedEntries(await places(options));
  const edits: FileEdit[] = [];
  const isOurs = installedHook(files.settings, recorded, (value) => isOurHookCommand(value));
  const removals = [
    [
      files.settings,
      (file: string, text: string, keep: KeepPath) => withoutHookEntries(file, text, READER, isOurs, keep),
    ],
    [
      files.mcp,
      (file: string, text: string, keep: KeepPath) =>
        withoutMcpServers(file, text, READER, installedServer(files.mcp, recorded), keep, files.mcpBase),
    ],
  ] as const;
  for (const [file, remove] of removals) {
    const text = await readOptional(file);
    if (text === undefined) continue;
    // Containers our removal empties are dropped, unless the original (backup) had them.
    const removed = remove(file, text, pathsOf(file, await backedUpOriginal(file, backups), READER));
    if (removed.notes.length === 0) {
      edits.push({
        file,
        before: text,
        after: text,
        notes: file === files.mcp ? foreignLeft(file, text, files.mcpBase) : [],
      });
      continue;
    }
    const restored = await restoredText(file, removed.text, backups, sameJsonTokens);
    edits.push({
      file,
      before: text,
      after: restored.text,
      notes: [...removed.notes, ...(restored.fromBackup ? ['original bytes restored'] : [])],
    });
  }
  return edits;
}

/** Install (or with `dryRun`, only plan). Returns the edits. */
export async function installClaudeCode(options: InstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planClaudeCodeInstall(options);
  if (!options.dryRun) await applyInstall(edits, await places(options));
  return edits;
}

/** Uninstall (or with `dryRun`, only plan). Returns the edits. */
export async function uninstallClaudeCode(options: InstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planClaudeCodeUninstall(options);
  if (!options.dryRun) await applyUninstall(edits, await places(options));
  return edits;
}
