/**
 * `context-ledger install claude-code` / `uninstall claude-code`.
 *
 * - Hooks (`PreCompact`, `SessionStart`, `Stop` → `context-ledger hook claude-code`) are merged
 *   into `.claude/settings.json` (`--project`, the default) or `~/.claude/settings.json`
 *   (`--user`).
 * - The MCP server (`context-ledger serve --stdio`) is registered as `mcpServers.context-ledger`
 *   in `.mcp.json` at the project root (project scope) or in `~/.claude.json` (user scope).
 * Existing settings are never replaced: a JSON merge in the file's own indentation; running it
 * twice changes nothing; uninstall removes exactly our entries, and when nothing else changed
 * restores each file's original bytes.
 */
import { join } from 'node:path';
import {
  applyInstall,
  applyUninstall,
  isJsonObject,
  parseJsonObject,
  readOptional,
  restoredText,
  sameJson,
  serializeJsonLike,
} from '../install/config-files.js';
import type { FileEdit, JsonObject } from '../install/config-files.js';
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

/** True for a hook command this integration wrote (whatever path it was installed from). */
export function isOurHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /(^|\s)hook claude-code(\s|$)/.test(command);
}

/** The MCP server entry. */
export function mcpServerEntry(invocation: Invocation): JsonObject {
  return { type: 'stdio', command: invocation.command, args: [...invocation.args, 'serve', '--stdio'], env: {} };
}

/** The files install touches for a scope. */
export function claudeCodeFiles(options: InstallOptions): { settings: string; mcp: string } {
  const environment = options.environment ?? process.env;
  if (options.scope === 'user') {
    const home = userHome(environment);
    return { settings: join(home, '.claude', 'settings.json'), mcp: join(home, '.claude.json') };
  }
  const cwd = options.cwd ?? process.cwd();
  return { settings: join(cwd, '.claude', 'settings.json'), mcp: join(cwd, '.mcp.json') };
}

/** Where install keeps the original bytes of the files it changes. */
export function backupDirectory(environment: LedgerEnvironment = process.env): string {
  return join(ledgerHome(environment), 'install-backups');
}

type HookGroup = { matcher?: string; hooks?: unknown[] } & JsonObject;

function withHooks(settings: JsonObject, invocation: Invocation, notes: string[]): JsonObject {
  const hooks = isJsonObject(settings.hooks) ? { ...settings.hooks } : {};
  for (const event of HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    const present = groups.some(
      (group) =>
        isJsonObject(group) &&
        Array.isArray(group.hooks) &&
        group.hooks.some((hook) => isJsonObject(hook) && isOurHookCommand(hook.command)),
    );
    if (present) continue;
    groups.push({ hooks: [{ type: 'command', command: hookCommand(invocation), timeout: 60 }] });
    hooks[event] = groups;
    notes.push(`hook ${event} → ${hookCommand(invocation)}`);
  }
  return { ...settings, hooks };
}

function withoutHooks(settings: JsonObject): JsonObject {
  if (!isJsonObject(settings.hooks)) return settings;
  const hooks: JsonObject = {};
  for (const [event, value] of Object.entries(settings.hooks)) {
    if (!Array.isArray(value)) {
      hooks[event] = value;
      continue;
    }
    const groups: unknown[] = [];
    for (const group of value) {
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) {
        groups.push(group);
        continue;
      }
      const kept = group.hooks.filter((hook) => !(isJsonObject(hook) && isOurHookCommand(hook.command)));
      if (kept.length === group.hooks.length) groups.push(group);
      else if (kept.length > 0) groups.push({ ...(group as HookGroup), hooks: kept });
    }
    if (groups.length > 0) hooks[event] = groups;
  }
  const { hooks: _removed, ...rest } = settings;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

