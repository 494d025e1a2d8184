/**
 * Auditing many files: in this thread (`jobs` 1), or spread over `jobs` worker threads
 * (`audit-worker.ts`), each auditing whole files. Each result goes to `onDone` with its file's
 * index as the file finishes (in any order with workers) and is not kept here, so memory does
 * not grow with the number of files; each file is audited by the same code either way, so the
 * document is the same (tested).
 */
import { Worker } from 'node:worker_threads';
import { auditFile } from '../audit/analyze.js';
import type { AuditOptions } from '../audit/analyze.js';
import type { FileAudit } from '../audit/types.js';
import { LedgerError } from '../errors.js';

/** What the pool sends a worker. */
export type PoolRequest =
  { readonly type: 'audit'; readonly index: number; readonly file: string } | { readonly type: 'exit' };

/** What a worker sends back. */
export type PoolReply =
  | {
      readonly type: 'progress';
      readonly index: number;
      readonly phase: string;
      readonly done: number;
      readonly total: number;
    }
  | { readonly type: 'log'; readonly index: number; readonly line: string }
  | { readonly type: 'done'; readonly index: number; readonly audit: FileAudit }
  | { readonly type: 'failed'; readonly index: number; readonly code: string; readonly message: string }
  | { readonly type: 'crashed'; readonly index: number; readonly message: string };

/** What the caller is told while files are audited. */
export interface AuditHooks {
  /** A file starts (index into the files). */
  onStart(index: number): void;
  /** Progress within a file. */
  onProgress(index: number, phase: string, done: number, total: number): void;
  /** A skip or warning line. */
  onLog(line: string): void;
  /** A file is finished (audited, or failed with a context-ledger error: then `audit.error` is set). */
  onDone(index: number, audit: FileAudit): void;
}

/** The options a worker is given (functions cannot cross threads: progress and lines come back as messages). */
export type PoolOptions = Pick<AuditOptions, 'format' | 'maxTokens' | 'skipInvalid'>;

function failedEntry(file: string, options: PoolOptions, error: { code: string; message: string }): FileAudit {
  const format = typeof options.format === 'string' && options.format !== 'auto' ? options.format : 'unknown';
  return { file, format, skipped: 0, sessions: [], error: { code: error.code, message: error.message } };
}

async function auditHere(files: readonly string[], options: PoolOptions, hooks: AuditHooks): Promise<void> {
  for (const [index, file] of files.entries()) {
    hooks.onStart(index);
    let audit: FileAudit;
    try {
      audit = await auditFile(file, {
        ...options,
        onSkip: (error) => hooks.onLog(`skipped: ${error.message}`),
        onWarning: (message) => hooks.onLog(`warning: ${message}`),
        onProgress: (phase, done, total) => hooks.onProgress(index, phase, done, total),
      });
    } catch (error) {
      if (!LedgerError.isInstance(error)) throw error;
      audit = failedEntry(file, options, error);
    }
    hooks.onDone(index, audit);
  }
}

function auditInWorkers(
  files: readonly string[],
  options: PoolOptions,
  jobs: number,
  hooks: AuditHooks,
): Promise<void> {
  const done = files.map(() => false);
  const workers: Worker[] = [];
  let next = 0;
  let finished = 0;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const stop = (error?: Error) => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      if (error) return reject(error);
      done.forEach((isDone, index) => {
        if (!isDone) hooks.onDone(index, failedEntry(files[index] ?? '', options, lost(index)));
      });
      resolve();
    };
    const lost = (index: number) => ({ code: 'INTERNAL', message: `${files[index] ?? ''}: no result from its worker` });
    const give = (worker: Worker) => {
      if (next >= files.length) {
        worker.postMessage({ type: 'exit' } satisfies PoolRequest);
        return;
      }
      const index = next++;
      hooks.onStart(index);
      worker.postMessage({ type: 'audit', index, file: files[index] ?? '' } satisfies PoolRequest);
    };
    for (let count = 0; count < Math.min(jobs, files.length); count++) {
      const worker = new Worker(new URL('./audit-worker.js', import.meta.url), { workerData: options });
      workers.push(worker);
      worker.on('message', (reply: PoolReply) => {
        if (reply.type === 'progress') return hooks.onProgress(reply.index, reply.phase, reply.done, reply.total);
        if (reply.type === 'log') return hooks.onLog(reply.line);
        if (reply.type === 'crashed')
          return stop(new Error(`audit of ${files[reply.index] ?? ''} failed: ${reply.message}`));
        const audit = reply.type === 'done' ? reply.audit : failedEntry(files[reply.index] ?? '', options, reply);
        done[reply.index] = true;
        hooks.onDone(reply.index, audit);
        finished++;
        if (finished === files.length) stop();
        else give(worker);
      });
      worker.on('error', (error) => stop(error));
      worker.on('exit', (code) => {
        if (code !== 0 && !settled) stop(new Error(`an audit worker exited with code ${code}`));
      });
      give(worker);
    }
  });
}

/** Audit `files` in `jobs` worker threads (1: in this thread, in order); each result goes to `hooks.onDone`. */
export function auditAll(
  files: readonly string[],
  options: PoolOptions,
  jobs: number,
  hooks: AuditHooks,
): Promise<void> {
  if (files.length === 0) return Promise.resolve();
  return jobs <= 1 || files.length === 1
    ? auditHere(files, options, hooks)
    : auditInWorkers(files, options, jobs, hooks);
}
