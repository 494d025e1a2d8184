/**
 * The command line runs from the bundle the build writes to `dist/cli-bundle/` (run `npm run build --silent` first;
 * `scripts/bundle-hook.mjs`): a replay loads no ES module of `dist/` past the dispatcher and none of zod's files (the
 * importers' zod is bundled with them), and prints exactly what the plain modules print (`CONTEXT_LEDGER_CLI_BUNDLE=0`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pathsFoundNextToChunks } from './bundle-paths.js';
import { loadedUrls, writeModuleTrace } from './module-trace.js';
import { CLI } from './run-cli.js';

/** Preload arguments that print every module a process loads (`module-trace.ts`). */
async function traceHooks(directory: string): Promise<string[]> {
  const { register, requireHook } = await writeModuleTrace(directory);
  return ['--import', pathToFileURL(register).href, '--require', requireHook];
}

/** An OpenAI messages transcript (read with the importers' zod schemas), its third line not a message. */
async function transcript(directory: string): Promise<string> {
  const file = join(directory, 'chat.jsonl');
  const lines = [
    { role: 'user', content: 'Deploy PAY-4821 to eu-west-2b; keep the timeout at 30s.' },
    { role: 'assistant', content: 'Deploying PAY-4821 to eu-west-2b with a 30s timeout.' },
    { role: 'nobody', content: 42 },
    { role: 'user', content: 'Which region did we pick?' },
  ];
  await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

/** One CLI run: its exit code, stdout, stderr without the trace lines, and the modules it loaded. */
function run(preload: readonly string[], args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [...preload, CLI, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const lines = result.stderr.split('\n');
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith('LOADED ')).join('\n'),
    loaded: loadedUrls(result.stderr),
  };
}

describe('the command line bundle', () => {
  it('replays from the bundle, without zod files or ES modules of dist past the dispatcher', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-cli-bundle-'));
    const file = await transcript(directory);
    const result = run(await traceHooks(directory), ['replay', file, '--store', 'memory:', '--skip-invalid', '--json']);
    expect(result.status, result.stderr).toBe(0);
    const built = result.loaded.filter((url) => url.includes('/dist/'));
    expect(built.some((url) => url.endsWith('/dist/cli-bundle/program.cjs'))).toBe(true);
    expect(
      built.filter((url) => !url.includes('/dist/cli-bundle/')).map((url) => url.slice(url.indexOf('/dist/'))),
    ).toEqual(['/dist/cli/main.js', '/dist/cli/hook-argv.js']);
    expect(result.loaded.filter((url) => url.includes('/node_modules/zod/'))).toEqual([]);
  });

  it('prints what the plain modules print, the skipped line too', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-cli-bundle-same-'));
    const file = await transcript(directory);
    for (const args of [
      ['replay', file, '--store', 'memory:', '--skip-invalid', '--json'],
      ['replay', file, '--store', 'memory:', '--skip-invalid', '--max-tokens', '200'],
      ['replay', file, '--store', 'memory:'],
      ['replay', '--help'],
    ]) {
      const bundled = run([], args);
      const plain = run([], args, { CONTEXT_LEDGER_CLI_BUNDLE: '0' });
      expect(bundled, args.join(' ')).toEqual(plain);
    }
  });

  it('bundles each file a module finds next to itself as the same file seen from dist/cli-bundle', async () => {
    const found = await pathsFoundNextToChunks('dist/cli-bundle');
    // the audit's worker (run from the plain modules) and the tokenizer's rank table
    expect(found.sort()).toEqual(['dist/cli/audit-worker.js', 'dist/tokens/o200k-rank-table.bin']);
    for (const path of found) expect(existsSync(path), path).toBe(true);
  });
});
