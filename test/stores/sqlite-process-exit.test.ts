import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const DIST = join(process.cwd(), 'dist');
const directory = mkdtempSync(join(tmpdir(), 'cl-exit-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The README's library snippet, against the built package, with or without `close()` at the end. */
function snippet(close: boolean): string {
  const root = pathToFileURL(join(DIST, 'index.js')).href;
  const sqlite = pathToFileURL(join(DIST, 'stores/sqlite/index.js')).href;
  return `
import { createLedger } from ${JSON.stringify(root)};
import { createSqliteStore } from ${JSON.stringify(sqlite)};
const ledger = createLedger({ store: createSqliteStore({ path: ${JSON.stringify(join(directory, `${close}.db`))} }) });
const session = await ledger.session('payments-deploy', { window: { maxTokens: 8000 } });
await session.append({ role: 'user', content: 'Use PAYMENTS_DB_REPLICA=eu-west-2b. Do not target eu-west-1.' });
await session.render();
console.log((await session.recall('eu-west-2b')).status);
${close ? 'await ledger.close();' : ''}
`;
}

describe('a process using the SQLite store exits when its work is done', () => {
  // The checkpoint worker once kept a process alive forever when close() was not called (its port was
  // ref'd again by the 'message' listener attached after unref()). The limit only bounds a hang; it is no speed target.
  it.each([true, false])('exits on its own (close() called: %s)', (close) => {
    // Run as a module file, as a user's script is (a `-e` script happened to exit either way).
    const script = join(directory, `snippet-${close}.mjs`);
    writeFileSync(script, snippet(close));
    const run = spawnSync(process.execPath, [script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.signal, `the process did not exit by itself: ${run.stderr}`).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('verified');
  });
});
