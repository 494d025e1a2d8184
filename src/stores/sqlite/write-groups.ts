/**
 * How the SQLite store commits its writes (`SqliteStoreOptions.durability`). With `'commit'` each write (an append, a
 * record, a session opened, a step of the text index) is its own transaction, committed before its promise resolves.
 * With `'batch'` writes are grouped: the first write opens a transaction (`BEGIN IMMEDIATE`), each write runs inside
 * it (better-sqlite3 turns its own transaction into a savepoint there, so a write that fails still undoes only
 * itself), and the group commits after an append that finds it open for `GROUP_COMMIT_MS` or more, on a timer when the
 * store goes idle, and on close. Measured on the real SWE-agent replay at 32,000 tokens: each commit wrote the same
 * few leaf pages of every table and index again, about 40 times the database's size in WAL frames (see the report of
 * issue 37); a group writes them once.
 *
 * A group commits whole or not at all, and groups commit in order, so a process killed mid-group leaves the writes of
 * the groups committed before it: a prefix of what it wrote, never half a write. A group ends only where a process
 * writing with `'commit'` can be interrupted too: after an append (never between the records of one compaction, which
 * a session writes one after the other without waiting on anything: a replay killed there was not resumable, since
 * the session reopened did not count a record written without its checkpoint), or when the event loop runs the idle
 * timer. A failure that rolls back the whole transaction (a full disk, an I/O error) loses the group's earlier writes
 * too; the store then refuses further writes (`StoreOperationError`) so nothing is appended after the gap, and reads
 * go on.
 */
import type Database from 'better-sqlite3';
import { InvalidInputError, StoreOperationError } from '../../errors.js';
import { SQLITE_DURABILITIES, type SqliteDurability } from './sqlite-store-options.js';

/** `options.durability` checked (default `'commit'`); throws `InvalidInputError` naming the values it takes. */
export function durabilityOf(options: { readonly durability?: unknown }): SqliteDurability {
  const durability = options?.durability ?? 'commit';
  if (SQLITE_DURABILITIES.includes(durability as SqliteDurability)) return durability as SqliteDurability;
  throw new InvalidInputError(
    `createSqliteStore: options.durability must be ${SQLITE_DURABILITIES.map((value) => `"${value}"`).join(' or ')}, ` +
      `got ${JSON.stringify(durability)}.`,
    { durability },
  );
}

/**
 * How long a group stays open before the next append commits it (ms). Another connection's write waits about this
 * long plus the writes up to that append (well under the default busy timeout of 5 s in a replay), and gets its turn
 * between the commit and the next write of this store (a replay compacts there).
 */
export const GROUP_COMMIT_MS = 1_000;

/** The commits of one connection: every write on its own, or grouped (see the module comment). */
export class WriteGroups {
  /** When the open group began (`performance.now()`); undefined when no group is open. */
  private openedAt: number | undefined;
  /** Commits the open group when the store goes idle. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Why writes are refused: the error that rolled back a group. */
  private lost: unknown;
  /** Whether `lost` was thrown to a caller (a commit on the idle timer has none: close reports it). */
  private lostReported = false;
  /** Groups committed (for tests and diagnostics). */
  commits = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly location: string,
    readonly durability: SqliteDurability,
    private readonly groupMs: number = GROUP_COMMIT_MS,
  ) {}

  /** Whether a group is open (its writes are not committed yet). */
  get open(): boolean {
    return this.openedAt !== undefined;
  }

  /**
   * Runs the write `body` (which runs its own transaction): on its own with `'commit'`; with `'batch'` inside the open
   * group, which only an append opens (`append`: the group commits afterwards when it is old enough). Any other write
   * with no group open (a session opened, a step of the text index after `flush`) commits on its own, so nothing
   * holds the lock once the appends have stopped and the group was committed: another connection of this process,
   * which waits synchronously and so keeps the idle timer from running, could never get it.
   */
  run<T>(operation: string, body: () => T, append = false): T {
    if (this.durability === 'commit') return body();
    this.checkWhole(operation);
    if (!append && this.openedAt === undefined) return body();
    if (this.openedAt === undefined) {
      this.db.exec('BEGIN IMMEDIATE');
      this.openedAt = performance.now();
    }
    let result: T;
    try {
      result = body();
    } catch (error) {
      if (!this.db.inTransaction) this.rolledBack(error, true);
      else this.commitWhenIdle();
      throw error;
    }
    if (append && performance.now() - this.openedAt >= this.groupMs) this.commit();
    else this.commitWhenIdle();
    return result;
  }

  /**
   * Commits the open group, if any (close, and the idle timer). Throws the driver's error when the commit fails; on
   * close, also the error of a group the idle timer failed to commit (no caller heard of it).
   */
  commit(): void {
    if (this.lost !== undefined && !this.lostReported) {
      this.lostReported = true;
      this.checkWhole('close');
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.openedAt === undefined) return;
    this.openedAt = undefined;
    if (!this.db.open) return;
    try {
      this.db.exec('COMMIT');
      this.commits += 1;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.rolledBack(error, true);
      throw error;
    }
  }

  /** Stops the idle timer (before close; the open group is committed by `commit`). */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private commitWhenIdle(): void {
    if (this.timer !== undefined) return;
    // Not unref'd: a process that forgets to close the store still commits its last group before it exits.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      try {
        this.commit();
      } catch {
        // Recorded by `rolledBack`: the next write, or close, reports it.
        this.lostReported = false;
      }
    }, this.groupMs);
  }

  private rolledBack(error: unknown, reported: boolean): void {
    this.openedAt = undefined;
    if (this.lost !== undefined) return;
    this.lost = error;
    this.lostReported = reported;
  }

  /** Throws when a group was rolled back: writes after it would leave a gap. */
  checkWhole(operation: string): void {
    if (this.lost === undefined) return;
    this.lostReported = true;
    const reason = this.lost instanceof Error ? this.lost.message : String(this.lost);
    throw new StoreOperationError(
      `${this.location}: ${operation} refused: a group of writes (durability "batch") was rolled back by an earlier ` +
        `failure (${reason}), so the writes acknowledged since the group began are not stored. Close this store, ` +
        'open it again and write from what it holds (replay --resume continues an interrupted replay).',
      { location: this.location, operation },
      { cause: this.lost },
    );
  }
}
