/**
 * Running the reliability workers (plain Node scripts over the compiled `dist/`) and killing
 * them: the parent side of the crash and concurrency tests.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Directory of the worker scripts. */
export const WORKERS = join(import.meta.dirname, 'workers');

/** Throws a clear error unless `npm run build` has produced the modules the workers import. */
export function requireBuild(): void {
  for (const module of [
    'dist/session/ledger.js',
    'dist/stores/store-spec.js',
    'dist/stores/postgres/index.js',
    'dist/stores/sqlite/index.js',
  ]) {
    if (!existsSync(join(process.cwd(), module)))
      throw new Error(
        `${module} is missing: the reliability workers run the compiled code; run \`npm run build\` first.`,
      );
  }
}

/** One acknowledged append as a worker printed it. */
export interface Ack {
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly batch: string;
  readonly size: number;
}

/** What a worker printed and how it ended. */
export interface WorkerOutcome {
  readonly acks: Ack[];
  readonly lines: string[];
  readonly stderr: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Parses `ack` lines. */
export function parseAcks(lines: readonly string[]): Ack[] {
  return lines.flatMap((line) => {
    const [word, first, last, batch, size] = line.split(' ');
    return word === 'ack' && batch !== undefined
      ? [{ firstSeq: Number(first), lastSeq: Number(last), batch, size: Number(size) }]
      : [];
  });
}

/**
 * Runs `script` with a JSON config. With `killAfterMs`, sends SIGKILL that long after the
 * first acknowledged append (so the kill lands inside the append/render loop).
 */
export function runWorker(
  script: string,
  config: object,
  options: { killAfterMs?: number; timeoutMs?: number } = {},
): Promise<WorkerOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(WORKERS, script), JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let pending = '';
    let stderr = '';
    let armed = false;
    const guard = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts);
      if (!armed && options.killAfterMs !== undefined && parts.some((line) => line.startsWith('ack '))) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (pending.length > 0) lines.push(pending);
      resolve({ acks: parseAcks(lines), lines, stderr, code, signal });
    });
  });
}
