/**
 * The compact form of a handle row in SQLite (schema version 6): a handle row holds what its occurrence does not.
 * `text` is the span text at `[start, end)` (the append checks it), `spanId` the occurrence's span, `role` most often
 * the occurrence's role and `key` most often the text: each of these columns is NULL when it equals what the
 * occurrence gives, and the read rebuilds the same `Handle`. The kind is a small integer (`KIND_CODES`; a kind not in
 * that list is stored as its name), the session a number (`session_keys`), and the index on keys holds a 32-bit digest
 * of the key (`keyHash`), so lookups compare the rebuilt key after the index narrowed the rows.
 */
import { StoreOperationError } from '../../errors.js';
import type { Handle, HandleKind, Role } from '../../types.js';
import { buildHandle } from '../store-input.js';
import { spanIdOfStoredKey } from './span-keys.js';
import type { StoredSpanKey } from './span-keys.js';

/**
 * Kind ↔ code of stored handle rows. Fixed once written: append new kinds at the end, never reorder or remove (a
 * stored code must keep naming the same kind).
 */
const KIND_CODES: readonly string[] = [
  'constraint',
  'path',
  'url',
  'endpoint',
  'identifier',
  'version',
  'assignment',
  'number',
  'email',
  'date',
  'error',
];

/**
 * Codes as bigints: the kind column is `ANY`, where SQLite keeps a value's own type, and the driver binds a JS number
 * as an 8-byte REAL (rows written before hold that, and read back the same number); a bigint is an INTEGER of 1 byte.
 */
const CODE_OF_KIND = new Map(KIND_CODES.map((kind, code) => [kind, BigInt(code)]));

/** A stored handle row (schema version 6) as read. */
export interface CompactHandleRow {
  seq: number;
  position: number;
  kind: number | string;
  start: number;
  end: number;
  tokens: number;
  key: string | null;
  role: Role | null;
  span_id: string | null;
  text: string | null;
}

/** What a handle row is rebuilt from: its occurrence's span row key, role and span text. */
export interface HandleSource {
  span_id: StoredSpanKey;
  role: Role;
  text: string;
}

/** The handle fields a row is written from. */
type HandleInput = Pick<Handle, 'kind' | 'text' | 'key' | 'start' | 'end' | 'spanId' | 'role' | 'tokens'>;

/** Columns of a handle row in insert order after (session, seq, position). */
export type CompactHandleValues = [
  bigint | string,
  number,
  number,
  number,
  number,
  string | null,
  string | null,
  string | null,
  string | null,
];

/** A 32-bit FNV-1a digest of the key's UTF-16 code units: what the key index holds. */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** The stored form of a handle of an occurrence with span id `spanId`, role `role` and span text `spanText`. */
export function compactHandleValues(
  handle: HandleInput,
  spanId: string,
  role: string,
  spanText: string,
): CompactHandleValues {
  const text = spanText.slice(handle.start, handle.end) === handle.text ? null : handle.text;
  return [
    CODE_OF_KIND.get(handle.kind) ?? handle.kind,
    handle.start,
    handle.end,
    handle.tokens,
    keyHash(handle.key),
    handle.key === handle.text ? null : handle.key,
    handle.role === role ? null : handle.role,
    handle.spanId === spanId ? null : handle.spanId,
    text,
  ];
}

/** The kind a stored row's kind column names (a code of `KIND_CODES`, or the kind's own name). */
export function kindOfRow(kind: number | string): HandleKind {
  return (typeof kind === 'number' ? KIND_CODES[kind] : kind) as HandleKind;
}

/** The handle a stored row stands for, its NULL columns taken from its occurrence (`source`). */
export function handleOfRow(
  location: string,
  sessionId: string,
  row: CompactHandleRow,
  source: HandleSource | undefined,
): Handle {
  if (source === undefined && (row.text === null || row.span_id === null || row.role === null)) {
    throw new StoreOperationError(
      `${location}: handle ${row.position} of seq ${row.seq} in session ${sessionId} has no occurrence to be read from; ` +
        'the ledger file was changed below the store. Restore it from a backup.',
      { location, operation: `read handles of session ${sessionId}`, sessionId, seq: row.seq },
    );
  }
  const text = row.text ?? (source as HandleSource).text.slice(row.start, row.end);
  return buildHandle(
    {
      kind: kindOfRow(row.kind),
      text,
      key: row.key ?? text,
      start: row.start,
      end: row.end,
      spanId: row.span_id ?? spanIdOfStoredKey((source as HandleSource).span_id),
      role: row.role ?? (source as HandleSource).role,
      tokens: row.tokens,
    },
    row.seq,
  );
}
