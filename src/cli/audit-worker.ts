/**
 * A worker thread of `audit --jobs N`: audits the files the pool sends it, one at a time, and
 * posts back progress, skip/warning lines and each file's result (see `audit-pool.ts`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { auditFile } from '../audit/analyze.js';
import type { AuditOptions } from '../audit/analyze.js';
import { LedgerError } from '../errors.js';
import type { PoolReply, PoolRequest } from './audit-pool.js';

const port = parentPort;
if (port === null) throw new Error('audit-worker.js runs as a worker thread of audit --jobs');
const base = workerData as Pick<AuditOptions, 'format' | 'maxTokens' | 'skipInvalid'>;
const reply = (message: PoolReply) => port.postMessage(message);

port.on('message', (request: PoolRequest) => {
  if (request.type === 'exit') {
    port.close();
    return;
  }
  const { index, file } = request;
  auditFile(file, {
    ...base,
    onSkip: (error) => reply({ type: 'log', index, line: `skipped: ${error.message}` }),
    onWarning: (message) => reply({ type: 'log', index, line: `warning: ${message}` }),
    onProgress: (phase, done, total) => reply({ type: 'progress', index, phase, done, total }),
  }).then(
    (audit) => reply({ type: 'done', index, audit }),
    (error: unknown) =>
      reply(
        LedgerError.isInstance(error)
          ? { type: 'failed', index, code: error.code, message: error.message }
          : {
              type: 'crashed',
              index,
              message: error instanceof Error ? (error.stack ?? error.message) : String(error),
            },
      ),
  );
});
