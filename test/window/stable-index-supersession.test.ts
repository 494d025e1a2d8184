import { describe, expect, it } from 'vitest';
import type { CompactionRecord, Handle } from '../../src/types.js';
import { IndexBases } from '../../src/window/stable-index.js';
import { handleAt, summaryRecord } from '../helpers.js';

/** A tool-output handle of `kind` (its cost in the index: 8 + 2 tokens). */
function handle(text: string, kind: Handle['kind'] = 'assignment'): Handle {
  return { ...handleAt(text, kind, 'tool'), key: text, spanId: 'sha256:' + '1'.repeat(64), seq: 0, tokens: 8 };
}

function record(id: string, handles: Handle[]): CompactionRecord {
  const droppedRange = { fromSeq: 0, toSeq: 0, byteStart: 0, byteEnd: 0 };
  return summaryRecord({ id, handles, droppedRange, atSeq: 1, createdAt: '' });
}

/** Stale budget large enough for one dropped entry: only the supersession rule can refuse the base. */
const LIMIT = 100;
const keeps = (base: CompactionRecord, active: CompactionRecord) => new IndexBases().keeps(base, active, LIMIT);

describe('a frozen index base never shows a replaced binding above the current one', () => {
  const other = handle('orders.refund', 'identifier');

  it('starts a new base when the active record binds a frozen label to another value', () => {
    const base = record('rec_a', [handle('DB_HOST=db-ro-8'), other]);
    expect(keeps(base, record('rec_b', [handle('DB_HOST=db-ro-17'), other]))).toBe(false);
    expect(keeps(base, record('rec_b', [handle('max_connections: 200'), other]))).toBe(true);
  });

  it('reads config lines and prose bindings as labels too', () => {
    const config = record('rec_a', [handle('max_connections: 134'), other]);
    expect(keeps(config, record('rec_b', [handle('max_connections: 216'), other]))).toBe(false);
    const prose = record('rec_a', [handle('deploy bucket is s3://acme-us'), other]);
    expect(keeps(prose, record('rec_b', [handle('deploy bucket is s3://acme-eu'), other]))).toBe(false);
  });

  it('starts a new base when a "from X to Y" binding replaced a frozen value, bare or bound', () => {
    const moved = handle('API key from key_a1 to key_b2');
    expect(keeps(record('rec_a', [handle('key_a1', 'identifier'), other]), record('rec_b', [moved, other]))).toBe(
      false,
    );
    expect(keeps(record('rec_a', [handle('API key key_a1'), other]), record('rec_b', [moved, other]))).toBe(false);
  });

  it('keeps the base for code, which binds nothing, and for a dropped entry nothing replaced', () => {
    const base = record('rec_a', [handle('timeout=3'), handle('LOG_FORMAT=json'), other]);
    expect(keeps(base, record('rec_b', [handle('timeout=30'), other]))).toBe(true);
    expect(keeps(base, record('rec_b', [handle('DB_HOST=db-ro-17'), other]))).toBe(true);
  });
});
