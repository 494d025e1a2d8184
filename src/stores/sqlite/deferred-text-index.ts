/**
 * The free-text index (trigram FTS5) is written after the append, not inside it. Indexing a
 * 20 KB turn costs some 5-17 ms of trigram postings on this 2-core machine, most of a large append's time, while
 * the rows it indexes are already stored: `occurrence_text_rows` numbers every occurrence in
 * append order, and `text_index_mark` holds the last row the index covers. An idle step (a
 * timer after each append, unref'd) indexes the rows past the mark in bounded batches;
 * `searchText` first indexes what is still pending (a read-only connection instead scans the
 * pending rows' text with LIKE), and `close()` indexes the rest, so search never misses a
 * stored span and nothing is lost by a crash: the next writer catches up from the mark. The
 * mark only moves forward (a trigger refuses going back, which would index rows twice). The texts of the rows an append
 * of this connection committed are held in memory (`hold`, bounded) and indexed from there: the same text the
 * database gives back, without joining and unpacking it again; rows another connection wrote are read as before.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { TEXT_MERGE_PAGES } from './text-merging.js';
import { SPAN_TEXT } from './span-text.js';

/** Text one idle step indexes at most (characters); a step is one short write transaction. */
export const IDLE_STEP_CHARS = 16 * 1024;
/** Rows read per batch of pending text. */
const BATCH_ROWS = 256;

/**
 * Rows a bounded step reads at a time: a step stops at about `maxChars` of text, and every row read has its text
 * unpacked (schema 10), so reading `BATCH_ROWS` for a step that takes ten of them unpacked the rest for nothing (on a
 * real Claude Code session at 8,000 tokens the replay took 8-10% longer than with plain texts).
 */
const STEP_BATCH_ROWS = 16;

/** A row of `occurrence_text_rows` and the text of its occurrence's span. */
export interface PendingText {
  readonly row: number;
  readonly text: string;
}

/**
 * Characters of the texts of committed rows an index holds for its next steps at most (`hold`): past it, rows are
 * read back from the database as before.
 */
export const HELD_TEXT_CHARS = 4_000_000;

/**
 * Held text (characters) from which `hold` indexes rows itself, right after the append that held them: the idle steps
 * are not keeping up. A bulk writer that seldom lets the event loop reach its timers (`replay`) ran few of them: on the
 * 100 MB `speed-rss` transcript 3,112 of 45,088 rows were indexed once every message was appended, and `close()` then
 * read the other 42,000 rows back, unpacked their texts and indexed them in one transaction. Past this backlog each
 * append indexes twice the text it adds (at least {@link CATCH_UP_STEP_CHARS}), from memory, inside its write group.
 */
export const CATCH_UP_HELD_CHARS = 1_000_000;

/**
 * Text (characters) an append indexes at least once the backlog passed {@link CATCH_UP_HELD_CHARS}. Each step ends
 * in one flush of FTS5's pending terms (a new level-0 segment) and one merge step, so steps of an idle step's size
 * left the index with one small segment per append of a bulk replay, flushed and merged again and again. Measured on
 * the SWE-agent replay at 32,000 tokens (its appends fed to the index alone): 16 KB steps 546-612 ms of CPU, 64 KB
 * 457-459 ms, 256 KB 433-443 ms. 64 KB (four idle steps) keeps the append that takes a step short.
 */
export const CATCH_UP_STEP_CHARS = 64 * 1024;

/** The statements of the deferred index. */
interface TextIndexStatements {
  readonly mark: Statement<[], number>;
  readonly last: Statement<[], number>;
  readonly pending: Statement<[number, number], PendingText>;
  readonly setMark: Statement<[number]>;
  readonly insert: Statement<[number, string]>;
  readonly merge: Statement<[number]>;
}

/** The statements of the deferred index over `db`. */
function prepareTextIndexStatements(db: Database.Database): TextIndexStatements {
  return {
    mark: db.prepare('SELECT row FROM text_index_mark WHERE id = 1').pluck() as Statement<[], number>,
    last: db.prepare('SELECT COALESCE(MAX(row), 0) FROM occurrence_text_rows').pluck() as Statement<[], number>,
    pending: db.prepare(
      `SELECT r.row AS row, ${SPAN_TEXT} AS text FROM occurrence_text_rows r
       JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq JOIN spans s ON s.id = o.span_id
       WHERE r.row > ? ORDER BY r.row LIMIT ?`,
    ) as Statement<[number, number], PendingText>,
    setMark: db.prepare('UPDATE text_index_mark SET row = ? WHERE id = 1') as Statement<[number]>,
    insert: db.prepare('INSERT INTO occurrence_fts (rowid, text) VALUES (?, ?)') as Statement<[number, string]>,
    merge: db.prepare("INSERT INTO occurrence_fts (occurrence_fts, rank) VALUES ('merge', ?)") as Statement<[number]>,
  };
}

/** The deferred free-text index of one connection. */
export interface DeferredTextIndex {
  /** Rows up to this one are in the index (read from the file: another connection may have moved it). */
  mark(): number;
  /** Whether some stored rows are not in the index yet (a read, no lock taken). */
  pending(): boolean;
  /** Index pending rows, at most about `maxChars` of text (all of them when infinite); returns whether some remain. */
  step(maxChars: number): boolean;
  /** Index everything pending. */
  catchUp(): void;
  /**
   * Texts of rows an append of this connection just committed: a step indexes them from memory (the same text the
   * database gives back) instead of reading and unpacking them again.
   */
  hold(rows: readonly PendingText[]): void;
  /** After a committed append: schedule an idle step. */
  appended(): void;
  /** Stop scheduling (before the connection closes). */
  stop(): void;
}

