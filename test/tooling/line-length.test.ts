import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = resolve('scripts/check-line-length.mjs');

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function check(cwd: string, ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let dir: string;

/** Write files into the temp repository and `git add` them (the script reads git-tracked files only). */
async function track(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await run('git', ['add', '--', ...Object.keys(files)], { cwd: dir });
}

const line = (length: number): string => `// ${'x'.repeat(length - 3)}`;

describe('scripts/check-line-length.mjs', () => {
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'line-length-'));
    await run('git', ['init', '-q'], { cwd: dir });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('passes a 140-character line and names the checked files', async () => {
    await track({ 'src/ok.ts': `${line(140)}\nexport const a = 1;\n` });
    const outcome = await check(dir);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('1 files in src/**/*.ts, no line over 140 characters');
    expect(outcome.stderr).toBe('');
  });

  it('fails on a 141-character line, naming the file, the line and its length', async () => {
    await track({ 'src/deep/long.ts': `export const a = 1;\n${line(141)}\n`, 'src/ok.ts': `${line(140)}\n` });
    const outcome = await check(dir);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/deep/long.ts:2 (141 chars)');
    expect(outcome.stderr).not.toContain('src/ok.ts');
    expect(outcome.stderr).toContain('1 line(s) over 140 characters');
  });

  it('counts characters, not bytes, and also checks CRLF files', async () => {
    await track({ 'src/wide.ts': `// ${'é'.repeat(137)}\r\n// ${'é'.repeat(138)}\r\n` });
    const outcome = await check(dir);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/wide.ts:2 (141 chars)');
    expect(outcome.stderr).not.toContain('src/wide.ts:1 ');
  });

  it('checks only git-tracked .ts files under src/', async () => {
    await track({ 'test/long.ts': `${line(200)}\n`, 'src/long.md': `${line(200)}\n` });
    await writeFile(join(dir, 'src', 'untracked.ts'), `${line(200)}\n`);
    const outcome = await check(dir);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('0 files');
  });

  it('--max sets the limit', async () => {
    await track({ 'src/a.ts': `${line(100)}\n` });
    expect((await check(dir, '--max', '100')).code).toBe(0);
    const outcome = await check(dir, '--max', '99');
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/a.ts:1 (100 chars)');
  });

  it('--exclude skips a directory (repeatable) and nothing else', async () => {
    await track({
      'src/stores/a.ts': `${line(150)}\n`,
      'src/handles/b.ts': `${line(150)}\n`,
      'src/storesfoo/c.ts': `${line(150)}\n`,
    });
    const outcome = await check(dir, '--exclude', 'src/stores', '--exclude', 'src/handles/');
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/storesfoo/c.ts:1 (150 chars)');
    expect(outcome.stderr).not.toContain('src/stores/a.ts');
    expect(outcome.stderr).not.toContain('src/handles/b.ts');
    expect(outcome.stderr).toContain('(excluding src/stores, src/handles)');
  });

  it('refuses bad arguments with exit 2', async () => {
    for (const args of [['--max'], ['--max', '0'], ['--max', 'ten'], ['--exclude'], ['--wat']]) {
      const outcome = await check(dir, ...args);
      expect(outcome.code, args.join(' ')).toBe(2);
      expect(outcome.stderr).toContain('usage: node scripts/check-line-length.mjs');
    }
  });

  it('fails with exit 2 outside a git repository', async () => {
    const plain = await mkdtemp(join(tmpdir(), 'line-length-plain-'));
    try {
      const outcome = await check(plain);
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toContain('cannot list git-tracked files');
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  });
});
