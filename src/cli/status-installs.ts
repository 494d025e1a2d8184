/**
 * For `context-ledger status`: where the hooks and the MCP server are registered for a project, read from the files
 * `install` writes (Claude Code's project, local and user scopes; Codex's project and user scopes) and from the
 * plugin's entry in Claude Code's settings (`enabledPlugins`). Nothing is written.
 */
import { readFile } from 'node:fs/promises';
import {
  HOOK_EVENTS,
  MCP_SERVER_NAME,
  claudeCodeFiles,
  isOurHookCommand,
} from '../integrations/claude-code/install.js';
import type { InstallScope } from '../integrations/claude-code/install.js';
import type { LedgerEnvironment } from '../integrations/claude-code/ledger-home.js';
import { CODEX_HOOK_EVENTS, codexFiles, hooksTurnedOff } from '../integrations/codex/install.js';
import { isOurMcpEntry } from '../integrations/install/hook-entries.js';

/** One place the integration is registered (only places holding something of ours, or a file that cannot be read). */
export interface InstallPlace {
  readonly agent: 'claude-code' | 'codex';
  /** `plugin`: Claude Code's plugin, enabled in `file`. */
  readonly scope: InstallScope | 'plugin';
  /** The file holding the hooks (the settings enabling the plugin). */
  readonly hooksFile: string;
  /** The file holding the MCP server. */
  readonly mcpFile: string;
  /** Hook events that call our hook. */
  readonly hookEvents: readonly string[];
  /** The commands of those hooks (the plugin's: `(plugin)`). */
  readonly hookCommands: readonly string[];
  /** Hook events install registers that this place lacks (when it has some). */
  readonly missingEvents: readonly string[];
  /** True when the MCP server is registered here. */
  readonly mcpServer: boolean;
  /** Files that could not be read or parsed, with the reason. */
  readonly unreadable: readonly string[];
  /** Codex: the line of config.toml turning hooks off. */
  readonly hooksOff?: string | undefined;
}

/** A file's text (undefined when it does not exist), or the reason it cannot be read. */
async function readText(file: string): Promise<{ text?: string; error?: string }> {
  try {
    return { text: await readFile(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? {} : { error: `${file}: ${(error as Error).message}` };
  }
}

/** A JSON file's value (undefined when it does not exist), or the reason it is not JSON. */
async function readJson(file: string, problems: string[]): Promise<unknown> {
  const { text, error } = await readText(file);
  if (error !== undefined) problems.push(error);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    problems.push(`${file}: not valid JSON (${(cause as Error).message})`);
    return undefined;
  }
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** Our hook commands in a `{"hooks": {"<Event>": [{"hooks": [{"command"}]}]}}` document, and their events. */
function ourHooks(settings: unknown, agent: 'claude-code' | 'codex'): { events: string[]; commands: string[] } {
  const hooks = field(settings, 'hooks');
  const events: string[] = [];
  const commands = new Set<string>();
  if (hooks === null || typeof hooks !== 'object') return { events, commands: [] };
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const found = groups.flatMap((group) => {
      const handlers = field(group, 'hooks');
      return Array.isArray(handlers) ? handlers.map((handler) => field(handler, 'command')) : [];
    });
    const ours = found.filter((command): command is string => isOurHookCommand(command, agent));
    if (ours.length > 0) events.push(event);
    for (const command of ours) commands.add(command);
  }
  return { events, commands: [...commands] };
}

/** True when `mcpServers` (at `base` in the document) holds our server: under our name, or started as install does. */
function hasOurServer(document: unknown, base: readonly (string | number)[]): boolean {
  let value = document;
  for (const key of base) value = field(value, String(key));
  const servers = field(value, 'mcpServers');
  if (servers === null || typeof servers !== 'object') return false;
  return Object.entries(servers).some(([name, entry]) => name === MCP_SERVER_NAME || isOurMcpEntry(entry));
}

/** The place, when it holds something of ours (or a file that cannot be read). */
function place(found: Omit<InstallPlace, 'missingEvents'>, expected: readonly string[]): InstallPlace[] {
  const missingEvents =
    found.hookEvents.length === 0 ? [] : expected.filter((event) => !found.hookEvents.includes(event));
  const any = found.hookEvents.length > 0 || found.mcpServer || found.unreadable.length > 0;
  return any ? [{ ...found, missingEvents }] : [];
}

/** True when the settings enable a plugin named context-ledger (`enabledPlugins["context-ledger@<marketplace>"]`). */
function enablesPlugin(settings: unknown): boolean {
  const enabled = field(settings, 'enabledPlugins');
  if (enabled === null || typeof enabled !== 'object') return false;
  return Object.entries(enabled).some(([key, on]) => key.startsWith(`${MCP_SERVER_NAME}@`) && on === true);
}

const NO_INVOCATION = { command: 'context-ledger', args: [] };

/** Claude Code: the project, local and user scopes install writes, and the plugin where a settings file enables it. */
async function claudeCodePlaces(cwd: string, environment: LedgerEnvironment): Promise<InstallPlace[]> {
  const places: InstallPlace[] = [];
  for (const scope of ['project', 'local', 'user'] as const) {
    const files = claudeCodeFiles({ scope, cwd, environment, invocation: NO_INVOCATION });
    const unreadable: string[] = [];
    const settings = await readJson(files.settings, unreadable);
    const mcp = await readJson(files.mcp, unreadable);
    const hooks = ourHooks(settings, 'claude-code');
    const found = {
      agent: 'claude-code' as const,
      hooksFile: files.settings,
      mcpFile: files.mcp,
      hookEvents: hooks.events,
      hookCommands: hooks.commands,
      mcpServer: hasOurServer(mcp, files.mcpBase),
    };
    places.push(...place({ ...found, scope, unreadable }, HOOK_EVENTS));
    if (enablesPlugin(settings))
      places.push({
        ...found,
        scope: 'plugin',
        hookEvents: [...HOOK_EVENTS],
        hookCommands: ['(plugin)'],
        missingEvents: [],
        mcpServer: true,
        unreadable: [],
      });
  }
  return places;
}

/** Codex: the project and user scopes (`hooks.json` and `config.toml`). */
async function codexPlaces(cwd: string, environment: LedgerEnvironment): Promise<InstallPlace[]> {
  const places: InstallPlace[] = [];
  for (const scope of ['project', 'user'] as const) {
    const files = codexFiles({ scope, cwd, environment, invocation: NO_INVOCATION });
    const unreadable: string[] = [];
    const hooks = await readJson(files.hooks, unreadable);
    const config = await readText(files.config);
    if (config.error !== undefined) unreadable.push(config.error);
    const text = config.text ?? '';
    const ours = ourHooks(hooks, 'codex');
    const found = {
      agent: 'codex' as const,
      scope,
      hooksFile: files.hooks,
      mcpFile: files.config,
      hookEvents: ours.events,
      hookCommands: ours.commands,
      mcpServer: /^\s*\[\s*mcp_servers\s*\.\s*(?:"context-ledger(?:-2)?"|context-ledger(?:-2)?)\s*\]/m.test(text),
      unreadable,
      hooksOff: hooksTurnedOff(text),
    };
    places.push(...place(found, CODEX_HOOK_EVENTS));
  }
  return places;
}

/** Every place the integration is registered for the project at `cwd`. */
export async function installPlaces(cwd: string, environment: LedgerEnvironment): Promise<InstallPlace[]> {
  return [...(await claudeCodePlaces(cwd, environment)), ...(await codexPlaces(cwd, environment))];
}
