/**
 * How the SQL stores keep a record's carried handles: each distinct handle once per session (in
 * `record_handles`, keyed by a digest of its JSON), and the record row names them by id. A summary
 * record re-carries most of its ancestor's handles, so storing every list inline grew the file
 * with records × handles; by id it grows with the distinct handles. The record is rebuilt on
 * load and verified against its content-derived id exactly as an inline one is (`loadRecord`).
 */
import { BoundedMemo } from '../collections/bounded-memo.js';
import { createHash } from 'node:crypto';
import { ImmutableSpanError } from '../errors.js';
import { handleJson } from '../model/record-json.js';
import type { CompactionRecord } from '../types.js';

/** A record row's content: its JSON with `handles: []` and the ids of its carried handles, in order. */
export interface RecordBody {
  /** The record's JSON, carried handles left out (see `splitRecord`). */
  readonly json: string;
  /** Ids (in `record_handles`) of the carried handles, in the record's order. */
  readonly ids: readonly number[];
}

/** A record row as the SQL stores read it (the delta columns are null on rows written before them). */
export interface StoredRecordRow {
  readonly id: string;
  readonly json: string;
  readonly handle_ids: string | null;
  readonly base_id?: string | null;
  readonly delta?: Uint8Array | null;
}

/** A record split for storage: its JSON with `handles: []`, and each carried handle as JSON with its digest. */
export interface RecordParts {
  /** The record's JSON, carried handles left out (`"handles":[]` keeps the key order). */
  readonly json: string;
  /** The carried handles in order, each as its own JSON. */
  readonly handles: readonly string[];
  /** SHA-256 (first 16 bytes) of each handle's JSON: the per-session deduplication key. */
  readonly digests: readonly Buffer[];
}

/**
 * Splits a (checked, JSON-safe) record into the parts the SQL stores write. `digests` is the calling store's memo of
 * handle digests (`handleDigestMemo`: the handles of its last records); without it every digest is computed.
 */
export function splitRecord(record: CompactionRecord, digests?: HandleDigestMemo): RecordParts {
  const handles = record.handles.map(handleJson);
  return {
    json: JSON.stringify({ ...record, handles: [] }),
    handles,
    digests: handles.map((json) => rememberedDigest(json, digests)),
  };
}

/**
 * A record split for storage as its parts are needed: the record's JSON with `handles: []` at once, each carried
 * handle's JSON and digest when first asked for (a store that finds a handle's id by the handle object needs neither).
 */
export interface LazyRecordParts {
  /** The record's JSON, carried handles left out (as `RecordParts.json`). */
  readonly json: string;
  /** The JSON of carried handle `index` (as `RecordParts.handles[index]`). */
  handle(index: number): string;
  /** The digest of carried handle `index` (as `RecordParts.digests[index]`), through the store's memo. */
  digest(index: number, digests?: HandleDigestMemo): Buffer;
}

/** `splitRecord` done lazily (see {@link LazyRecordParts}). */
export function lazyRecordParts(record: CompactionRecord): LazyRecordParts {
  const handles: (string | undefined)[] = [];
  const handle = (index: number) => (handles[index] ??= handleJson(record.handles[index] as object));
  return {
    json: JSON.stringify({ ...record, handles: [] }),
    handle,
    digest: (index, digests) => rememberedDigest(handle(index), digests),
  };
}

/** Deduplication key of one handle's JSON. */
export function handleDigest(json: string): Buffer {
  return createHash('sha256').update(json, 'utf8').digest().subarray(0, 16);
}

/** Most handle JSON texts a record-handle memo holds: it is cleared when full (its values are just computed again). */
export const MEMO_ENTRIES = 4_096;

/** Digests by handle JSON, held by one store for the handles of the last records it split. */
export type HandleDigestMemo = BoundedMemo<string, Buffer>;

/** A new, empty memo of handle digests for one store. */
export function handleDigestMemo(): HandleDigestMemo {
  return new BoundedMemo(MEMO_ENTRIES);
}

/** `handleDigest(json)`, looked up in and added to `digests` when given. */
function rememberedDigest(json: string, digests: HandleDigestMemo | undefined): Buffer {
  let digest = digests?.get(json);
  if (digest === undefined) {
    digest = handleDigest(json);
    digests?.set(json, digest);
  }
  return digest;
}

/** Ids as text, runs of consecutive ids collapsed: `[0, 1, 2, 5, 7, 8]` → `0-2,5,7-8`. */
export function encodeHandleIds(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let index = 0; index < ids.length;) {
    const first = ids[index] as number;
    let last = first;
    while (index + 1 < ids.length && ids[index + 1] === last + 1) {
      index += 1;
      last += 1;
    }
    parts.push(first === last ? String(first) : `${first}-${last}`);
    index += 1;
  }
  return parts.join(',');
}

/** What `decodeHandleIds` needs to name a broken row. */
export interface RecordRowContext {
  readonly location: string;
  readonly sessionId: string;
  readonly recordId: string;
}

