import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run, runScript, track as trackFiles } from './script-repo.js';

const SCRIPT = resolve('scripts/check-sizes.mjs');

let dir: string;

const check = () => runScript(join(dir, 'scripts/check-sizes.mjs'), dir);
const track = (files: Record<string, string>) => trackFiles(dir, files);

/** A function `name` of `lines` lines: its signature, `lines - 3` statements, a return and its closing brace. */
function functionOf(name: string, lines: number): string {
  return `export function ${name}(): number {\n${'  void 0;\n'.repeat(lines - 3)}  return 0;\n}\n`;
}

describe('scripts/check-sizes.mjs', () => {
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sizes-'));
    await run('git', ['init', '-q'], { cwd: dir });
    // The script imports `typescript` from its own folder's node_modules, as it does in the repository.
    await mkdir(join(dir, 'scripts'));
    await writeFile(
      join(dir, 'scripts/check-sizes.mjs'),
      await import('node:fs/promises').then((fs) => fs.readFile(SCRIPT)),
    );
    await symlink(resolve('node_modules'), join(dir, 'node_modules'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('passes files and functions within their limits', async () => {
    await track({ 'src/parts/a.ts': functionOf('small', 80) });
    const outcome = await check();
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('sizes: 1 files in src/, 1 functions, none over its limit');
  });

  it('names a function over 80 lines with its file, line and length', async () => {
    await track({ 'src/parts/a.ts': `// head\n${functionOf('long', 81)}` });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/parts/a.ts:2 long (81 lines, at most 80)');
  });

  it('names an arrow function by the variable it is bound to', async () => {
    const body = '  void 0;\n'.repeat(85);
    await track({ 'src/parts/b.ts': `export const handler = (): void => {\n${body}};\n` });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/parts/b.ts:1 handler (87 lines, at most 80)');
  });

  it('names a file over 400 lines', async () => {
    const many = Array.from({ length: 401 }, (_, index) => `export const v${index} = ${index};`).join('\n');
    await track({ 'src/parts/c.ts': `${many}\n` });
    const outcome = await check();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/parts/c.ts: 401 lines (at most 400)');
  });
});
