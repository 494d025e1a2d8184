/**
 * Merging of the free-text index (the trigram FTS5 table) in small steps inside each append.
 * FTS5's own `automerge` does its merge work in quanta: once 64 leaf pages have been written,
 * the write that crosses the mark merges 64 pages per level of the index at once (measured: 1-2
 * appends in 100 of 1-20 KB turns spent 8-25 ms of CPU in COMMIT, at the same appends every run).
 * Instead `automerge` is off and every append transaction runs one `merge` step of at most
 * `TEXT_MERGE_PAGES` pages (only when a level holds `usermerge`, 4, segments: the same rule as
 * `automerge`), so the work is spread over the appends. FTS5's `crisismerge` (16 segments on a
 * level) still bounds the index when bulk appends write faster than the steps merge.
 */
import type Database from 'better-sqlite3';

/** Pages one append's merge step may write. */
export const TEXT_MERGE_PAGES = 64;

/**
 * Turns FTS5's `automerge` off for the file (the option is stored in the index's config table,
 * so it holds for every connection; writers of this version merge in steps instead).
 */
export function useStepMerging(db: Database.Database): void {
  const automerge = db.prepare("SELECT v FROM occurrence_fts_config WHERE k = 'automerge'").pluck().get();
  if (automerge !== 0) db.prepare("INSERT INTO occurrence_fts (occurrence_fts, rank) VALUES ('automerge', 0)").run();
}
