/**
 * `context-ledger install claude-code` / `uninstall claude-code`.
 *
 * - Hooks (`PreCompact`, `SessionStart`, `Stop` → `context-ledger hook claude-code`) are added
 *   to `.claude/settings.json` (`--project`, the default) or `~/.claude/settings.json`
 *   (`--user`).
 * - The MCP server (`context-ledger serve --stdio`) is registered as `mcpServers.context-ledger`
 *   in `.mcp.json` at the project root (project scope) or in `~/.claude.json` (user scope).
 * Install inserts only the bytes of its own entries (a text edit: every other byte, number,
 * comment-free formatting and key order stays); running it twice changes nothing; uninstall
 * removes exactly our entries, and when nothing else changed restores each file's original
 * bytes. Files keep their mode and owner, links are written through, read-only files are refused.
 */
import { join } from 'node:path';
import {
  applyInstall,
  applyUninstall,
  backedUpOriginal,
  recordedBackupDirectory,
  restoredText,
} from '../install/config-files.js';
import type { FileEdit, InstallPlaces } from '../install/config-files.js';
import {
  isOurMcpEntry,
  pathsOf,
  withHookEntries,
  withMcpServer,
  withoutHookEntries,
  withoutMcpServer,
} from '../install/hook-entries.js';
import type { KeepPath } from '../install/hook-entries.js';
import type { JsonObject } from '../install/json-text-edit.js';
import { sameJsonTokens } from '../install/json-text-edit.js';
import { readOptional } from '../install/safe-write.js';
import { ledgerHome, userHome } from './ledger-home.js';
import type { LedgerEnvironment } from './ledger-home.js';

/** The name our MCP server is registered under. */
export const MCP_SERVER_NAME = 'context-ledger';
/** Hook events the integration registers. */
export const HOOK_EVENTS = ['PreCompact', 'SessionStart', 'Stop'] as const;

/** How to start context-ledger: a program and the arguments before the subcommand. */
export interface Invocation {
  readonly command: string;
  readonly args: readonly string[];
}

/** Options of install and uninstall. */
export interface InstallOptions {
  /** `project` (default: `.claude/settings.json` + `.mcp.json` under `cwd`) or `user` (`~/.claude/settings.json` + `~/.claude.json`). */
  readonly scope: 'project' | 'user';
  /** The project directory (default: the working directory). */
  readonly cwd?: string | undefined;
  /** How hooks and the MCP client start context-ledger. */
  readonly invocation: Invocation;
  /** Environment (HOME, the ledger home holding backups). */
  readonly environment?: LedgerEnvironment | undefined;
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

/** The files install touches for a scope, and the install record beside them. */
export function claudeCodeFiles(options: InstallOptions): { settings: string; mcp: string; record: string } {
  const environment = options.environment ?? process.env;
  const base = options.scope === 'user' ? userHome(environment) : (options.cwd ?? process.cwd());
  return {
    settings: join(base, '.claude', 'settings.json'),
    mcp: join(base, options.scope === 'user' ? '.claude.json' : '.mcp.json'),
    record: join(base, '.claude', INSTALL_RECORD_NAME),
  };
}

/** Name of the install record kept beside the edited files (it names the backup directory). */
export const INSTALL_RECORD_NAME = 'context-ledger-install.json';

/** Where install keeps the original bytes of the files it changes: `<ledger home>/install-backups` (0700, files 0600). */
export function backupDirectory(environment: LedgerEnvironment = process.env): string {
  return join(ledgerHome(environment), 'install-backups');
}

/** Who reads these files (named when a file is refused). */
const READER = 'Claude Code';

function places(options: InstallOptions): InstallPlaces {
  return { backupDirectory: backupDirectory(options.environment), recordFile: claudeCodeFiles(options).record };
}

/** Plan the install: the edits of the settings and MCP files (nothing written). */
export async function planClaudeCodeInstall(options: InstallOptions): Promise<FileEdit[]> {
  const files = claudeCodeFiles(options);
  const command = hookCommand(options.invocation);
  const settingsText = await readOptional(files.settings);
  const settings = withHookEntries(files.settings, settingsText, READER, HOOK_EVENTS, command, (value) =>
    isOurHookCommand(value),
  );
  const mcpText = await readOptional(files.mcp);
  const describe = [options.invocation.command, ...options.invocation.args, 'serve', '--stdio'].join(' ');
  const mcp = withMcpServer(files.mcp, mcpText, READER, MCP_SERVER_NAME, mcpServerEntry(options.invocation), describe);
  return [
    { file: files.settings, before: settingsText, after: settings.text, notes: settings.notes },
    {
      file: files.mcp,
      before: mcpText,
      after: mcp.text,
      notes: mcp.notes,
      // ~/.claude.json holds account data: a new one is private like the one Claude Code writes.
      newFileMode: options.scope === 'user' ? 0o600 : undefined,
    },
  ];
}

/** Plan the uninstall: our entries removed; original bytes restored when nothing else changed. */
export async function planClaudeCodeUninstall(options: InstallOptions): Promise<FileEdit[]> {
  const files = claudeCodeFiles(options);
  const backups = await recordedBackupDirectory(places(options));
  const edits: FileEdit[] = [];
  const isOurs = (value: unknown) => isOurHookCommand(value);
  const removals = [
    [
      files.settings,
      (file: string, text: string, keep: KeepPath) => withoutHookEntries(file, text, READER, isOurs, keep),
    ],
    [
      files.mcp,
      (file: string, text: string, keep: KeepPath) =>
        withoutMcpServer(file, text, READER, MCP_SERVER_NAME, isOurMcpEntry, keep),
    ],
  ] as const;
  for (const [file, remove] of removals) {
    const text = await readOptional(file);
    if (text === undefined) continue;
    // Containers our removal empties are dropped, unless the original (backup) had them.
    const removed = remove(file, text, pathsOf(file, await backedUpOriginal(file, backups), READER));
    if (removed.notes.length === 0) {
      edits.push({ file, before: text, after: text, notes: [] });
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
  if (!options.dryRun) await applyInstall(edits, places(options));
  return edits;
}

/** Uninstall (or with `dryRun`, only plan). Returns the edits. */
export async function uninstallClaudeCode(options: InstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planClaudeCodeUninstall(options);
  if (!options.dryRun) await applyUninstall(edits, places(options));
  return edits;
}
