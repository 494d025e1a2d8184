/**
 * A SQLite ledger is opened with the driver's native addon named directly (`nativeAddon()` in open-database.ts), so
 * a hook process loads it without the `bindings` package's search of a dozen folders; the ledger works as before.
 */
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { nativeAddon, openDatabase } from '../../src/stores/sqlite/open-database.js';

const require = createRequire(import.meta.url);
const directories: string[] = [];

afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

describe('the SQLite driver addon of a hook call', () => {
  it('is the file the driver install put in build/Release', () => {
    const file = nativeAddon();
    expect(file).toBeDefined();
    const packageRoot = dirname(dirname(require.resolve('better-sqlite3')));
    expect(realpathSync(file ?? '')).toBe(realpathSync(join(packageRoot, 'build', 'Release', 'better_sqlite3.node')));
    expect(existsSync(file ?? '')).toBe(true);
  });

  it('is the addon the driver loads by itself: one module, the same classes', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-addon-'));
    directories.push(directory);
    const opened = openDatabase({ path: join(directory, 'ledger.db') });
    try {
      // the addon named directly is the one in Node's module cache (no second copy of the native module)
      const loaded = Object.keys(require.cache).filter((file) => file.endsWith('better_sqlite3.node'));
      expect(loaded.map((file) => realpathSync(file))).toEqual([realpathSync(nativeAddon() ?? '')]);
      // and a connection the driver opens on its own (its default search) works beside it
      const Database = require('better-sqlite3') as typeof BetterSqlite3;
      const other = new Database(join(directory, 'ledger.db'), { readonly: true, fileMustExist: true });
      expect(other.pragma('user_version', { simple: true })).toBe(opened.db.pragma('user_version', { simple: true }));
      other.close();
    } finally {
      opened.db.close();
    }
  });

  it('opens read-only, and from memory, with the same addon', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-addon-'));
    directories.push(directory);
    const file = join(directory, 'ledger.db');
    openDatabase({ path: file }).db.close();
    const readonly = openDatabase({ path: file, readonly: true });
    expect(readonly.db.readonly).toBe(true);
    readonly.db.close();
    const memory = openDatabase({ path: ':memory:' });
    expect(memory.file).toBeUndefined();
    memory.db.close();
  });
});
