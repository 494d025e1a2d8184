/**
 * The SQLite store's work off the write path: WAL checkpoints in a background worker (`background-checkpoint.ts`,
 * started on the first committed write) and the deferred free-text index (`deferred-text-index.ts`), merged one
 * bounded step after each append, so neither lands on one append. Closing stops both and indexes what is pending.
 */
import {
  DEFAULT_AUTOCHECKPOINT_PAGES,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  startBackgroundCheckpoint,
  type BackgroundCheckpoint,
} from './background-checkpoint.js';
import { createDeferredTextIndex, type DeferredTextIndex } from './deferred-text-index.js';
import type { SqliteContext } from './sqlite-context.js';

/** The background checkpointer and the deferred text index of one SQLite store. */
export class WriteUpkeep {
  /** The deferred free-text index (the search part catches it up or reads past its mark). */
  readonly textIndex: DeferredTextIndex;
  /** Whether checkpoints run in a worker: a writable store on a file, unless turned off. */
  private readonly checkpointInBackground: boolean;
  /** The worker, started on the first committed write. */
  private checkpointer: BackgroundCheckpoint | undefined;

  constructor(
    private readonly context: SqliteContext,
    backgroundCheckpoint: boolean | undefined,
  ) {
    const { db, isReadonly, file } = context;
    this.checkpointInBackground = !isReadonly && file !== undefined && backgroundCheckpoint !== false;
    this.textIndex = createDeferredTextIndex(
      db,
      !isReadonly,
      () => this.checkpointTail(),
      (operation, body) => context.writes.run(operation, body),
    );
  }

  /** After a committed write: the background checkpointer (started on the first write) checkpoints soon. */
  wrote(): void {
    const { db, file } = this.context;
    if (!this.checkpointInBackground || !db.open || file === undefined) return;
    if (this.checkpointer === undefined) {
      this.checkpointer = startBackgroundCheckpoint(file, () => {
        if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      });
      db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    }
    this.checkpointer.wrote();
  }

  /** After a committed append: a checkpoint soon, and an idle step of the text index. */
  appended(): void {
    this.wrote();
    this.textIndex.appended();
  }

  /** Before the connection closes: no more idle steps, the pending rows indexed (when it can), the worker stopped. */
  async stop(): Promise<void> {
    const { db, isReadonly } = this.context;
    this.textIndex.stop();
    if (!isReadonly && db.open) {
      try {
        this.textIndex.catchUp();
      } catch {
        // Busy or failing: the rows stay past the mark, and the next writer or search indexes them.
      }
    }
    // The worker's connection closes first, so the writer's close is the last one and checkpoints the WAL away.
    await this.checkpointer?.stop();
  }

  /** In the idle step, before the text-index write: the frames the worker's last checkpoint left behind, if it says so. */
  private checkpointTail(): void {
    if (this.checkpointer?.takeTail() !== true) return;
    try {
      this.context.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Failing (closing, I/O error): the worker's next checkpoint, or the fallback in a COMMIT, copies it instead.
    }
  }
}
