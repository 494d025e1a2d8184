/**
 * `context-ledger/ai-sdk` in a strict application that sees only what an install of the package brings (issue 38:
 * "`context-ledger/ai-sdk` on TS 5.9 fails on `json-schema`"). `@ai-sdk/provider`'s declarations import the types of
 * `json-schema`, which no package of the install provides unless this one depends on `@types/json-schema`; with
 * `skipLibCheck: false` the application then fails with TS7016. The other packaging tests link the dependencies from
 * this checkout, where TypeScript follows each link to its real path and finds this checkout's devDependencies (eslint
 * brings `@types/json-schema`): they cannot see it. Here the consumer's `node_modules` holds a link to every package
 * of the production install (the `dependencies`, walked through their own dependencies and required peers) and
 * TypeScript keeps the links' paths (`preserveSymlinks`), so a type only a devDependency brings is not found.
 * The application also hands `recallTool(session)` to its own `generateText`, as the README shows.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const MODULES = join(ROOT, 'node_modules');
const TSC = join(MODULES, 'typescript', 'bin', 'tsc');

const APPLICATION = `import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { createLedger, createMemoryStore } from 'context-ledger';
import { ledgerMiddleware, recallTool } from 'context-ledger/ai-sdk';

declare const model: LanguageModel;
const ledger = createLedger({ store: createMemoryStore() });
const session = await ledger.session('orders-migration');
const result = await generateText({ model, prompt: 'Which queue did we pick?', tools: { recall: recallTool(session) },
  stopWhen: stepCountIs(4) });
export const used: unknown[] = [result.text, ledgerMiddleware];
await ledger.close();
`;

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifestOf = (folder: string) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;

/**
 * The packages an install of `manifest` puts at the top of `node_modules`: its dependencies, theirs, and the peers
 * they require, as this checkout holds them (a dependency nested in its parent's own `node_modules` comes with the
 * parent's link).
 */
function productionPackages(manifest: Manifest): string[] {
  const found = new Set<string>();
  const queue = Object.keys(manifest.dependencies ?? {});
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    if (found.has(name) || !existsSync(join(MODULES, name, 'package.json'))) continue;
    found.add(name);
    const own = manifestOf(join(MODULES, name));
    const peers = Object.keys(own.peerDependencies ?? {}).filter((peer) => !own.peerDependenciesMeta?.[peer]?.optional);
    for (const next of [...Object.keys({ ...own.dependencies, ...own.optionalDependencies }), ...peers])
      if (!existsSync(join(MODULES, name, 'node_modules', next))) queue.push(next);
  }
  return [...found];
}

describe('context-ledger/ai-sdk in a strict application that has only what an install brings', () => {
  let temp = '';
  let consumer = '';

  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'context-ledger-ai-app-'));
    const packed = spawnSync('npm', ['pack', '--pack-destination', temp, '--silent'], { cwd: ROOT, encoding: 'utf8' });
    expect(packed.status, packed.stderr).toBe(0);
    consumer = join(temp, 'app');
    const installed = join(consumer, 'node_modules', 'context-ledger');
    mkdirSync(installed, { recursive: true });
    const tarball = join(temp, packed.stdout.trim().split('\n').at(-1) ?? '');
    const unpacked = spawnSync('tar', ['xzf', tarball, '-C', installed, '--strip-components=1'], { encoding: 'utf8' });
    expect(unpacked.status, unpacked.stderr).toBe(0);
    // The application's own: `ai` is in the install already; Node's types, as an application on Node has them.
    for (const name of [...productionPackages(manifestOf(installed)), '@types/node']) {
      const link = join(consumer, 'node_modules', name);
      if (existsSync(link)) continue;
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(MODULES, name), link, 'dir');
    }
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    writeFileSync(join(consumer, 'main.ts'), APPLICATION);
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      preserveSymlinks: true,
    };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['main.ts'] }));
  }, 300_000);

  afterAll(() => {
    if (temp !== '') rmSync(temp, { recursive: true, force: true });
  });

  it('sees no package only a devDependency of this checkout brings', () => {
    expect(existsSync(join(consumer, 'node_modules', 'ai'))).toBe(true);
    expect(existsSync(join(consumer, 'node_modules', 'eslint'))).toBe(false);
    expect(existsSync(join(consumer, 'node_modules', 'vitest'))).toBe(false);
  });

  it('tsc (strict, skipLibCheck false, Node types) reports nothing: no TS7016 for json-schema', () => {
    const compiled = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8' });
    expect(`${compiled.stdout}${compiled.stderr}`).toBe('');
    expect(compiled.status).toBe(0);
  }, 300_000);
});
