/**
 * The hook bundle's entry loads the Stop chunk with V8's code cache of it (`scripts/bundle-hook.mjs`; run
 * `npm run build --silent` first, or name another build with `CONTEXT_LEDGER_TEST_CLI`): the cache is written next to
 * the chunk, V8 takes it, and the entry still exports the hook command.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = process.env.CONTEXT_LEDGER_TEST_CLI ?? join(process.cwd(), 'dist/cli/main.js');
const HOOK = join(dirname(CLI), '..', 'hook');

/** Records every script compiled with a code cache, and whether V8 turned the cache down. */
const TRACE = [
  "const vm = require('node:vm');",
  'const Script = vm.Script;',
  'vm.Script = class extends Script {',
  '  constructor(source, options) {',
  '    super(source, options);',
  "    if (options && options.cachedData) process.stderr.write('CACHE ' + options.filename + ' ' + this.cachedDataRejected + '\\n');",
  '  }',
  '};',
].join('\n');

describe('the hook bundle code cache', () => {
  it('compiles the Stop chunk from the cache written next to it', () => {
    const files = readdirSync(HOOK);
    const chunk = files.find((file) => /^stop-[^.]+\.cjs$/.test(file));
    expect(chunk, files.join(' ')).toBeDefined();
    expect(files).toContain(`${chunk}.v8cache`);
    const entry = join(HOOK, 'hook-command.cjs');
    const load = `${TRACE}\nconst hook = require(${JSON.stringify(entry)});\nif (typeof hook.hookClaudeCodeCommand !== 'function') process.exit(3);`;
    const result = spawnSync(process.execPath, ['-e', load], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(`CACHE ${join(HOOK, chunk ?? '')} false`);
  });
});