/** The error for a record row changed below the API, naming the record, its session and what is wrong. */
export function brokenRow(context: RecordRowContext, problem: string): ImmutableSpanError {
  return new ImmutableSpanError(
    `${context.location}: record ${context.recordId} of session ${context.sessionId} was changed after it was written (${problem}); ` +
      'records are immutable, so this ledger was tampered with below the API. ' +
      'Restore the ledger from a backup or replay the transcript into a new ledger; do not trust this record.',
    { location: context.location, sessionId: context.sessionId, recordId: context.recordId },
  );
}

const ID_RUN = /^(\d+)(?:-(\d+))?$/;

/** The ids `encodeHandleIds` wrote; throws `ImmutableSpanError` naming the record when the text is malformed. */
export function decodeHandleIds(text: string, context: RecordRowContext): number[] {
  if (text === '') return [];
  const ids: number[] = [];
  for (const part of text.split(',')) {
    const match = ID_RUN.exec(part);
    const first = Number(match?.[1]);
    const last = match?.[2] === undefined ? first : Number(match[2]);
    if (!match || !Number.isSafeInteger(last) || last < first || last - first > 1e6) {
      throw brokenRow(context, `its carried-handle list ${JSON.stringify(part)} is malformed`);
    }
    for (let id = first; id <= last; id += 1) ids.push(id);
  }
  return ids;
}

/** Lowest and highest id of the lists (undefined: a record with inline handles); low > high when there is none. */
export function idBounds(lists: readonly (readonly number[] | undefined)[]): [number, number] {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const list of lists)
    for (const id of list ?? []) {
      if (id < low) low = id;
      if (id > high) high = id;
    }
  return [low, high];
}

/**
 * The carried handles of a record, in order, from the ids its row names; `lookup` returns the
 * stored JSON of one id (undefined when missing). Parsed handles are shared through `cache`
 * (one per read) so a list of records parses each distinct handle once.
 */
export function resolveHandles(
  ids: readonly number[],
  lookup: (id: number) => string | undefined,
  cache: Map<number, unknown>,
  context: RecordRowContext,
): unknown[] {
  return ids.map((id) => {
    if (cache.has(id)) return cache.get(id);
    const json = lookup(id);
    if (json === undefined) throw brokenRow(context, `carried handle ${id} it names is missing`);
    const handle: unknown = JSON.parse(json);
    cache.set(id, handle);
    return handle;
  });
}

/** The id lists of rebuilt record rows (undefined: handles inline, written before they were stored apart) and their id range. */
export function recordRowIds(bodies: readonly (RecordBody | undefined)[]): {
  ids: (readonly number[] | undefined)[];
  low: number;
  high: number;
  sparse: number[] | undefined;
} {
  const ids = bodies.map((body) => body?.ids);
  const [low, high] = idBounds(ids);
  return { ids, low, high, sparse: sparseIds(ids, low, high) };
}

/** A range read of record handles is replaced by reads of the ids themselves past this many rows per id named. */
export const SPARSE_RANGE_FACTOR = 4;

/**
 * The distinct ids of `lists`, ascending, when reading their whole id range `[low, high]` would read more than
 * {@link SPARSE_RANGE_FACTOR} rows per distinct id (a late record of a long session: its handles were first stored
 * over thousands of other records' rows); undefined when the range read is the cheaper one.
 */
export function sparseIds(
  lists: readonly (readonly number[] | undefined)[],
  low: number,
  high: number,
): number[] | undefined {
  if (!(low <= high)) return undefined;
  const distinct = new Set<number>();
  for (const list of lists) for (const id of list ?? []) distinct.add(id);
  if (high - low + 1 <= SPARSE_RANGE_FACTOR * distinct.size + 64) return undefined;
  return [...distinct].sort((a, b) => a - b);
}

/**
 * Record rows rebuilt the way every store does it, from their contents (`rebuildBodies`), `recordRowIds` and the stored
 * handles of that id range (read once by the store): each distinct handle parsed once, each record rebuilt and verified
 * by `load` (the store input's record check) from its JSON and carried handles (undefined: inline in the JSON).
 */
export function rebuildRecordRows(
  location: string,
  sessionId: string,
  rows: readonly StoredRecordRow[],
  bodies: readonly (RecordBody | undefined)[],
  ids: readonly (readonly number[] | undefined)[],
  stored: ReadonlyMap<number, string>,
  load: (row: StoredRecordRow, json: string, handles: unknown[] | undefined) => CompactionRecord,
): CompactionRecord[] {
  const cache = new Map<number, unknown>();
  return rows.map((row, index) => {
    const list = ids[index];
    const json = bodies[index]?.json ?? row.json;
    const context = { location, sessionId, recordId: row.id };
    const handles = list === undefined ? undefined : resolveHandles(list, (id) => stored.get(id), cache, context);
    try {
      return load(row, json, handles);
    } catch (error) {
      // Rows changed below the API (or a delta rebuilt against a changed base) need not even be JSON.
      if (!(error instanceof SyntaxError)) throw error;
      const rebuilt = row.delta == null ? '' : `, rebuilt from its delta against record ${String(row.base_id)},`;
      throw brokenRow(context, `its JSON${rebuilt} does not parse: ${error.message}`);
    }
  });
}
