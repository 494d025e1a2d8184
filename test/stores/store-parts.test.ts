/**
 * Every store is one shape (`store-parts.ts`): the same own methods, in the same order, put together from four parts
 * over a context. The caches are the store's own: a record split through a store's memo of handle digests gives what a
 * split without one gives, and `src/stores` keeps no mutable state at module level (only the trigram fold table, a
 * constant built on first use). (File and function sizes: `scripts/check-sizes.mjs`.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { handleDigest, handleDigestMemo, splitRecord } from '../../src/stores/record-handles.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { sampleRecord } from './fixtures.js';

const STORE_METHODS = [
  'specificationVersion',
  'kind',
  'location',
  'openSession',
  'getSession',
  'listSessions',
  'append',
  'nextSeq',
  'occurrences',
  'occurrencesOf',
  'spans',
  'findHandles',
  'countHandles',
  'handles',
  'handleIdentities',
  'searchText',
  'writeRecord',
  'records',
  'recordCount',
  'record',
  'chainHandleIdentities',
  'flush',
  'close',
];

describe('one shape for every store', () => {
  it('memory and SQLite stores have the same own properties, in the same order', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cl-store-parts-'));
    const memory = createMemoryStore();
    const sqlite = createSqliteStore({ path: join(folder, 'ledger.db') });
    try {
      expect(Object.keys(memory)).toEqual(STORE_METHODS);
      expect(Object.keys(sqlite)).toEqual(STORE_METHODS);
      expect([memory.kind, sqlite.kind]).toEqual(['memory', 'sqlite']);
    } finally {
      await memory.close();
      await sqlite.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("a store's memo of handle digests", () => {
  it('splits a record as a split without a memo does, and holds the digests of its handles', () => {
    const record = sampleRecord('session-memo');
    const digests = handleDigestMemo();
    const split = splitRecord(record, digests);
    expect(split).toEqual(splitRecord(record));
    expect(splitRecord(record, digests)).toEqual(split);
    for (const json of split.handles) expect(digests.get(json)).toEqual(handleDigest(json));
    expect(handleDigestMemo().size).toBe(0);
  });
});

/** The `.ts` files under `folder`. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Calls that change a collection or a memo. */
const CHANGES = ['set', 'add', 'delete', 'clear', 'push', 'splice'];

/**
 * Module-level declarations that hold mutable state: `let`/`var`, or a `const` made with `new` that the module changes
 * (a `const` table only read, such as a `Set` of error codes, is a constant).
 */
function moduleState(source: ts.SourceFile): string[] {
  const text = source.getFullText();
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const mutable = (list.flags & ts.NodeFlags.Const) === 0;
    for (const declaration of list.declarations) {
      const name = declaration.name.getText(source);
      const made = declaration.initializer !== undefined && ts.isNewExpression(declaration.initializer);
      const changed = CHANGES.some((call) => text.includes(`${name}.${call}(`));
      if (mutable || (made && changed)) found.push(name);
    }
  }
  return found;
}

describe('src/stores keeps no hidden state', () => {
  const root = fileURLToPath(new URL('../../src/stores', import.meta.url));
  const files = sourceFiles(root);

  it('keeps no mutable state at module level (the trigram fold table is a constant built on first use)', () => {
    const problems = files.flatMap((file) => {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const allowed = file.endsWith(join('sqlite', 'trigram-fold.ts')) ? ['folds'] : [];
      return moduleState(source)
        .filter((name) => !allowed.includes(name))
        .map((name) => `${file}: ${name}`);
    });
    expect(problems).toEqual([]);
  });
});
