/**
 * Runs the built CLI (`dist/cli/main.js`) as a user would, for the tests that drive it as a process.
 * `CONTEXT_LEDGER_TEST_CLI` names another build of it (a private `tsc --outDir`, whose folder links node_modules).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The built CLI's entry point (`npm run build` first). */
export const CLI = process.env.CONTEXT_LEDGER_TEST_CLI ?? join(process.cwd(), 'dist/cli/main.js');

/** What a CLI run printed and its exit code (0 on success). */
export interface CliRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/** Run `node dist/cli/main.js ...args` in `cwd` (with `env` added to this process's); a failing run is returned. */
export async function runCli(args: string[], cwd?: string, env?: Readonly<Record<string, string>>): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args], {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}
