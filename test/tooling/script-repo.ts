/** A scratch git repository for the tests of the repository's check scripts (they read git-tracked files only). */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** What a check script printed and its exit code (0 when it passed). */
export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the Node script at `script` with `dir` as its working directory. */
export async function runScript(script: string, dir: string): Promise<ScriptRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as ScriptRun;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Writes `files` (path -> text) into the repository at `dir` and `git add`s them. */
export async function track(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await run('git', ['add', '--', ...Object.keys(files)], { cwd: dir });
}
