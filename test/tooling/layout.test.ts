import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run, runScript, track as trackFiles } from './script-repo.js';

const SCRIPT = resolve('scripts/check-layout.mjs');

let dir: string;

const check = () => runScript(SCRIPT, dir);
const track = (files: Record<string, string>) => trackFiles(dir, files);

describe('scripts/check-layout.mjs', () => {
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'layout-'));
    await run('git', ['init', '-q'], { cwd: dir });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('passes a tree whose imports only go one way', async () => {
    await track({
      'src/index.ts': "export { a } from './window/a.js';\n",
      'src/window/a.ts': "import type { B } from '../handles/b.js';\nexport const a: B = 1;\n",
      'src/handles/b.ts': "import type { E } from '../errors.js';\nexport type B = number | E;\n",
      'src/errors.ts': 'export type E = string;\n',
    });
    const outcome = await check();
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('4 files in src/, 2 at its root, every import down a floor, no circle');
  });

  it('names a circle made only of type imports', async () => {
    await track({
      'src/handles/a.ts': "import type { B } from './b.js';\nexport type A = B[];\n",
      'src/handles/b.ts': "import type { A } from './a.js';\nexport type B = A | number;\n",
    });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('import circle: src/handles/a.ts -> src/handles/b.ts -> src/handles/a.ts');
  });

  it('names a circle closed by a dynamic import across folders', async () => {
    await track({
      'src/window/a.ts': "export const load = () => import('../compaction/b.js');\n",
      'src/compaction/b.ts': "export { load } from '../window/a.js';\n",
    });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /import circle: src\/compaction\/b\.ts -> src\/window\/a\.ts -> src\/compaction\/b\.ts/,
    );
  });

  it('names an import that goes up a floor, even when no circle closes', async () => {
    await track({
      'src/window/window.ts': "import { compact } from '../compaction/compact.js';\nexport const w = compact;\n",
      'src/compaction/compact.ts': 'export const compact = 1;\n',
    });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('window/window.ts imports compaction/compact.ts: up a floor');
  });

  it('lets the subfolders of one folder import each other and the entry points import any floor', async () => {
    await track({
      'src/index.ts': "export { install } from './integrations/codex/install.js';\n",
      'src/integrations/codex/install.ts': "export { install } from '../claude-code/install.js';\n",
      'src/integrations/claude-code/install.ts': 'export const install = 1;\n',
    });
    const outcome = await check();
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
  });

  it('names a folder the floors do not list', async () => {
    await track({ 'src/misc/thing.ts': 'export const thing = 1;\n' });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/misc/thing.ts: its folder is not in FLOORS');
  });

  it('names a circle in bench/ as well', async () => {
    await track({
      'bench/context.ts': "import type { Options } from './options.js';\nexport type Context = Options[];\n",
      'bench/options.ts': "import type { Context } from './context.js';\nexport type Options = Context | number;\n",
    });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('import circle: bench/context.ts -> bench/options.ts -> bench/context.ts');
  });

  it('refuses more than six .ts files directly in src/', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 7; index++) files[`src/loose-${index}.ts`] = `export const x${index} = ${index};\n`;
    await track(files);
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/ holds 7 .ts files (at most 6)');
  });
});
