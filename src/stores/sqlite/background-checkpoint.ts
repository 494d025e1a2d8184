/**
 * WAL checkpoints off the append path. SQLite's automatic checkpoint runs inside the COMMIT of
 * the write that crosses `wal_autocheckpoint` pages: that append copies megabytes of WAL into
 * the database file and waits for two fsyncs (measured: 1 append in 14 of 1-20 KB turns, each
 * 10-40 ms). Instead, a worker thread with its own connection runs `PRAGMA wal_checkpoint(PASSIVE)`
 * shortly after writes; a passive checkpoint takes no write lock, so appends go on meanwhile.
 *
 * Durability does not change: a transaction is durable against a killed process once its WAL
 * frames are written, which COMMIT still does; a checkpoint only moves committed frames into the
 * database file. The writer's own automatic checkpoint stays on at a higher threshold
 * (`FALLBACK_AUTOCHECKPOINT_PAGES`) in case the worker falls behind, and back at SQLite's
 * default if the worker stops.
 *
 * The WAL restarts from its start (and stays bounded) only when a write begins while every frame
 * is checkpointed. Under a steady stream of appends a worker checkpoint never gets there: the
 * appends written while it copies and syncs stay behind, so the WAL grew to the writer's fallback
 * threshold and that append's COMMIT ran the checkpoint (measured with perf on the append bench:
 * 17-43 ms of copying and fsync in COMMIT, 5-6 appends in 2,000). So the worker reports the WAL
 * size it saw: a WAL of `TAIL_MIN_FRAMES` or more has not restarted since it got there, and
 * `takeTail()` says so once; the writer then copies the short tail (frames written during the
 * worker's checkpoint) itself at the start of its next idle step, where no append of its
 * connection can run, and that step's text-index write restarts the WAL and syncs the new header
 * (measured: no fsync left inside any of 2,000 appends, before 11; the idle steps' fsyncs about
 * 1.4 ms each, 3 per tail, a tail about every 20 appends of that stream).
 */
import { createRequire } from 'node:module';
import type * as WorkerThreads from 'node:worker_threads';

/**
 * `require` of this module: `node:worker_threads` is loaded when a worker starts, not by every process that opens a
 * store (a hook call opens one without a worker, and loading the module cost it a few milliseconds).
 */
const require = createRequire(import.meta.url);

/** SQLite's default `wal_autocheckpoint` (pages), restored when the worker stops. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/** The writer's own `wal_autocheckpoint` while the worker runs: a bound on the WAL, never reached when it keeps up. */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16_000;

/** The WAL size (frames) from which frames a worker checkpoint left behind are copied by the writer when idle. */
export const TAIL_MIN_FRAMES = 1_000;

/** How long after the first write since the last checkpoint the worker checkpoints (ms). */
export const CHECKPOINT_DELAY_MS = 100;

/**
 * The worker (CommonJS, run with `eval` so it works from the sources and from `dist`). The shared
 * flag is 1 while a checkpoint is requested and not yet started; the writer posts only when it
 * flips it from 0, so there is at most one message per checkpoint. It answers each checkpoint with
 * the pragma's row: busy, frames in the WAL, frames checkpointed.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const requested = new Int32Array(workerData.flag);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('wal_autocheckpoint = 0');
let timer;
parentPort.on('message', () => {
  timer ??= setTimeout(() => {
    timer = undefined;
    Atomics.store(requested, 0, 0);
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage([result.busy, result.log, result.checkpointed]);
    } catch {
      // Another connection was checkpointing (SQLITE_BUSY): the next write asks again.
    }
  }, workerData.delayMs);
});
`;

/** A running background checkpointer. */
export interface BackgroundCheckpoint {
  /** Call after each committed write: asks for a checkpoint soon (cheap; one message per checkpoint). */
  wrote(): void;
  /** Number of checkpoints the worker has run (for tests and diagnostics). */
  readonly checkpoints: number;
  /**
   * True once after a worker checkpoint that left frames behind in a WAL of at least `TAIL_MIN_FRAMES` frames (then
   * false until the next such checkpoint): the writer should checkpoint the rest when idle.
   */
  takeTail(): boolean;
  /** Stops the worker (its connection is closed with it). */
  stop(): Promise<void>;
}

/**
 * Starts the worker for the WAL database `file`; `onStopped` runs if the worker fails or exits on
 * its own (the caller then restores the writer's automatic checkpoint).
 */
export function startBackgroundCheckpoint(file: string, onStopped: (error?: unknown) => void): BackgroundCheckpoint {
  const flag = new SharedArrayBuffer(4);
  const requested = new Int32Array(flag);
  const driver = require.resolve('better-sqlite3');
  const { Worker } = require('node:worker_threads') as typeof WorkerThreads;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, flag, delayMs: CHECKPOINT_DELAY_MS },
  });
  let running = true;
  let checkpoints = 0;
  let tail = false;
  let stopping: Promise<void> | undefined;
  worker.on('message', (message: unknown) => {
    checkpoints += 1;
    const [busy, log] = Array.isArray(message) ? (message as number[]) : [];
    tail = busy === 0 && log !== undefined && log >= TAIL_MIN_FRAMES;
  });
  const stopped = (error?: unknown) => {
    if (!running) return;
    running = false;
    if (stopping === undefined) onStopped(error);
  };
  worker.on('error', stopped);
  worker.on('exit', () => stopped());
  // After the listeners: adding a 'message' listener refs the worker's port again, and a process that never called
  // close() would then never exit.
  worker.unref();
  return {
    wrote() {
      if (running && Atomics.compareExchange(requested, 0, 0, 1) === 0) worker.postMessage(0);
    },
    get checkpoints() {
      return checkpoints;
    },
    takeTail() {
      const taken = tail;
      tail = false;
      return taken;
    },
    stop() {
      stopping ??= worker.terminate().then(() => {
        running = false;
      });
      return stopping;
    },
  };
}
