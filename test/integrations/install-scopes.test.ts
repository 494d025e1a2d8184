/**
 * `install claude-code` in its three scopes, against real files in a temporary HOME: project scope writes into the
 * files a team commits (`.claude/settings.json`, `.mcp.json`) a command every machine has (the project's own
 * dependency through `npx --no`, else `context-ledger` from PATH) and keeps its install record out of the project;
 * local scope writes `.claude/settings.local.json` and the project's entry of `~/.claude.json`; user scope
 * `~/.claude/`. The Stop hook runs in the background. Uninstall leaves every file byte-identical.
 */
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseInvocation } from '../../src/cli/install-invocation.js';
import type { InvocationContext } from '../../src/cli/install-invocation.js';
import { InvalidInputError } from '../../src/errors.js';
import {
  INSTALL_RECORD_NAME,
  claudeCodeFiles,
  installClaudeCode,
  uninstallClaudeCode,
} from '../../src/integrations/claude-code/install.js';
import type { InstallOptions, InstallScope, Invocation } from '../../src/integrations/claude-code/install.js';
import { scratchDirs } from './install-scratch.js';

let root: string;
let home: string;
let project: string;

beforeEach(async () => {
  ({ root, home, project } = await scratchDirs('cl-scopes-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const environment = () => ({ HOME: home, CONTEXT_LEDGER_HOME: join(root, 'ledger') });

function options(scope: InstallScope, invocation: Invocation): InstallOptions {
  return { scope, cwd: project, invocation, environment: environment() };
}

/** What `install` runs from: this machine's node and script, in a directory holding no context-ledger. */
function context(path = ''): InvocationContext {
  return {
    environment: { PATH: path },
    cwd: project,
    execPath: '/usr/bin/node',
    script: '/tmp/gprefix/lib/node_modules/context-ledger/dist/cli/main.js',
  };
}

/** An executable `context-ledger` in `directory`. */
async function fakeCommand(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true });
  const file = join(directory, 'context-ledger');
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, 0o755);
  return file;
}

const read = (file: string) => readFile(file, 'utf8');
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

type Settings = { hooks: Record<string, { hooks: { command: string; async?: boolean }[] }[]> };

/** A path of a machine in a text: `/x`, `~/x`, `C:\x`. */
const MACHINE_PATH = /(?:^|[\s"'=])(?:\/(?!\/)|~\/|[A-Za-z]:[\\/])/;

describe('project scope: nothing of this machine in the files a team commits', () => {
  it('runs `context-ledger` from PATH, says where it found it, and writes no absolute path', async () => {
    const found = await fakeCommand(join(root, 'bin'));
    const chosen = chooseInvocation(
      undefined,
      'project',
      '.claude/settings.json and .mcp.json',
      context(join(root, 'bin')),
    );
    expect(chosen.invocation).toEqual({ command: 'context-ledger', args: [] });
    expect(chosen.note).toContain(`found here at ${found}`);
    await installClaudeCode(options('project', chosen.invocation));
    for (const file of [join(project, '.claude', 'settings.json'), join(project, '.mcp.json')]) {
      const text = await read(file);
      expect(text, file).not.toMatch(MACHINE_PATH);
      expect(text, file).not.toContain(root);
    }
    const mcp = JSON.parse(await read(join(project, '.mcp.json'))) as { mcpServers: Record<string, unknown> };
    expect(mcp.mcpServers['context-ledger']).toEqual({
      type: 'stdio',
      command: 'context-ledger',
      args: ['serve', '--stdio'],
      env: {},
    });
    // The install record names this machine's paths: it is kept in ~/.claude/, not in the project.
    expect(await readdir(join(project, '.claude'))).toEqual(['settings.json']);
    expect(claudeCodeFiles(options('project', chosen.invocation)).record.startsWith(join(home, '.claude'))).toBe(true);
  });

  it('says so when `context-ledger` is not on PATH here (and still writes no path of this machine)', () => {
    const chosen = chooseInvocation(undefined, 'project', '.claude/settings.json and .mcp.json', context());
    expect(chosen.invocation).toEqual({ command: 'context-ledger', args: [] });
    expect(chosen.note).toMatch(/NOT on PATH here: from a clone of context-ledger, run `npm link` there/);
    // The registry's package of that name is someone else's: the hint warns instead of sending the user there.
    expect(chosen.note).toContain('that name on the npm registry is another package');
  });

  it("runs the project's own dependency through `npx --no` (npx never fetches it)", async () => {
    await fakeCommand(join(project, 'node_modules', '.bin'));
    const chosen = chooseInvocation(undefined, 'project', '.claude/settings.json and .mcp.json', context());
    expect(chosen.invocation).toEqual({ command: 'npx', args: ['--no', 'context-ledger'] });
    await installClaudeCode(options('project', chosen.invocation));
    const settings = JSON.parse(await read(join(project, '.claude', 'settings.json'))) as Settings;
    expect(settings.hooks.Stop?.[0]?.hooks[0]?.command).toBe('npx --no context-ledger hook claude-code');
  });

  it('refuses a --command naming a path of this machine, and says to use --local or a command on PATH', () => {
    for (const command of ['/usr/bin/node /tmp/x/bin/context-ledger', 'node ~/tools/context-ledger.js']) {
      let error: unknown;
      try {
        chooseInvocation(command, 'project', '.claude/settings.json and .mcp.json', context());
      } catch (caught) {
        error = caught;
      }
      expect(InvalidInputError.isInstance(error), command).toBe(true);
      expect((error as Error).message).toMatch(/a path of this machine.*your team commits.*--local/);
    }
    expect(chooseInvocation('npx --no context-ledger', 'project', 'x', context()).invocation).toEqual({
      command: 'npx',
      args: ['--no', 'context-ledger'],
    });
  });

  it('local and user scopes run this node and this script by absolute path (files of yours alone)', () => {
    for (const scope of ['local', 'user'] as const)
      expect(chooseInvocation(undefined, scope, 'your own settings', context()).invocation).toEqual({
        command: '/usr/bin/node',
        args: ['/tmp/gprefix/lib/node_modules/context-ledger/dist/cli/main.js'],
      });
    expect(chooseInvocation('/opt/cl/bin/context-ledger', 'local', 'x', context()).invocation.command).toBe(
      '/opt/cl/bin/context-ledger',
    );
  });

  it("uninstall still reads an older release's record in the project's .claude/, and removes it", async () => {
    const invocation = { command: 'context-ledger', args: [] };
    const original = '{\n  "env": {}\n}\n';
    await writeFile(join(project, '.claude', 'settings.json'), original);
    await installClaudeCode(options('project', invocation));
    // As an older release left it: the same record, in the project.
    const files = claudeCodeFiles(options('project', invocation));
    const legacy = join(project, '.claude', INSTALL_RECORD_NAME);
    await writeFile(legacy, await read(files.record));
    await rm(files.record);
    await uninstallClaudeCode(options('project', invocation));
    expect(await read(join(project, '.claude', 'settings.json'))).toBe(original);
    expect(await exists(legacy)).toBe(false);
    expect(await exists(join(project, '.mcp.json'))).toBe(false);
  });
});

describe('local scope: .claude/settings.local.json and this project in ~/.claude.json', () => {
  const invocation = { command: '/usr/bin/node', args: ['/opt/cl/dist/cli/main.js'] };

  it('writes only those, Stop in the background, and uninstall gives back every byte', async () => {
    const claudeJson = join(home, '.claude.json');
    const claudeText =
      '{\n  "numStartups": 7,\n  "projects": {\n    "/elsewhere": {\n      "allowedTools": []\n    },\n' +
      `    ${JSON.stringify(project)}: {\n      "allowedTools": [],\n      "hasTrustDialogAccepted": true\n    }\n  },\n` +
      '  "big": 12345678901234567890\n}\n';
    await writeFile(claudeJson, claudeText, { mode: 0o600 });
    const localSettings = join(project, '.claude', 'settings.local.json');
    const localText = '{"permissions":{"allow":["Bash(ls)"]}}';
    await writeFile(localSettings, localText);

    await installClaudeCode(options('local', invocation));
    const settings = JSON.parse(await read(localSettings)) as Settings & { permissions: unknown };
    expect(settings.permissions).toEqual({ allow: ['Bash(ls)'] });
    for (const event of ['PreCompact', 'SessionStart', 'Stop']) {
      const handler = settings.hooks[event]?.[0]?.hooks[0];
      expect(handler?.command, event).toBe('/usr/bin/node /opt/cl/dist/cli/main.js hook claude-code');
      expect(handler?.async === true, event).toBe(event === 'Stop');
    }
    const config = JSON.parse(await read(claudeJson)) as {
      numStartups: number;
      mcpServers?: unknown;
      projects: Record<string, { mcpServers?: Record<string, unknown>; hasTrustDialogAccepted?: boolean }>;
    };
    expect(config.mcpServers).toBeUndefined();
    expect(config.projects['/elsewhere']).toEqual({ allowedTools: [] });
    expect(config.projects[project]?.hasTrustDialogAccepted).toBe(true);
    expect(config.projects[project]?.mcpServers?.['context-ledger']).toMatchObject({
      command: '/usr/bin/node',
      args: ['/opt/cl/dist/cli/main.js', 'serve', '--stdio'],
    });
    expect(await read(claudeJson)).toContain('"big": 12345678901234567890');
    expect((await stat(claudeJson)).mode & 0o777).toBe(0o600);
    // Nothing in the files a team commits, and no record in the project.
    expect(await readdir(join(project, '.claude'))).toEqual(['settings.local.json']);
    expect(await exists(join(project, '.mcp.json'))).toBe(false);

    await installClaudeCode(options('local', invocation));
    await uninstallClaudeCode(options('local', invocation));
    expect(await read(claudeJson)).toBe(claudeText);
    expect(await read(localSettings)).toBe(localText);
    expect(await exists(claudeCodeFiles(options('local', invocation)).record)).toBe(false);
  });

  it('creates the project entry of ~/.claude.json when there is none, and uninstall removes all of it', async () => {
    const claudeJson = join(home, '.claude.json');
    const claudeText = '{"numStartups":1}';
    await writeFile(claudeJson, claudeText);
    await installClaudeCode(options('local', invocation));
    const config = JSON.parse(await read(claudeJson)) as { projects: Record<string, { mcpServers: object }> };
    expect(Object.keys(config.projects)).toEqual([project]);
    expect(Object.keys(config.projects[project]?.mcpServers ?? {})).toEqual(['context-ledger']);
    // Without the backup, uninstall still takes out what it added, the objects it created with it.
    await rm(join(root, 'ledger'), { recursive: true });
    await uninstallClaudeCode(options('local', invocation));
    expect(JSON.parse(await read(claudeJson))).toEqual({ numStartups: 1 });
    expect(await exists(join(project, '.claude', 'settings.local.json'))).toBe(false);
  });

  it('leaves the project scope alone: installing both and removing one keeps the other', async () => {
    const shared = { command: 'context-ledger', args: [] };
    await installClaudeCode(options('project', shared));
    const projectSettings = await read(join(project, '.claude', 'settings.json'));
    await installClaudeCode(options('local', invocation));
    await uninstallClaudeCode(options('local', invocation));
    expect(await read(join(project, '.claude', 'settings.json'))).toBe(projectSettings);
    expect(await exists(join(project, '.mcp.json'))).toBe(true);
  });
});
