/**
 * Bytes on disk per table of a SQLite database, from the `dbstat` virtual table: every b-tree's pages, indexes
 * added to their table and an FTS5 table's shadow tables (`name_data`, `name_idx`, …) to the FTS5 table.
 */
import { stat } from 'node:fs/promises';
import Database from 'better-sqlite3';

/** One table's size. */
export interface TableSize {
  readonly table: string;
  readonly bytes: number;
}

/** The database's tables by size, largest first; null when this SQLite build has no `dbstat`. */
export function sqliteTableSizes(file: string): TableSize[] | null {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = database
      .prepare(
        `SELECT coalesce(m.tbl_name, d.name) AS tbl, sum(d.pgsize) AS bytes
         FROM dbstat AS d LEFT JOIN sqlite_schema AS m ON m.name = d.name GROUP BY tbl`,
      )
      .all() as { tbl: string; bytes: number }[];
    const virtual = (
      database
        .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`)
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    const sizes = new Map<string, number>();
    for (const row of rows) {
      const owner = virtual.find((name) => row.tbl.startsWith(`${name}_`)) ?? row.tbl;
      sizes.set(owner, (sizes.get(owner) ?? 0) + row.bytes);
    }
    return [...sizes].map(([table, bytes]) => ({ table, bytes })).sort((a, b) => b.bytes - a.bytes);
  } catch (error) {
    if (error instanceof Error && /no such table: dbstat/.test(error.message)) return null;
    throw error;
  } finally {
    database.close();
  }
}

const SUFFIXES = ['', '-wal', '-shm'] as const;

/** Bytes of a SQLite database with its -wal and -shm files (0 for files that are not there). */
export async function sqliteFileBytes(file: string): Promise<number> {
  let bytes = 0;
  for (const suffix of SUFFIXES)
    bytes += await stat(`${file}${suffix}`).then(
      (info) => info.size,
      () => 0,
    );
  return bytes;
}
