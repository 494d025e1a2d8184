/**
 * The Claude Code plugin at the repository root (`.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json`,
 * `hooks/hooks.json`), checked against Claude Code's plugin schema as its plugins reference documents it: required
 * fields, every path under `${CLAUDE_PLUGIN_ROOT}` and none absolute, the hook events and MCP server that
 * `install claude-code` writes (its own constants), and, after a build, that the commands the plugin declares run:
 * the hooks record a session from a plugin root whose path holds a space, and the MCP server started as the plugin
 * says serves it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKGROUND_HOOK_EVENTS,
  HOOK_EVENTS,
  MCP_SERVER_NAME,
  isOurHookCommand,
  mcpServerEntry,
} from '../../src/integrations/claude-code/install.js';
import { HOOK_TIMEOUT_SECONDS } from '../../src/integrations/install/hook-entries.js';
import { MCP_TOOL_NAMES } from '../../src/integrations/mcp/tool-names.js';
import { claudeSession, jsonl, transcriptPath } from './claude-code-fixture.js';
import { pluginSandbox } from './plugin-sandbox.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PLUGIN_ROOT = '${CLAUDE_PLUGIN_ROOT}';
/** The CLI as the plugin names it, and as the build writes it. */
const PLUGIN_CLI = `${PLUGIN_ROOT}/dist/cli/main.cjs`;
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Json = Record<string, unknown>;

function read(path: string): Json {
  return JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Json;
}

const plugin = read('.claude-plugin/plugin.json');
const marketplace = read('.claude-plugin/marketplace.json');
const hooksFile = read('hooks/hooks.json');
const packageJson = read('package.json');

interface HookGroup {
  matcher?: string;
  hooks: { type: string; command: string; timeout?: number; async?: boolean }[];
}
const hookGroups = hooksFile.hooks as Record<string, HookGroup[]>;
const hookCommands = Object.values(hookGroups).flatMap((groups) => groups.flatMap((group) => group.hooks));
const servers = plugin.mcpServers as Record<string, { command: string; args: string[] }>;

