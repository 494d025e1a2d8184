/**
 * The Codex plugin at the repository root (`.codex-plugin/plugin.json`, `hooks/codex-hooks.json`), checked against
 * the manifest and hooks file Codex reads (openai/codex `codex-rs/core-plugins/src/manifest.rs` and `loader.rs`,
 * `codex-rs/config/src/hook_config.rs`, `codex-rs/hooks/src/engine/discovery.rs`):
 *
 * - the manifest is the only file in `.codex-plugin/`, names the plugin in kebab case at the package version, and
 *   gives its hooks file as a `./` path inside the plugin root. Codex takes that path instead of `hooks/hooks.json`,
 *   which is the Claude Code plugin's (`hook claude-code`); without `.codex-plugin/plugin.json`, Codex would read
 *   `.claude-plugin/plugin.json` and those hooks;
 * - the hooks file has Codex's shape (`{"hooks": {"<Event>": [{"hooks": [{"type": "command", "command", "timeout"}]}]}}`),
 *   the events `install codex` registers, none `async` (Codex skips an async hook), each running `hook codex` from
 *   `${PLUGIN_ROOT}`, which Codex replaces with the plugin's root in a plugin hook's command (and sets in its
 *   environment); no path in either file is absolute;
 * - the plugin declares no MCP server: Codex gives a plugin's MCP server no plugin root variable (only a relative
 *   `cwd`, taken from the plugin root, and `serve` would then look for the ledger of the plugin's directory instead
 *   of the project's);
 * - after a build, the `Stop` hook's command, with `${PLUGIN_ROOT}` replaced as Codex does by a root whose path holds
 *   a space, records a Codex rollout into the project's ledger.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOurHookCommand } from '../../src/integrations/claude-code/install.js';
import { projectLedgerPaths } from '../../src/integrations/claude-code/ledger-home.js';
import { CODEX_HOOK_EVENTS } from '../../src/integrations/codex/install.js';
import { HOOK_TIMEOUT_SECONDS } from '../../src/integrations/install/hook-entries.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { pluginSandbox } from './plugin-sandbox.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PLUGIN_ROOT = '${PLUGIN_ROOT}';
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The manifest fields Codex reads (others are ignored by it): `manifest.rs`, `RawPluginManifest`. */
const MANIFEST_FIELDS = ['name', 'version', 'description', 'keywords', 'skills', 'mcpServers', 'apps', 'hooks'];
/** Fields of the plugins documentation Codex does not read but a marketplace shows. */
const LISTING_FIELDS = ['author', 'license', 'homepage', 'repository', 'interface'];
/** The hook events Codex knows (`hook_config.rs`, `HookEventsToml`). */
const CODEX_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
];

type Json = Record<string, unknown>;

function read(path: string): Json {
  return JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Json;
}

const manifest = read('.codex-plugin/plugin.json');
const packageJson = read('package.json');

interface HookGroup {
  matcher?: string;
  hooks: Record<string, unknown>[];
}

/** A manifest path as Codex takes it: `./` then a path that stays inside the plugin root; else undefined. */
function manifestPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('./') || value === './') return undefined;
  const path = normalize(value.slice(2));
  return path.startsWith('..') || isAbsolute(path) ? undefined : path;
}

const hooksPath = manifestPath(manifest.hooks) ?? '';
const hooksFile = existsSync(join(ROOT, hooksPath)) ? read(hooksPath) : {};
const hookGroups = (hooksFile.hooks ?? {}) as Record<string, HookGroup[]>;
const handlers = Object.values(hookGroups).flatMap((groups) => groups.flatMap((group) => group.hooks));

