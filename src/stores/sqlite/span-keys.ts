/**
 * How SQLite stores a span's row key (schema version 9): a row key of the usual form (`sha256:` and 64 lowercase hex
 * digits, then `~` and the tenant's 32 hex digits when there is a tenant) as its 32 or 48 bytes, any other key as its
 * text. `spans.id` and `occurrences.span_id` hold this form; the span id is rebuilt from it on read.
 */
import type Database from 'better-sqlite3';
import { spanIdOfRowKey } from '../store-input.js';

/** A stored span key: the digest bytes (and the tenant's) or, for a key of another form, its text. */
export type StoredSpanKey = Buffer | string;

const DIGEST_BYTES = 32;
const ROW_KEY = /^sha256:([0-9a-f]{64})(?:~([0-9a-f]{32}))?$/;

/** The stored form of a row key (`spanRowKey`). */
export function storedSpanKey(rowKey: string): StoredSpanKey {
  const match = ROW_KEY.exec(rowKey);
  if (match === null) return rowKey;
  return Buffer.from(`${match[1] as string}${match[2] ?? ''}`, 'hex');
}

/** The span id of a stored key (the tenant part dropped). */
export function spanIdOfStoredKey(key: StoredSpanKey): string {
  if (typeof key === 'string') return spanIdOfRowKey(key);
  return `sha256:${key.subarray(0, DIGEST_BYTES).toString('hex')}`;
}

/** The SQL function the version 9 migration stores the old text keys with (`span_key(text)`). */
export function registerSpanKeyFunction(db: Database.Database): void {
  db.function('span_key', { deterministic: true }, storedSpanKey);
}
