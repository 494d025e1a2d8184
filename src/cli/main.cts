#!/usr/bin/env node
/**
 * The `context-ledger` executable: the package's `bin`, and what `install` writes into the hooks of Claude Code and
 * Codex. A CommonJS file (`dist/cli/main.cjs`; the package is ESM), so a hook call (`hook claude-code`, `hook codex`),
 * which the agent runs after every answer, never starts Node's ES module loader: it reads its arguments with the hook
 * bundle's copy of `hook-argv.ts` (`dist/hook/hook-argv.cjs`) and `require`s the hook bundle (`dist/hook/`, see
 * `scripts/bundle-hook.mjs`); every other call `require`s the command line's bundle (`dist/cli-bundle/program.cjs`).
 * Loading this file as an ES module (the loader's own modules, resolving, linking) cost a Stop call about 4% of its
 * instructions above a bare Node start, and `--help` a quarter of its (callgrind). When a bundle is missing (a build
 * that skipped `scripts/bundle-hook.mjs`) or ruled out (`CONTEXT_LEDGER_HOOK_BUNDLE=0`, `CONTEXT_LEDGER_CLI_BUNDLE=0`),
 * the call goes to `main.js`, the ES module entry, which runs the plain modules.
 *
 * On Node 22.1 and later, the compiled code of the modules loaded after this point is cached on disk
 * (`module.enableCompileCache`, as TypeScript's own CLI does; `NODE_DISABLE_COMPILE_CACHE=1` turns it off): a hook
 * process then skips most of compiling them. Node 20 has no such cache; the call does nothing there.
 */
import type * as HookArgv from './hook-argv.js' with { 'resolution-mode': 'import' };
import type * as HookCommand from './hook-command.js' with { 'resolution-mode': 'import' };
import type * as NodeFs from 'node:fs';
import type * as NodePath from 'node:path';

type Require = (id: string) => unknown;

/** `require`, typed: this file is CommonJS, and the modules it loads are typed by their ES sources. */
const load = require as Require;
const { existsSync } = load('node:fs') as typeof NodeFs;
const { join } = load('node:path') as typeof NodePath;

(load('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** The file at `relative` (from this file's folder) when the build wrote it and `switchName` does not rule it out. */
function bundled(relative: string, switchName: string): string | undefined {
  const file = join(__dirname, relative);
  return process.env[switchName] !== '0' && existsSync(file) ? file : undefined;
}

/** Runs the call from the bundles; false when one it needs is missing or ruled out (then `main.js` runs it). */
function runBundled(args: readonly string[]): boolean {
  const argv = bundled('../hook/hook-argv.cjs', 'CONTEXT_LEDGER_HOOK_BUNDLE');
  if (argv === undefined) return false;
  const hook = (load(argv) as typeof HookArgv).hookCallOf(args);
  if (hook === undefined) {
    const program = bundled('../cli-bundle/program.cjs', 'CONTEXT_LEDGER_CLI_BUNDLE');
    if (program !== undefined) load(program);
    return program !== undefined;
  }
  const command = bundled('../hook/hook-command.cjs', 'CONTEXT_LEDGER_HOOK_BUNDLE');
  if (command === undefined) return false;
  void (load(command) as typeof HookCommand).hookClaudeCodeCommand(hook.options, hook.agent).then(() => {
    // Everything is done (the store closed, the log and stdout written): exit without freeing the heap page by
    // page, which an exit at the end of the event loop does (a few milliseconds of every hook call).
    process.exit();
  });
  return true;
}

if (!runBundled(process.argv.slice(2))) void import('./main.js');
