/**
 * The tail of a bulk replay reads the final handle index one checkpoint at a time (`loadHandleIndex`), each read one
 * `recordChain` query: that query must look records up by key, never scan the session's record rows (it did, so the
 * tail grew with records x records: 2.5 s of a 10 MB transcript's 36 s, over 13 minutes on 100 MB).
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/stores/sqlite/open-database.js';
import { prepareStatements } from '../../src/stores/sqlite/statements.js';

/** The `detail` lines of the query plan of `sql`. */
function plan(db: ReturnType<typeof openDatabase>['db'], sql: string): string[] {
  return db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all({ session: 's', id: 'r', limit: 1_024 })
    .map((row) => (row as { detail: string }).detail);
}

describe('recordChain query plan', () => {
  it('reads each record of the chain by (session, id), the chain as the outer loop', () => {
    const { db } = openDatabase({ path: ':memory:' });
    try {
      const details = plan(db, prepareStatements(db).recordChain.source);
      const records = details.filter((detail) => / r\b/.test(detail) && !detail.startsWith('SCAN c'));
      expect(records.length).toBe(2);
      for (const detail of records) expect(detail).toMatch(/^SEARCH r USING INDEX \S+ \(session_id=\? AND id=\?\)$/);
      expect(details.join('\n')).not.toMatch(/SCAN r\b|AUTOMATIC/);
    } finally {
      db.close();
    }
  });
});
