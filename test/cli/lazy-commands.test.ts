/**
 * The CLI loads a command's modules only when that command runs (run `npm run build --silent`
 * first): a `hook claude-code` Stop call — what Claude Code runs after every turn — must not
 * load the MCP server, the audit, replay, the install code, zod, commander or the session's code; and the `--format` choices the
 * CLI lists without loading the importers are exactly the importers' formats. The hook call runs from the bundle the
 * build writes to `dist/hook/` (whose chunks follow the modules' lazy imports); the module graph itself is checked
 * with the bundle ruled out (`CONTEXT_LEDGER_HOOK_BUNDLE=0`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS } from '../../src/cli/transcript-formats.js';
import { IMPORT_FORMATS } from '../../src/importers/registry.js';
import { pathsFoundNextToChunks } from './bundle-paths.js';
import { loadedUrls, writeModuleTrace } from './module-trace.js';

const CLI = join(process.cwd(), 'dist/cli/main.js');

/**
 * Run the CLI with a module hook that prints every loaded URL to stderr (ES modules through the loader's `load` hook,
 * CommonJS files, the hook bundle's among them, through the loader of `.js` files, which `.cjs` files use too);
 * returns the URLs.
 */
async function loadedBy(
  args: readonly string[],
  input: string,
  env: NodeJS.ProcessEnv,
  traceEsm = true,
): Promise<string[]> {
  const directory = await mkdtemp(join(tmpdir(), 'cl-lazy-'));
  const { register, requireHook } = await writeModuleTrace(directory, { builtins: true });
  // (the loader's hooks run in a worker: without them the built-in modules listed are the call's own)
  const preload = [...(traceEsm ? ['--import', pathToFileURL(register).href] : []), '--require', requireHook];
  const result = spawnSync(process.execPath, [...preload, CLI, ...args], {
    input,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return loadedUrls(result.stderr);
}

/** The URLs one Stop call of `hook claude-code` loads, on a transcript of one turn (the call goes through the ingest). */
async function stopCall(env: NodeJS.ProcessEnv, traceEsm = true): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'cl-lazy-hook-'));
  const transcript = join(root, 'session.jsonl');
  const record = { type: 'user', uuid: 'u-1', sessionId: 'lazy-1', cwd: root, timestamp: '2026-12-01T10:00:00Z' };
  await writeFile(
    transcript,
    JSON.stringify({ ...record, message: { role: 'user', content: 'Deploy PAY-4821' } }) + '\n',
  );
  const event = { session_id: 'lazy-1', transcript_path: transcript, cwd: root, hook_event_name: 'Stop' };
  return loadedBy(
    ['hook', 'claude-code'],
    JSON.stringify(event),
    {
      HOME: root,
      CONTEXT_LEDGER_HOME: join(root, 'ledger'),
      ...env,
    },
    traceEsm,
  );
}

describe('lazy command loading', () => {
  it('lists exactly the importers formats for --format', () => {
    expect([...TRANSCRIPT_FORMATS]).toEqual([...IMPORT_FORMATS]);
  });

  it('loads only the hook modules for hook claude-code', async () => {
    const urls = await stopCall({ CONTEXT_LEDGER_HOOK_BUNDLE: '0' });
    expect(urls.some((url) => url.endsWith('/dist/integrations/claude-code/hook.js'))).toBe(true);
    for (const unwanted of [
      '/@modelcontextprotocol/',
      '/dist/cli/serve-command.js',
      '/dist/cli/audit.js',
      '/dist/audit/',
      '/dist/cli/replay.js',
      '/dist/cli/demo.js',
      '/dist/integrations/claude-code/install.js',
      '/dist/integrations/claude-code/hook-context.js',
      '/dist/integrations/drill-down.js',
      '/dist/importers/registry.js',
      // The hook's importers and input check are plain functions (field-checks.ts): zod took ~60 ms of each call.
      '/node_modules/zod/',
      // A Stop only appends: no commander (main.ts runs a hook call without the command line), no session, compaction,
      // recall or window code (span-appender.ts), and not the other agent's importer.
      '/node_modules/commander/',
      '/dist/cli/program.js',
      '/dist/session/session.js',
      '/dist/session/ledger.js',
      '/dist/compaction/',
      '/dist/recall/',
      '/dist/window/',
      '/dist/summarizers/',
      '/dist/importers/codex.js',
    ])
      expect(
        urls.filter((url) => url.includes(unwanted)),
        unwanted,
      ).toEqual([]);
  });

  it('runs a hook call from the bundle, without the chunks it loads lazily', async () => {
    const urls = await stopCall({});
    const built = urls.filter((url) => url.includes('/dist/'));
    expect(built.some((url) => url.endsWith('/dist/hook/hook-command.cjs'))).toBe(true);
    // from the plain modules only the dispatcher (the tokenizer's rank file module is bundled too)
    expect(built.filter((url) => !url.includes('/dist/hook/')).map((url) => url.slice(url.indexOf('/dist/')))).toEqual([
      '/dist/cli/main.js',
      '/dist/cli/hook-argv.js',
    ]);
    // every file of the bundle is CommonJS: no ES module of it goes through the ES module loader
    expect(built.filter((url) => url.includes('/dist/hook/') && !url.endsWith('.cjs'))).toEqual([]);
    // chunks of what a Stop never needs: the injected context, the ledger session, PostgreSQL, the Codex importer
    for (const lazy of ['/dist/hook/hook-context-', '/dist/hook/ledger-', '/dist/hook/postgres-', '/dist/hook/codex-'])
      expect(
        built.filter((url) => url.includes(lazy)),
        lazy,
      ).toEqual([]);
    for (const unwanted of ['/@modelcontextprotocol/', '/node_modules/zod/', '/node_modules/commander/'])
      expect(
        urls.filter((url) => url.includes(unwanted)),
        unwanted,
      ).toEqual([]);
    // built-in modules a Stop never needs: a checkpoint worker (the hook starts none) and the network stack (stdin is
    // read as a file descriptor, not as a socket)
    const builtIn = (await stopCall({}, false)).filter((url) => url.startsWith('node:'));
    expect(builtIn).toContain('node:fs');
    for (const unwanted of ['node:worker_threads', 'node:net']) expect(builtIn).not.toContain(unwanted);
  });

  it('bundles each file a module finds next to itself as the same file seen from dist/hook', async () => {
    const found = await pathsFoundNextToChunks('dist/hook');
    // the tokenizer's rank table: without it every hook call would build the table from the rank list
    expect(found).toEqual(['dist/tokens/o200k-rank-table.bin']);
    for (const file of found) expect(existsSync(file), file).toBe(true);
  });
});
