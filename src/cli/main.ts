#!/usr/bin/env node
/**
 * The ES module entry of the command line (`dist/cli/main.js`). The package's `bin`, and what `install` writes, is the
 * CommonJS launcher beside it (`main.cts`, `dist/cli/main.cjs`), which skips Node's ES module loader and hands a call
 * to this file when a bundle it needs is missing or ruled out; the plugins' hook files run this file directly. A hook
 * call (`hook claude-code`, `hook codex`), which Claude Code and Codex run after every answer, runs straight from its
 * module, bundled by the build into `dist/hook/` (one CommonJS file and the few chunks the call needs; the plain
 * modules when a build skipped that step, see `scripts/bundle-hook.mjs`); every other call loads the command line
 * (`program.ts`), bundled the same way into `dist/cli-bundle/`. Only this file's imports load before that choice, so
 * it imports nothing else at the top.
 *
 * On Node 22.1 and later, the compiled code of the modules loaded after this point is cached on disk
 * (`module.enableCompileCache`, as TypeScript's own CLI does; `NODE_DISABLE_COMPILE_CACHE=1` turns it off): a hook
 * process then skips most of compiling them. Node 20 has no such cache; the call does nothing there.
 */
import type * as NodeFs from 'node:fs';
import * as nodeModule from 'node:module';
import { hookCallOf } from './hook-argv.js';
import type * as HookCommand from './hook-command.js';

type HookModule = typeof HookCommand;

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
/** CommonJS `require`: the bundle is CommonJS, and `node:fs` taken this way skips building its ES namespace. */
const require = nodeModule.createRequire(import.meta.url);
const hook = hookCallOf(process.argv.slice(2));
if (hook === undefined) await programModule();
else {
  const { hookClaudeCodeCommand } = await hookModule();
  await hookClaudeCodeCommand(hook.options, hook.agent);
  // Everything is done (the store closed, the log and stdout written): exit without freeing the heap page by page,
  // which an exit at the end of the event loop does (a few milliseconds of every hook call).
  process.exit();
}

/**
 * The hook's module: the bundle (CommonJS, see `scripts/bundle-hook.mjs`) when the build wrote it, else (or with
 * `CONTEXT_LEDGER_HOOK_BUNDLE=0`, to rule the bundle out when looking into a problem) the plain module.
 */
async function hookModule(): Promise<HookModule> {
  const bundle = '../hook/hook-command.cjs';
  const { existsSync } = require('node:fs') as typeof NodeFs;
  if (process.env.CONTEXT_LEDGER_HOOK_BUNDLE === '0' || !existsSync(new URL(bundle, import.meta.url)))
    return import('./hook-command.js');
  return require(bundle) as HookModule;
}

/**
 * The command line: its bundle (CommonJS, see `scripts/bundle-hook.mjs`) when the build wrote it, else (or with
 * `CONTEXT_LEDGER_CLI_BUNDLE=0`) the plain module.
 */
async function programModule(): Promise<unknown> {
  const bundle = '../cli-bundle/program.cjs';
  const { existsSync } = require('node:fs') as typeof NodeFs;
  if (process.env.CONTEXT_LEDGER_CLI_BUNDLE === '0' || !existsSync(new URL(bundle, import.meta.url)))
    return import('./program.js');
  return require(bundle) as unknown;
}
