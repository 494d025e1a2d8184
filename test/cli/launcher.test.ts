/**
 * The package's `bin` is the CommonJS launcher `dist/cli/main.cjs` (`src/cli/main.cts`; run `npm run build --silent`
 * first): it answers `--help` like the ES module entry, runs a hook call from the hook bundle without starting Node's
 * ES module loader, hands a call whose bundle is ruled out to `dist/cli/main.js`, and is what `install` writes into
 * the hooks of your own settings, whose Stop command then ingests a real Stop payload.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launcherOf } from '../../src/cli/install-invocation.js';
import { projectLedgerPaths } from '../../src/integrations/claude-code/ledger-home.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { claudeSession, jsonl, transcriptPath } from '../integrations/claude-code-fixture.js';

const ROOT = process.cwd();
const LAUNCHER = join(ROOT, 'dist/cli/main.cjs');
const MODULE_ENTRY = join(ROOT, 'dist/cli/main.js');
const SESSION = '3b9d6e21-7c4a-4f0e-8d15-a2c6f0e9b742';

/** A preload that prints, at exit, the ES module loader's internal modules the process loaded. */
const ESM_TRACE = [
  "const { writeSync } = require('node:fs');",
  "process.on('exit', () => writeSync(2, 'ESM ' + JSON.stringify(process.moduleLoadList.filter((name) =>",
  "  /internal\\/modules\\/esm\\/(module_job|translators|resolve)$/.test(name))) + '\\n'));",
].join('\n');

/** A scratch machine: HOME, the ledger home, a project, and a Claude Code transcript of two turns in it. */
async function machine() {
  const root = await mkdtemp(join(tmpdir(), 'cl-launcher-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  await mkdir(project, { recursive: true });
  const session = claudeSession(SESSION, project);
  const transcript = await transcriptPath(home, project, SESSION);
  const records = [
    session.user('Pin the cache host to cache-7.internal and never flush the EU shard.'),
    session.assistant('Pinned cache-7.internal; the EU shard stays untouched.'),
  ];
  await writeFile(transcript, jsonl(records));
  const { XDG_DATA_HOME: _xdg, CONTEXT_LEDGER_HOME: _home, CLAUDE_PROJECT_DIR: _project, ...rest } = process.env;
  const env = { ...rest, HOME: home, CONTEXT_LEDGER_HOME: join(root, 'ledger') };
  const stop = JSON.stringify({
    session_id: SESSION,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: 'Stop',
  });
  return { root, home, project, env, stop };
}

/** One run of `node args…` with `input` on stdin. */
function node(args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}) {
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000, ...options });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The spans the project's ledger holds for the session. */
async function spansOf(project: string, env: NodeJS.ProcessEnv): Promise<number> {
  const path = projectLedgerPaths(project, undefined, env).store.slice('sqlite:'.length);
  const store = createSqliteStore({ path });
  try {
    return await store.nextSeq(SESSION);
  } finally {
    await store.close();
  }
}

describe('the bin', () => {
  it('is the CommonJS launcher, and answers --help and --version as the ES module entry does', () => {
    expect(existsSync(LAUNCHER), 'run npm run build --silent first').toBe(true);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(manifest.bin).toEqual({ 'context-ledger': 'dist/cli/main.cjs' });
    for (const args of [['--help'], ['--version'], ['hook', 'claude-code', '--help']]) {
      const launched = node([LAUNCHER, ...args]);
      expect(launched.status, launched.stderr).toBe(0);
      expect(launched).toEqual(node([MODULE_ENTRY, ...args]));
    }
    expect(node([LAUNCHER, '--help']).stdout).toContain('Usage: context-ledger');
  });

  it('runs a Stop from the hook bundle without the ES module loader', async () => {
    const { root, project, env, stop } = await machine();
    const trace = join(root, 'esm-trace.cjs');
    await writeFile(trace, ESM_TRACE + '\n');
    const result = node(['--require', trace, LAUNCHER, 'hook', 'claude-code'], { env, input: stop, cwd: project });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe('ESM []');
    expect(await spansOf(project, env)).toBe(2);
  });

  it('hands a call whose bundle is ruled out to the ES module entry', async () => {
    const { project, env, stop } = await machine();
    const plain = { ...env, CONTEXT_LEDGER_HOOK_BUNDLE: '0' };
    const result = node([LAUNCHER, 'hook', 'claude-code'], { env: plain, input: stop, cwd: project });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(await spansOf(project, env)).toBe(2);
    const help = node([LAUNCHER, 'replay', '--help'], { env: { ...env, CONTEXT_LEDGER_CLI_BUNDLE: '0' } });
    expect(help).toEqual(node([LAUNCHER, 'replay', '--help'], { env }));
  });

  it('is what install writes into your own settings when run from the ES module entry, and that Stop ingests', async () => {
    const { home, project, env, stop } = await machine();
    const installed = node([MODULE_ENTRY, 'install', 'claude-code', '--user'], { env, cwd: project });
    expect(installed.status, installed.stderr).toBe(0);
    const settings = JSON.parse(await readFile(join(home, '.claude', 'settings.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = settings.hooks.Stop?.[0]?.hooks[0]?.command ?? '';
    expect(command).toBe(`${process.execPath} ${LAUNCHER} hook claude-code`);
    const result = spawnSync('/bin/sh', ['-c', command], { env, input: stop, cwd: project, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(await spansOf(project, env)).toBe(2);
  });

  it('is the script install writes for the ES module entry beside it, or a link to that entry', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cl-launcher-of-'));
    const cli = join(root, 'dist', 'cli');
    await mkdir(cli, { recursive: true });
    await writeFile(join(cli, 'main.js'), '');
    expect(launcherOf(join(cli, 'main.js'))).toBe(join(cli, 'main.js'));
    await writeFile(join(cli, 'main.cjs'), '');
    await symlink(join(cli, 'main.js'), join(root, 'context-ledger'));
    expect(launcherOf(join(cli, 'main.js'))).toBe(join(cli, 'main.cjs'));
    expect(launcherOf(join(root, 'context-ledger'))).toBe(join(cli, 'main.cjs'));
    expect(launcherOf(join(cli, 'main.cjs'))).toBe(join(cli, 'main.cjs'));
    expect(launcherOf(join(root, 'missing', 'main.js'))).toBe(join(root, 'missing', 'main.js'));
  });
});
