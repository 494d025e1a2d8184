import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = resolve('scripts/check-layout.mjs');

let dir: string;

async function check(): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Write files into the temp repository and `git add` them (the script reads git-tracked files only). */
async function track(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await run('git', ['add', '--', ...Object.keys(files)], { cwd: dir });
}

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
      'src/index.ts': "export { a } from './parts/a.js';\n",
      'src/parts/a.ts': "import type { B } from './b.js';\nexport const a: B = 1;\n",
      'src/parts/b.ts': 'export type B = number;\n',
    });
    const outcome = await check();
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('3 files in src/, 1 at its root, no import circle');
  });

  it('names a circle made only of type imports', async () => {
    await track({
      'src/parts/a.ts': "import type { B } from './b.js';\nexport type A = B[];\n",
      'src/parts/b.ts': "import type { A } from './a.js';\nexport type B = A | number;\n",
    });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('import circle: src/parts/a.ts -> src/parts/b.ts -> src/parts/a.ts');
  });

  it('names a circle closed by a dynamic import across folders', async () => {
    await track({
      'src/one/a.ts': "export const load = () => import('../two/b.js');\n",
      'src/two/b.ts': "export { load } from '../one/a.js';\n",
    });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/import circle: src\/one\/a\.ts -> src\/two\/b\.ts -> src\/one\/a\.ts/);
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
