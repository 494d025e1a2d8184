/**
 * The packed package as a strict TypeScript consumer sees it: `npm pack`, unpack into a temp project's
 * `node_modules`, give it only the package's own `dependencies` (linked from this checkout, no network),
 * and compile with `skipLibCheck: false` under `moduleResolution` NodeNext and node10. A public declaration
 * that needs a devDependency's types (TS7016) or a subpath node10 cannot find (TS2307) fails here.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * Imports every subpath and uses a type or value of each, as an application would. Under node10 the
 * `ai-sdk` line is left out: `ai@6`'s own declarations do not compile there (`@ai-sdk/provider-utils` imports
 * `eventsource-parser/stream`, which node10 cannot resolve), whoever imports them; the README says so.
 */
const CONSUMER = `import { createLedger, type LedgerOptions, type CompactionRecord } from 'context-ledger';
import { createSqliteStore, type SqliteStoreOptions } from 'context-ledger/sqlite';
import { createPostgresStore, type PostgresStoreOptions } from 'context-ledger/postgres';
import { ledgerMiddleware } from 'context-ledger/ai-sdk';
import { createLedgerMcpServer } from 'context-ledger/mcp';
import { LedgerSession } from 'context-ledger/internal';

const sqlite: SqliteStoreOptions = { path: ':memory:' };
const postgres: PostgresStoreOptions = { connectionString: 'postgres://u@h:5432/d' };
export const used: unknown[] = [createLedger, createSqliteStore, createPostgresStore, ledgerMiddleware,
  createLedgerMcpServer, LedgerSession, sqlite, postgres];
export type Used = [LedgerOptions, CompactionRecord];
`;

function run(command: string, args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function tsconfig(moduleResolution: 'NodeNext' | 'node10'): string {
  const module = moduleResolution === 'NodeNext' ? 'NodeNext' : 'CommonJS';
  const options = { target: 'ES2022', module, moduleResolution, strict: true, skipLibCheck: false, noEmit: true };
  const include = [moduleResolution === 'NodeNext' ? 'main.ts' : 'main-node10.ts'];
  return JSON.stringify({ compilerOptions: { ...options, types: ['node'], esModuleInterop: true }, include });
}

describe('the packed package compiles in a strict consumer with skipLibCheck false', () => {
  let consumer = '';
  let temp = '';

  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'context-ledger-consumer-'));
    const packed = run('npm', ['pack', '--pack-destination', temp, '--silent'], ROOT);
    expect(packed.status, packed.output).toBe(0);
    const tarball = join(temp, packed.output.trim().split('\n').at(-1) ?? '');
    consumer = join(temp, 'consumer');
    const installed = join(consumer, 'node_modules', 'context-ledger');
    mkdirSync(installed, { recursive: true });
    const unpacked = run('tar', ['xzf', tarball, '-C', installed, '--strip-components=1'], temp);
    expect(unpacked.status, unpacked.output).toBe(0);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: object };
    // Only what an install of the tarball brings (its dependencies), plus the consumer's own @types/node.
    for (const name of [...Object.keys(manifest.dependencies), '@types/node']) {
      const link = join(consumer, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), link, 'dir');
    }
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(consumer, 'main.ts'), CONSUMER);
    const withoutAiSdk = CONSUMER.replace(/^import \{ ledgerMiddleware \}.*\n/m, '').replace('ledgerMiddleware,', '');
    writeFileSync(join(consumer, 'main-node10.ts'), withoutAiSdk);
    writeFileSync(join(consumer, 'tsconfig.nodenext.json'), tsconfig('NodeNext'));
    writeFileSync(join(consumer, 'tsconfig.node10.json'), tsconfig('node10'));
  }, 300_000);

  afterAll(() => {
    if (temp !== '') rmSync(temp, { recursive: true, force: true });
  });

  it.each(['nodenext', 'node10'])(
    'tsc with moduleResolution %s reports nothing',
    (resolution) => {
      const compiled = run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], consumer);
      expect(compiled.output).toBe('');
      expect(compiled.status).toBe(0);
    },
    300_000,
  );

  it('the build leaves the bin executable', () => {
    expect(statSync(join(ROOT, 'dist', 'cli', 'main.js')).mode & 0o111).toBe(0o111);
  });
});