/** Runs a write (a step's transaction) as the store commits its writes (`write-groups.ts`). */
export type RunWrite = <T>(operation: string, body: () => T) => T;

/**
 * The deferred index over `db` (a writable connection; pass `writable: false` to only read the mark). `beforeIdleStep`
 * runs first in each idle step (the writer's other idle work: see `background-checkpoint.ts`); each step's transaction
 * runs through `runWrite` (default: on its own).
 */
export function createDeferredTextIndex(
  db: Database.Database,
  writable: boolean,
  beforeIdleStep: () => void = () => undefined,
  runWrite: RunWrite = (_operation, body) => body(),
): DeferredTextIndex {
  const statements = prepareTextIndexStatements(db);
  const held = new HeldTexts();
  const stepTransaction = db.transaction((maxChars: number) => indexPending(statements, held, maxChars));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = !writable;

  const index: DeferredTextIndex = {
    mark: () => statements.mark.get() ?? 0,
    pending: () => (statements.last.get() ?? 0) > (statements.mark.get() ?? 0),
    step: (maxChars) => runWrite('index span text', () => stepTransaction.immediate(maxChars)),
    hold(rows) {
      const added = held.hold(rows);
      if (stopped || held.size < CATCH_UP_HELD_CHARS) return;
      try {
        index.step(Math.max(CATCH_UP_STEP_CHARS, 2 * added));
      } catch {
        // Busy (another writer) or closing: an idle step, search or close catches up from the mark.
      }
    },
    catchUp() {
      if (index.pending()) while (index.step(Number.POSITIVE_INFINITY));
    },
    appended() {
      if (stopped || timer !== undefined) return;
      timer = setTimeout(idle, 0);
      timer.unref();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };

  function idle(): void {
    timer = undefined;
    if (stopped || !db.open) return;
    let more: boolean;
    try {
      beforeIdleStep();
      more = index.step(IDLE_STEP_CHARS);
    } catch {
      // Busy (another writer) or closing: the next append, search or close catches up from the mark.
      return;
    }
    if (more) index.appended();
  }

  return index;
}

/**
 * Inside a step's transaction: index the rows past the mark (from `held` while it holds the next ones, else read from
 * the database), at most about `maxChars` of text; returns whether some may remain.
 */
function indexPending(statements: TextIndexStatements, held: HeldTexts, maxChars: number): boolean {
  let mark = statements.mark.get() ?? 0;
  const from = mark;
  let chars = 0;
  let more: boolean;
  const batch = Number.isFinite(maxChars) ? STEP_BATCH_ROWS : BATCH_ROWS;
  for (;;) {
    const fromMemory = held.after(mark, batch);
    const rows = fromMemory ?? statements.pending.all(mark, batch);
    let consumed = 0;
    for (const row of rows) {
      statements.insert.run(row.row, row.text);
      held.indexed(row.row);
      mark = row.row;
      chars += row.text.length;
      consumed += 1;
      if (chars >= maxChars) break;
    }
    if (consumed < rows.length || (rows.length === batch && chars >= maxChars)) {
      more = true;
      break;
    }
    // Rows held in memory may be followed by rows that are not (another writer's): read on from the database.
    if (fromMemory !== undefined && chars < maxChars) continue;
    if (fromMemory !== undefined || rows.length < batch) {
      more = fromMemory !== undefined;
      break;
    }
  }
  if (mark !== from) {
    statements.setMark.run(mark);
    statements.merge.run(TEXT_MERGE_PAGES);
  }
  return more;
}

/** Texts of committed rows not indexed yet, in row order, bounded by `HELD_TEXT_CHARS`. */
class HeldTexts {
  private readonly texts = new Map<number, string>();
  private chars = 0;

  /** Characters held. */
  get size(): number {
    return this.chars;
  }

  /** Hold `rows` (in increasing row order), as far as the bound allows; returns the characters of the rows given. */
  hold(rows: readonly PendingText[]): number {
    let added = 0;
    for (const { text } of rows) added += text.length;
    for (const { row, text } of rows) {
      if (this.chars + text.length > HELD_TEXT_CHARS) break;
      this.texts.set(row, text);
      this.chars += text.length;
    }
    return added;
  }

  /**
   * The held rows right after `mark` (`mark + 1`, `mark + 2`, … while held), at most `limit`; undefined when the next
   * row is not held. Rows at or below the mark (indexed by another connection) are let go first.
   */
  after(mark: number, limit: number): PendingText[] | undefined {
    for (const [row] of this.texts) {
      if (row > mark) break;
      this.indexed(row);
    }
    const rows: PendingText[] = [];
    for (let row = mark + 1; rows.length < limit; row++) {
      const text = this.texts.get(row);
      if (text === undefined) break;
      rows.push({ row, text });
    }
    return rows.length > 0 ? rows : undefined;
  }

  /** Let go of `row` (indexed). */
  indexed(row: number): void {
    const text = this.texts.get(row);
    if (text === undefined) return;
    this.texts.delete(row);
    this.chars -= text.length;
  }
}
