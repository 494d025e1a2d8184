/**
 * How the hooks and the MCP server that `install` writes start context-ledger, per scope.
 *
 * Project scope writes files a team commits (`.claude/settings.json`, `.mcp.json`, `.codex/`): nothing of this
 * machine goes there. The command is `npx --no context-ledger` when the project has context-ledger as a dependency
 * (`node_modules/.bin/context-ledger`: npx runs that one, and `--no` forbids fetching anything from the registry), else
 * the command name `context-ledger`, found on each machine's PATH. Never `npx -y`: a hook would then run whatever the
 * registry serves under that name. Local and user scopes write your own files: there this node and this script, by
 * absolute path, which work whatever PATH the agent starts with; the script is the CommonJS launcher
 * `dist/cli/main.cjs` (the package's `bin`) when install runs from the ES module entry `dist/cli/main.js` beside it
 * (or a link to it), since a hook started through the launcher skips Node's ES module loader. `--command` replaces
 * the default; in project scope it must not name an absolute path.
 */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { InvalidInputError } from '../errors.js';
import type { Invocation, InstallScope } from '../integrations/claude-code/install.js';

/** The name of the command the package installs. */
const COMMAND_NAME = 'context-ledger';

/** The invocation install writes, and a sentence saying which it is and why. */
export interface ChosenInvocation {
  readonly invocation: Invocation;
  readonly note: string;
}

/** What the choice reads: the environment (PATH), the project directory, and this process's node and script. */
export interface InvocationContext {
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly execPath: string;
  readonly script: string;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where `name` is on PATH, if it is. */
export function onPath(name: string, environment: InvocationContext['environment']): string | undefined {
  const directories = (environment.PATH ?? '').split(delimiter).filter((directory) => directory.length > 0);
  const suffixes = process.platform === 'win32' ? ['.cmd', '.exe', ''] : [''];
  for (const directory of directories)
    for (const suffix of suffixes) {
      const file = join(directory, `${name}${suffix}`);
      if (executable(file)) return file;
    }
  return undefined;
}

/** True for a part of a command that names a path of this machine: `/x`, `~/x`, `C:\x`, `$HOME/x`. */
function machinePath(part: string): boolean {
  return isAbsolute(part) || /^~[\\/]/.test(part) || /^[A-Za-z]:[\\/]/.test(part) || /^\$(\{)?HOME\b/.test(part);
}

/** The file name of the ES module entry, and of the CommonJS launcher the build writes beside it (`main.cts`). */
const MODULE_ENTRY = 'main.js';
const LAUNCHER = 'main.cjs';

/**
 * The script the hooks of local and user scope run, by absolute path: the launcher beside `script` when `script` is
 * (or links to) the ES module entry and the launcher is there; else `script` itself.
 */
export function launcherOf(script: string): string {
  const absolute = resolve(script);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    return absolute;
  }
  const launcher = join(dirname(real), LAUNCHER);
  return basename(real) === MODULE_ENTRY && existsSync(launcher) ? launcher : absolute;
}

/** `--command` as given, split into program and arguments (refused when empty, or machine-specific in project scope). */
function givenInvocation(command: string, scope: InstallScope, files: string): ChosenInvocation {
  const [program, ...args] = command.trim().split(/\s+/);
  if (!program)
    throw new InvalidInputError('--command is empty; give how to start context-ledger, e.g. --command context-ledger', {
      field: '--command',
    });
  const local = [program, ...args].find(machinePath);
  if (scope === 'project' && local !== undefined)
    throw new InvalidInputError(
      `--command names ${local}, a path of this machine, and project scope writes ${files}, which your team commits. ` +
        'Nothing was changed. Give a command every machine has (context-ledger on PATH, or npx --no context-ledger ' +
        'for a project dependency), or install with --local (this project, your own settings) or --user.',
      { field: '--command' },
    );
  return {
    invocation: { command: program, args },
    note: `hooks and the MCP server run: ${[program, ...args].join(' ')}`,
  };
}

/** The default of project scope: the project's own dependency through npx, else the command on PATH. */
function projectInvocation(context: InvocationContext, files: string): ChosenInvocation {
  const dependency = join(resolve(context.cwd), 'node_modules', '.bin', COMMAND_NAME);
  if (executable(dependency))
    return {
      invocation: { command: 'npx', args: ['--no', COMMAND_NAME] },
      note:
        `hooks and the MCP server run \`npx --no ${COMMAND_NAME}\` (this project's own dependency; --no: npx never ` +
        `fetches it), so ${files} name no path of this machine`,
    };
  const found = onPath(COMMAND_NAME, context.environment);
  const where = found
    ? `found here at ${found}`
    : 'NOT on PATH here: from a clone of context-ledger, run `npm link` there (never `npm i -g context-ledger`: ' +
      'that name on the npm registry is another package), or Claude Code cannot start it';
  return {
    invocation: { command: COMMAND_NAME, args: [] },
    note:
      `hooks and the MCP server run \`${COMMAND_NAME}\` from PATH (${where}); every teammate needs it on PATH too, ` +
      `since ${files} name no path of this machine (--local writes this machine's paths into your own settings instead)`,
  };
}

/**
 * The invocation `install` writes for `scope` (`files`: the files it writes, named in the notes and errors), from
 * `--command` when given.
 */
export function chooseInvocation(
  command: string | undefined,
  scope: InstallScope,
  files: string,
  context: InvocationContext,
): ChosenInvocation {
  if (command !== undefined) return givenInvocation(command, scope, files);
  if (scope === 'project') return projectInvocation(context, files);
  const invocation = { command: context.execPath, args: [launcherOf(context.script)] };
  return {
    invocation,
    note: `hooks and the MCP server run ${invocation.command} ${invocation.args.join(' ')} (this machine's paths, in your own settings)`,
  };
}
