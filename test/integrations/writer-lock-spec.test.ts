/**
 * A SQLite spec's query (`?durability=batch`) names how the store commits, not another file: the ingest state and the
 * session writer lock of `sqlite:x.db?durability=batch` are those of `sqlite:x.db`, so a replay given that spec and a
 * hook on the plain file still exclude each other.
 */
import { describe, expect, it } from 'vitest';
import { ingestDirectoryOf } from '../../src/integrations/claude-code/ledger-home.js';
import { sessionWriterLockFile } from '../../src/integrations/claude-code/session-writer-lock.js';

describe('the writer lock of a sqlite spec with a query', () => {
  it('is the lock of the file the spec names', () => {
    const plain = ingestDirectoryOf('sqlite:/tmp/ledger-x.db');
    expect(ingestDirectoryOf('sqlite:/tmp/ledger-x.db?durability=batch')).toBe(plain);
    expect(plain).toBe('/tmp/ledger-x.db.ingest');
    expect(sessionWriterLockFile('sqlite:/tmp/ledger-x.db?durability=commit', 's1')).toBe(
      sessionWriterLockFile('sqlite:/tmp/ledger-x.db', 's1'),
    );
  });

  it('has no lock for an in-memory SQLite store, with or without a query', () => {
    expect(sessionWriterLockFile('sqlite::memory:', 's1')).toBeUndefined();
    expect(sessionWriterLockFile('sqlite::memory:?durability=batch', 's1')).toBeUndefined();
  });
});
