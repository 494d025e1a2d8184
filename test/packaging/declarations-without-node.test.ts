/**
 * The declarations as a strict consumer without Node's types sees them: built from the source into a temp directory
 * (`tsc --emitDeclarationOnly`, the build's own configuration), laid out as the package (its `exports` and its
 * `dependencies`, linked from this checkout), and compiled with TypeScript 5.9, `skipLibCheck: false` and
 * `types: []` (what TypeScript 6 makes the default), no `@types/node` installed, the DOM library of a web or edge
 * application. A public declaration naming a Node type (`Buffer` in `model/span.d.ts` did) fails here.
 *
 * `context-ledger/ai-sdk` and `context-ledger/postgres` are left out of that consumer: `ai` and `@types/pg`, which they
 * re-export types of, need Node's types themselves (`ai` imports `node:http`; `@types/pg` references `node`). A second
 * consumer imports `context-ledger/ai-sdk`: its only errors are `ai`'s own. (Checked by hand on TypeScript 6.0.3 and
 * 7.0.2 too, which the project does not install: the same results.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const CONSUMER = `import { createLedger, type LedgerOptions, type CompactionRecord, type SpanOccurrence } from 'context-ledger';
import { createSqliteStore, type SqliteStoreOptions } from 'context-ledger/sqlite';
import { createLedgerMcpServer } from 'context-ledger/mcp';
import { LedgerSession, canonicalSpanBytes } from 'context-ledger/internal';

const sqlite: SqliteStoreOptions = { path: ':memory:' };
const bytes: Uint8Array = canonicalSpanBytes({ kind: 'user', text: 'hello' });
export const used: unknown[] = [createLedger, createSqliteStore, createLedgerMcpServer, LedgerSession, sqlite, bytes];
export type Used = [LedgerOptions, CompactionRecord, SpanOccurrence];
`;

/** `ai` itself imports `node:http`: an application using it has Node's types; ours must add no error of our own. */
const AI_SDK_CONSUMER = `import { createLedger } from 'context-ledger';
import { ledgerMiddleware, recallTool } from 'context-ledger/ai-sdk';
export const used: unknown[] = [createLedger, ledgerMiddleware, recallTool];
`;

function run(args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [TSC, ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the declarations compile for a strict consumer without @types/node', () => {
  let temp = '';
  let consumer = '';

  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'context-ledger-no-node-'));
    consumer = join(temp, 'consumer');
    const installed = join(consumer, 'node_modules', 'context-ledger');
    const built = run(
      [
        '-p',
        'tsconfig.build.json',
        '--emitDeclarationOnly',
        '--sourceMap',
        'false',
        '--outDir',
        join(installed, 'dist'),
      ],
      ROOT,
    );
    expect(built.output).toBe('');
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const { name, version, type, main, types, exports, typesVersions, dependencies } = manifest;
    const published = { name, version, type, main, types, exports, typesVersions, dependencies };
    writeFileSync(join(installed, 'package.json'), JSON.stringify(published));
    // What an install of the package brings, but no @types/node at the consumer's top level.
    for (const dependency of Object.keys(dependencies as object)) {
      const link = join(consumer, 'node_modules', dependency);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', dependency), link, 'dir');
    }
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(consumer, 'main.ts'), CONSUMER);
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      strict: true,
      skipLibCheck: false,
      noEmit: true,
    };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['main.ts'] }));
    writeFileSync(join(consumer, 'ai-sdk.ts'), AI_SDK_CONSUMER);
    writeFileSync(join(consumer, 'tsconfig.ai-sdk.json'), JSON.stringify({ compilerOptions, include: ['ai-sdk.ts'] }));
  }, 300_000);

  afterAll(() => {
    if (temp !== '') rmSync(temp, { recursive: true, force: true });
  });

  it('tsc (TypeScript 5.9, types [], skipLibCheck false) reports nothing', () => {
    expect(existsSync(join(consumer, 'node_modules', '@types', 'node'))).toBe(false);
    const compiled = run(['-p', 'tsconfig.json'], consumer);
    expect(compiled.output).toBe('');
    expect(compiled.status).toBe(0);
  }, 300_000);

  it("with context-ledger/ai-sdk: every error is in `ai`'s own declarations (its Node imports), none in ours", () => {
    const compiled = run(['-p', 'tsconfig.ai-sdk.json'], consumer);
    const errors = compiled.output.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error).toMatch(/node_modules\/(?:ai|@ai-sdk\/[\w-]+)\/dist\/index\.d\.ts/);
      expect(error).toMatch(/'node:http'|'http'|'Buffer'/);
    }
    expect(compiled.output).not.toMatch(/node_modules\/context-ledger\//);
  }, 300_000);
});
