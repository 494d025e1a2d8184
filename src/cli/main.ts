#!/usr/bin/env node
/**
 * The `context-ledger` executable. A hook call (`hook claude-code`, `hook codex`), which Claude Code and Codex run
 * after every answer, runs straight from its module; every other call loads the command line (`program.ts`).
 * Only this file's imports load before that choice, so it imports nothing else at the top.
 *
 * On Node 22.1 and later, the compiled code of the modules loaded after this point is cached on disk
 * (`module.enableCompileCache`, as TypeScript's own CLI does; `NODE_DISABLE_COMPILE_CACHE=1` turns it off): a hook
 * process then skips most of compiling them. Node 20 has no such cache; the call does nothing there.
 */
import * as nodeModule from 'node:module';
import { hookCallOf } from './hook-argv.js';

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const hook = hookCallOf(process.argv.slice(2));
if (hook === undefined) await import('./program.js');
else {
  const { hookClaudeCodeCommand } = await import('./hook-command.js');
  await hookClaudeCodeCommand(hook.options, hook.agent);
}