/** Every string value in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** An absolute path in a text once the plugin root variable is taken out: `/x`, `~/x`, `C:\x`, `$HOME/x`. */
const ABSOLUTE = /(?:^|[\s"'=:(])(?:\/(?!\/)|~\/|[A-Za-z]:[\\/]|\$HOME\b|\$\{HOME\})/;

describe('Claude Code plugin files (schema of the plugins reference)', () => {
  it('plugin.json: a kebab-case name, the package version, and the MCP server inline', () => {
    expect(plugin.name).toMatch(KEBAB);
    expect(plugin.version).toBe(packageJson.version);
    expect(typeof plugin.description).toBe('string');
    expect(plugin.license).toBe(packageJson.license);
    // hooks/hooks.json is loaded by default: naming it again in plugin.json is a "Duplicate hooks file" error.
    expect(plugin.hooks).toBeUndefined();
    expect(Object.keys(servers)).toEqual([MCP_SERVER_NAME]);
  });

  it('marketplace.json: name, owner and one plugin entry naming this plugin at the repository root', () => {
    expect(marketplace.name).toMatch(KEBAB);
    expect(typeof (marketplace.owner as Json).name).toBe('string');
    const entries = marketplace.plugins as Json[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ name: plugin.name, source: './', version: plugin.version });
  });

  it('hooks.json: the events install claude-code registers, each running `hook claude-code` from the plugin root', () => {
    expect(Object.keys(hookGroups).sort()).toEqual([...HOOK_EVENTS].sort());
    for (const event of HOOK_EVENTS) expect(hookGroups[event], event).toHaveLength(1);
    expect(hookCommands).toHaveLength(HOOK_EVENTS.length);
    for (const handler of hookCommands) {
      expect(handler.type).toBe('command');
      expect(handler.timeout).toBe(HOOK_TIMEOUT_SECONDS);
      expect(isOurHookCommand(handler.command)).toBe(true);
      expect(handler.command).toBe(`node "${PLUGIN_CLI}" hook claude-code`);
    }
  });

  it('hooks.json: Stop runs in the background (`async`), as install writes it; PreCompact and SessionStart are waited for', () => {
    for (const event of HOOK_EVENTS)
      for (const handler of hookGroups[event]?.flatMap((group) => group.hooks) ?? [])
        expect(handler.async === true, event).toBe(BACKGROUND_HOOK_EVENTS.includes(event));
    expect(BACKGROUND_HOOK_EVENTS).toEqual(['Stop']);
  });

  it('the MCP server is the entry install writes, started from the plugin root', () => {
    expect(servers[MCP_SERVER_NAME]).toEqual(mcpServerEntry({ command: 'node', args: [PLUGIN_CLI] }));
  });

  it('names no absolute path anywhere, and every file it runs under ${CLAUDE_PLUGIN_ROOT}', () => {
    for (const text of [plugin, marketplace, hooksFile].flatMap(strings)) {
      expect(text.split(PLUGIN_ROOT).join('ROOT'), text).not.toMatch(ABSOLUTE);
      for (const file of text.match(/\S*dist\/\S*/g) ?? []) expect(file, text).toMatch(/^"?\$\{CLAUDE_PLUGIN_ROOT\}\//);
    }
    expect(ABSOLUTE.test('node /usr/lib/x.js'), 'the check itself finds an absolute path').toBe(true);
  });

  it('the CLI the plugin names is what the build writes (the package bin)', () => {
    const bin = (packageJson.bin as Json)['context-ledger'];
    expect(PLUGIN_CLI).toBe(`${PLUGIN_ROOT}/${String(bin)}`);
    expect(existsSync(join(ROOT, String(bin))), 'run `npm run build` first').toBe(true);
  });
});

describe('the plugin as Claude Code runs it (after a build)', () => {
  const SESSION = '5d1e0c3b-8a7f-4e2d-9b6c-1f0a2e3d4c5b';
  let pluginRoot: string;
  let project: string;
  let environment: Record<string, string>;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    // installed under a cache folder whose path holds a space, which checks the hooks' quoting
    const sandbox = await pluginSandbox(ROOT, 'cl-plugin-', 'CLAUDE_PLUGIN_ROOT');
    ({ pluginRoot, project, environment } = sandbox);
    remove = sandbox.remove;
  });

  afterAll(async () => {
    await remove();
  });

  it("the Stop hook's command records the transcript; the plugin's MCP server then recalls from it", async () => {
    const transcript = await transcriptPath(environment.HOME ?? '', project, SESSION);
    const turns = claudeSession(SESSION, project);
    await writeFile(
      transcript,
      jsonl([
        turns.user('Deploy PAY-4821 with the config at /etc/payments/db.conf to eu-west-2b.'),
        turns.assistant('Deploying PAY-4821 to eu-west-2b now.'),
      ]),
    );
    const command = hookGroups.Stop?.[0]?.hooks[0]?.command ?? '';
    const input = { session_id: SESSION, transcript_path: transcript, cwd: project, hook_event_name: 'Stop' };
    const ran = spawnSync('sh', ['-c', command], {
      input: JSON.stringify(input),
      cwd: project,
      env: environment,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout, 'the hook reported a problem').toBe('');

    const server = servers[MCP_SERVER_NAME];
    const transport = new StdioClientTransport({
      command: server?.command === 'node' ? process.execPath : (server?.command ?? ''),
      args: (server?.args ?? []).map((arg) => arg.split(PLUGIN_ROOT).join(pluginRoot)),
      cwd: project,
      env: environment,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'plugin-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toMatch(/recall/);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES.filter((name) => name !== 'append').sort());
      const listed = (await client.callTool({ name: 'sessions', arguments: {} })) as CallToolResult;
      expect(listed.structuredContent).toMatchObject({ defaultSession: SESSION, total: 1 });
      const recalled = (await client.callTool({ name: 'recall', arguments: { query: 'PAY-4821' } })) as CallToolResult;
      expect(recalled.structuredContent).toMatchObject({ status: 'verified' });
    } finally {
      await client.close();
    }
  });
});
