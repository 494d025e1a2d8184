/**
 * What a hook process loads for a Stop call (run `npm run build --silent` first; `CONTEXT_LEDGER_TEST_CLI` names
 * another build): the modules every Stop needs come from one chunk of the hook bundle (`scripts/bundle-hook.mjs`), not
 * from a file per shared module, and the SQLite driver's addon is named directly (no `bindings` search of folders).
 */
import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';

/** Runs one Stop call on a one-turn transcript with every CommonJS file it loads printed; returns the files. */
async function stopCallFiles(): Promise<{ files: string[]; ledger: string }> {
  const root = await mkdtemp(join(tmpdir(), 'cl-hook-cost-'));
  const transcript = join(root, 'session.jsonl');
  const record = { type: 'user', uuid: 'u-1', sessionId: 'cost-1', cwd: root, timestamp: '2026-12-01T10:00:00Z' };
  await writeFile(
    transcript,
    JSON.stringify({ ...record, message: { role: 'user', content: 'Deploy PAY-4821' } }) + '\n',
  );
  const trace = join(root, 'trace.cjs');
  await writeFile(
    trace,
    [
      "const Module = require('node:module');",
      "const { writeSync } = require('node:fs');",
      "const load = Module._extensions['.js'];",
      "Module._extensions['.js'] = function (module, file) { writeSync(2, 'LOADED ' + file + '\\n'); return load.call(this, module, file); };",
    ].join('\n') + '\n',
  );
  const event = { session_id: 'cost-1', transcript_path: transcript, cwd: root, hook_event_name: 'Stop' };
  const ledger = join(root, 'ledger');
  const result = spawnSync(process.execPath, ['--require', trace, CLI, 'hook', 'claude-code'], {
    input: JSON.stringify(event),
    env: { ...process.env, HOME: root, CONTEXT_LEDGER_HOME: ledger },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stdout).toBe('');
  const files = result.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length));
  return { files, ledger };
}

describe('the files a hook Stop call loads', () => {
  it('takes the modules every Stop needs from one chunk of the bundle', async () => {
    const { files, ledger } = await stopCallFiles();
    const bundle = files.filter((file) => /[\\/]dist[\\/]hook[\\/]/.test(file));
    // the entry, the bundler's small runtime, and the chunk of what every Stop needs (17 files before)
    expect(bundle.length, bundle.join('\n')).toBeLessThanOrEqual(3);
    expect(bundle.some((file) => /[\\/]stop-[^\\/]+\.cjs$/.test(file))).toBe(true);
    // and the call did its work: the project's ledger was written
    const projects = await readdir(join(ledger, 'projects'));
    expect(projects.some((name) => name.endsWith('.db'))).toBe(true);
  });

  it('loads the SQLite driver without the bindings package', async () => {
    const { files } = await stopCallFiles();
    expect(files.some((file) => file.includes('better-sqlite3'))).toBe(true);
    expect(files.filter((file) => /[\\/]node_modules[\\/](bindings|file-uri-to-path)[\\/]/.test(file))).toEqual([]);
  });
});
