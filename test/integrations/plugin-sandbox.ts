/**
 * A scratch install of this checkout as a plugin, the way Claude Code and Codex install one: the repository linked under
 * a cache folder whose path holds a space (to check the hooks' quoting), a project folder, and the environment a hook
 * runs with (a scratch home and ledger home; the plugin root in `rootVariable`).
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PluginSandbox {
  readonly temp: string;
  readonly pluginRoot: string;
  readonly project: string;
  readonly environment: Record<string, string>;
  remove(): Promise<void>;
}

/** Makes a sandbox for the checkout at `root`; `rootVariable` names the plugin root (`CLAUDE_PLUGIN_ROOT`, `PLUGIN_ROOT`). */
export async function pluginSandbox(root: string, prefix: string, rootVariable: string): Promise<PluginSandbox> {
  const temp = await mkdtemp(join(tmpdir(), prefix));
  await mkdir(join(temp, 'plugin cache'));
  const pluginRoot = join(temp, 'plugin cache', 'context-ledger');
  await symlink(root, pluginRoot);
  const project = join(temp, 'project');
  await mkdir(project);
  const { XDG_DATA_HOME: _xdg, CONTEXT_LEDGER_HOME: _home, CLAUDE_PROJECT_DIR: _project, ...rest } = process.env;
  const environment = {
    ...(rest as Record<string, string>),
    HOME: join(temp, 'home'),
    CONTEXT_LEDGER_HOME: join(temp, 'ledger'),
    [rootVariable]: pluginRoot,
  };
  return { temp, pluginRoot, project, environment, remove: () => rm(temp, { recursive: true, force: true }) };
}