function withServer(config: JsonObject, invocation: Invocation, notes: string[]): JsonObject {
  const servers = isJsonObject(config.mcpServers) ? config.mcpServers : {};
  if (servers[MCP_SERVER_NAME] !== undefined) {
    notes.push(`mcpServers.${MCP_SERVER_NAME} already present: kept as it is`);
    return config;
  }
  notes.push(
    `mcpServers.${MCP_SERVER_NAME} → ${[invocation.command, ...invocation.args, 'serve', '--stdio'].join(' ')}`,
  );
  return { ...config, mcpServers: { ...servers, [MCP_SERVER_NAME]: mcpServerEntry(invocation) } };
}

function withoutServer(config: JsonObject): JsonObject {
  if (!isJsonObject(config.mcpServers) || config.mcpServers[MCP_SERVER_NAME] === undefined) return config;
  const entry = config.mcpServers[MCP_SERVER_NAME];
  const ours = isJsonObject(entry) && Array.isArray(entry.args) && entry.args.slice(-2).join(' ') === 'serve --stdio';
  if (!ours) return config;
  const { [MCP_SERVER_NAME]: _removed, ...servers } = config.mcpServers;
  const { mcpServers: _old, ...rest } = config;
  return Object.keys(servers).length > 0 ? { ...rest, mcpServers: servers } : rest;
}

/** Plan the install: the edits of the settings and MCP files (nothing written). */
export async function planClaudeCodeInstall(options: InstallOptions): Promise<FileEdit[]> {
  const files = claudeCodeFiles(options);
  const edits: FileEdit[] = [];
  const settingsText = await readOptional(files.settings);
  const settingsNotes: string[] = [];
  const settings = withHooks(parseJsonObject(files.settings, settingsText), options.invocation, settingsNotes);
  edits.push({
    file: files.settings,
    before: settingsText,
    after: settingsNotes.length > 0 ? serializeJsonLike(settings, settingsText) : settingsText,
    notes: settingsNotes,
  });
  const mcpText = await readOptional(files.mcp);
  const mcpNotes: string[] = [];
  const before = parseJsonObject(files.mcp, mcpText);
  const config = withServer(before, options.invocation, mcpNotes);
  edits.push({
    file: files.mcp,
    before: mcpText,
    after: config === before ? mcpText : serializeJsonLike(config, mcpText),
    notes: mcpNotes,
  });
  return edits;
}

/** Plan the uninstall: our entries removed; original bytes restored when nothing else changed. */
export async function planClaudeCodeUninstall(options: InstallOptions): Promise<FileEdit[]> {
  const files = claudeCodeFiles(options);
  const backups = backupDirectory(options.environment);
  const edits: FileEdit[] = [];
  for (const [file, remove] of [
    [files.settings, withoutHooks],
    [files.mcp, withoutServer],
  ] as const) {
    const text = await readOptional(file);
    if (text === undefined) continue;
    const parsed = parseJsonObject(file, text);
    const remaining = remove(parsed);
    const changed = !sameJson(JSON.stringify(remaining), JSON.stringify(parsed));
    const emptied = changed && Object.keys(remaining).length === 0;
    const reserialized = emptied ? undefined : changed ? serializeJsonLike(remaining, text) : text;
    const restored = await restoredText(file, reserialized, backups, sameJson);
    edits.push({
      file,
      before: text,
      after: restored.text,
      notes: changed
        ? [restored.fromBackup ? 'our entries removed; original bytes restored' : 'our entries removed']
        : [],
    });
  }
  return edits;
}

/** Install (or with `dryRun`, only plan). Returns the edits. */
export async function installClaudeCode(options: InstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planClaudeCodeInstall(options);
  if (!options.dryRun) await applyInstall(edits, backupDirectory(options.environment));
  return edits;
}

/** Uninstall (or with `dryRun`, only plan). Returns the edits. */
export async function uninstallClaudeCode(options: InstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planClaudeCodeUninstall(options);
  if (!options.dryRun) await applyUninstall(edits, backupDirectory(options.environment));
  return edits;
}