/** Every string value in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('Codex plugin files (what Codex reads)', () => {
  it('.codex-plugin/ holds only plugin.json: a kebab-case name at the package version', () => {
    expect(readdirSync(join(ROOT, '.codex-plugin'))).toEqual(['plugin.json']);
    expect(manifest.name).toMatch(KEBAB);
    expect(manifest.name).toBe(packageJson.name);
    expect(manifest.version).toBe(packageJson.version);
    expect(typeof manifest.description).toBe('string');
    for (const field of Object.keys(manifest)) expect([...MANIFEST_FIELDS, ...LISTING_FIELDS]).toContain(field);
  });

  it('gives its own hooks file as a ./ path inside the plugin root, not the Claude Code plugin hooks/hooks.json', () => {
    expect(manifestPath(manifest.hooks), String(manifest.hooks)).toBe('hooks/codex-hooks.json');
    expect(existsSync(join(ROOT, hooksPath))).toBe(true);
    expect(relative(join(ROOT, 'hooks'), join(ROOT, hooksPath))).not.toBe('hooks.json');
  });

  it('the hooks file: the events install codex registers, each running `hook codex` from ${PLUGIN_ROOT}', () => {
    expect(Object.keys(hookGroups).sort()).toEqual([...CODEX_HOOK_EVENTS].sort());
    for (const event of Object.keys(hookGroups)) expect(CODEX_EVENTS).toContain(event);
    expect(handlers).toHaveLength(CODEX_HOOK_EVENTS.length);
    for (const handler of handlers) {
      expect(handler).toEqual({
        type: 'command',
        command: `node "${PLUGIN_ROOT}/dist/cli/main.cjs" hook codex`,
        timeout: HOOK_TIMEOUT_SECONDS,
      });
      expect(isOurHookCommand(handler.command, 'codex')).toBe(true);
    }
  });

  it('names no absolute path, and runs nothing outside ${PLUGIN_ROOT}', () => {
    const ABSOLUTE = /(^|[\s"'=])(\/|[A-Za-z]:\\|~\/)/;
    for (const text of [...strings(manifest), ...strings(hooksFile)])
      expect(text.split(PLUGIN_ROOT).join('ROOT'), text).not.toMatch(ABSOLUTE);
    for (const handler of handlers) expect(String(handler.command)).toContain(`"${PLUGIN_ROOT}/`);
  });

  it('declares no MCP server (Codex gives a plugin server no plugin root): none in the manifest, no .mcp.json', () => {
    expect(manifest.mcpServers).toBeUndefined();
    expect(existsSync(join(ROOT, '.mcp.json'))).toBe(false);
  });
});

describe('the Codex plugin hook as Codex runs it (after a build)', () => {
  const SESSION = '019a0c3e-7d41-7b22-9f10-5e6f7a8b9c0d';
  let temp: string;
  let pluginRoot: string;
  let project: string;
  let environment: Record<string, string>;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    // installed under a cache folder whose path holds a space, which checks the hooks' quoting
    const sandbox = await pluginSandbox(ROOT, 'cl-codex-plugin-', 'PLUGIN_ROOT');
    ({ temp, pluginRoot, project, environment } = sandbox);
    remove = sandbox.remove;
  });

  afterAll(async () => {
    await remove();
  });

  it("the Stop hook's command, ${PLUGIN_ROOT} replaced as Codex does, records the rollout", async () => {
    expect(existsSync(join(ROOT, 'dist/cli/main.cjs')), 'run npm run build --silent first').toBe(true);
    const rollout = join(temp, `rollout-2026-12-01T10-00-00-${SESSION}.jsonl`);
    const line = (type: string, payload: Json) =>
      JSON.stringify({ timestamp: '2026-12-01T10:00:00.000Z', type, payload }) + '\n';
    await writeFile(
      rollout,
      line('session_meta', { id: SESSION, cwd: project, cli_version: '0.145.0' }) +
        line('response_item', {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Deploy PAY-4821 to eu-west-2b with the config at /etc/payments/db.conf.' },
          ],
        }),
    );
    const command = String(hookGroups.Stop?.[0]?.hooks[0]?.command ?? '');
    // Codex replaces `${PLUGIN_ROOT}` in the command text before running it with the shell
    const ran = spawnSync('sh', ['-c', command.split(PLUGIN_ROOT).join(pluginRoot)], {
      input: JSON.stringify({ session_id: SESSION, transcript_path: rollout, cwd: project, hook_event_name: 'Stop' }),
      cwd: project,
      env: environment,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout, 'the hook reported a problem').toBe('');
    const paths = projectLedgerPaths(project, undefined, environment);
    const store = createSqliteStore({ path: paths.store.slice('sqlite:'.length) });
    try {
      const occurrences = await store.occurrences(SESSION);
      expect(occurrences.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
