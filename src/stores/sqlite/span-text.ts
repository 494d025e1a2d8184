/**
 * How SQLite stores a span's text (schema version 10): `spans.text` (type ANY) holds the text itself (TEXT) when packing
 * would not make it smaller, else its UTF-8 bytes deflated (raw deflate, no header: a BLOB). SQL reads it through
 * `span_text(spans.id, spans.text)`, registered on every connection the store opens, which gives the text back in
 * either form. The span id stays the digest of the text itself; reads above the store re-hash the text as before.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { ImmutableSpanError } from '../../errors.js';
import { spanIdOfStoredKey, type StoredSpanKey } from './span-keys.js';

/** The text of the span row aliased `s`, in SQL (packed or not). */
export const SPAN_TEXT = 'span_text(s.id, s.text)';

/** A stored span text: the text, or its deflated UTF-8 bytes. */
export type StoredSpanText = string | Buffer;

/**
 * Texts shorter than this many UTF-8 bytes are stored as they are without trying: on the real-data replay (10,099
 * spans) packing the shorter ones saved 19 bytes in all.
 */
const MIN_PACKED_BYTES = 32;

/**
 * The zlib level: on that replay's span texts (5.37 MB) level 1 kept 44.8 %, 6 kept 43.4 % and 9 no less (43.4 %),
 * at about the same time (27 µs a span at 6); 6 is zlib's default.
 */
const PACK_LEVEL = 6;

/** The stored form of a span text: deflated when that is smaller, else the text. */
export function packSpanText(text: string): StoredSpanText {
  if (text.length < MIN_PACKED_BYTES && Buffer.byteLength(text) < MIN_PACKED_BYTES) return text;
  const bytes = Buffer.from(text, 'utf8');
  const packed = deflateRawSync(bytes, { level: PACK_LEVEL });
  return packed.length < bytes.length ? packed : text;
}

/**
 * The text of a stored span text. Throws `ImmutableSpanError` naming the span and the ledger when a packed text does
 * not inflate (a row changed below the API).
 */
export function unpackSpanText(location: string, key: StoredSpanKey, stored: StoredSpanText): string {
  if (typeof stored === 'string') return stored;
  let bytes: Buffer;
  try {
    bytes = inflateRawSync(stored);
  } catch (error) {
    const spanId = spanIdOfStoredKey(key);
    throw new ImmutableSpanError(
      `${location}: span ${spanId} was changed after it was written (its packed text does not inflate: ` +
        `${(error as Error).message}); spans are immutable, so this ledger was tampered with below the API. ` +
        'Restore the ledger from a backup or replay the transcript into a new ledger; do not trust this span.',
      { location, spanId },
    );
  }
  return bytes.toString('utf8');
}

/** Registers `span_text(id, text)` on a store's connection (reads name `location` in their errors). */
export function registerSpanTextFunction(db: Database.Database, location: string): void {
  db.function('span_text', { deterministic: true }, (key: unknown, stored: unknown) =>
    unpackSpanText(location, key as StoredSpanKey, stored as StoredSpanText),
  );
}

/** The SQL function the version 10 migration packs the stored texts with (`pack_span_text(text)`). */
export function registerPackSpanTextFunction(db: Database.Database): void {
  db.function('pack_span_text', { deterministic: true }, (text: unknown) => packSpanText(text as string));
}
