/**
 * What a command line call loads before it does its work (run `npm run build --silent` first): commander comes from the
 * bundle without `node:child_process` (`scripts/bundle-hook.mjs`, `lazyChildProcess`), which brought the network
 * modules into every call; a small replay does not load `node:v8` (`replayBoundsHeap`); a replay into a new SQLite
 * ledger makes it with the current schema in one step.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/stores/sqlite/schema.js';
import { loadedUrls, writeModuleTrace } from './module-trace.js';
import { CLI } from './run-cli.js';

/** A preload that counts, at exit, the scripts compiled from a code cache V8 took, rejected, or without one. */
const CODE_CACHE_COUNT = [
  "const vm = require('node:vm');",
  "const { writeSync } = require('node:fs');",
  'const counts = { taken: 0, rejected: 0, none: 0 };',
  'const Script = vm.Script;',
  'vm.Script = class extends Script {',
  '  constructor(source, options) {',
  '    super(source, options);',
  "    counts[options?.cachedData === undefined ? 'none' : this.cachedDataRejected ? 'rejected' : 'taken'] += 1;",
  '  }',
  '};',
  "process.on('exit', () => writeSync(2, 'CODE CACHE ' + JSON.stringify(counts) + '\\n'));",
].join('\n');

/** One traced CLI run (stdout to a file, not a pipe: a pipe's socket loads `net` itself); its exit code and loads. */
async function traced(directory: string, args: readonly string[]) {
  const { requireHook } = await writeModuleTrace(directory, { builtins: true });
  const result = spawnSync(process.execPath, ['--require', requireHook, CLI, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 120_000,
  });
  return { status: result.status, stderr: result.stderr, loaded: loadedUrls(result.stderr) };
}

describe('command line start-up', () => {
  it('loads commander from the bundle, without node:child_process, for --help and a replay', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-cli-startup-'));
    const file = join(directory, 'chat.jsonl');
    const lines = [
      { role: 'user', content: 'Rotate the key for the mirror on host delta-3.' },
      { role: 'assistant', content: 'Rotated it; delta-3 now serves the new key.' },
    ];
    await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const ledger = join(directory, 'ledger.db');
    for (const args of [['--help'], ['replay', file, '--store', `sqlite:${ledger}`, '--quiet']]) {
      const result = await traced(directory, args);
      expect(result.status, result.stderr).toBe(0);
      expect(
        result.loaded.filter((url) => url.includes('/node_modules/commander/')),
        args.join(' '),
      ).toEqual([]);
      expect(result.loaded, args.join(' ')).not.toContain('node:child_process');
      expect(result.loaded, args.join(' ')).not.toContain('node:dgram');
      // a small transcript's replay does not bound the heap (`replayBoundsHeap`), so it does not load node:v8
      expect(result.loaded, args.join(' ')).not.toContain('node:v8');
    }
    const db = new Database(ledger, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    // made in one step: the migrations leave `spans` a renamed copy, quoted in its SQL
    const spans = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'spans'").pluck().get() as string;
    expect(spans.startsWith('CREATE TABLE spans (')).toBe(true);
    expect(db.prepare('SELECT count(*) FROM spans').pluck().get()).toBe(2);
    db.close();
  });

  it('compiles the chunks a replay loads from the code caches the build wrote', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-cli-code-cache-'));
    const preload = join(directory, 'count-code-cache.cjs');
    await writeFile(preload, CODE_CACHE_COUNT + '\n');
    const file = join(directory, 'chat.jsonl');
    await writeFile(
      file,
      JSON.stringify({ role: 'user', content: 'Pin the parser to version 4.2 on host gamma-1.' }) + '\n',
    );
    const args = ['replay', file, '--store', `sqlite:${join(directory, 'ledger.db')}`, '--quiet'];
    const result = spawnSync(process.execPath, ['--require', preload, CLI, ...args], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const line = result.stderr.split('\n').find((text) => text.startsWith('CODE CACHE ')) ?? '';
    const counts = JSON.parse(line.slice('CODE CACHE '.length)) as { taken: number; rejected: number; none: number };
    expect(counts.rejected).toBe(0);
    expect(counts.none).toBe(0);
    expect(counts.taken).toBeGreaterThan(10);
  });
});
