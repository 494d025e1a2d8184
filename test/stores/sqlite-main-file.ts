/** Reading a WAL-mode SQLite ledger's main file alone, for tests of when checkpoints copy the WAL out. */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/** The sessions stored in the main database file alone (what a checkpoint has copied out of the WAL). */
export function sessionsInMainFile(path: string): string[] {
  const image = readFileSync(path);
  // Bytes 18-19 say "WAL"; read the image as a rollback-journal file, without its WAL.
  image[18] = 1;
  image[19] = 1;
  const db = new Database(image, { readonly: true });
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sessions'").get() !== undefined;
    return hasTable ? (db.prepare('SELECT id FROM sessions ORDER BY id').pluck().all() as string[]) : [];
  } finally {
    db.close();
  }
}

/** Polls `condition` every 50 ms for up to 10 s; throws naming `what` when it never holds. */
export async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting: ${what}`);
}

/** The text index mark and the last stored text row of a SQLite ledger, read on a connection of its own. */
export function textIndexState(path: string): { mark: number; last: number } {
  const raw = new Database(path, { readonly: true });
  try {
    const mark = raw.prepare('SELECT row FROM text_index_mark WHERE id = 1').pluck().get() as number;
    const last = raw.prepare('SELECT COALESCE(MAX(row), 0) FROM occurrence_text_rows').pluck().get() as number;
    return { mark, last };
  } finally {
    raw.close();
  }
}
