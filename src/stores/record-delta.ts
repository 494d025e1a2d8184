/**
 * Records stored as deltas by the SQL stores. A summary record re-carries most of its predecessor's
 * handles and much of its prose (the task lines, earlier decisions, the claims citing them), so a
 * record row holds only what changed against a stored base record of the same type: its JSON
 * (carried handles left out) deflated with the base's JSON as the preset dictionary, and its
 * carried-handle list as positions in the base's list plus the ids of handles the base does not
 * carry. Every {@link SNAPSHOT_INTERVAL}-th row of a chain, and any row whose delta would not be
 * smaller, is a full snapshot (the JSON and id list as text), so a read walks back at most that
 * many rows. The record is rebuilt in full before it is verified against its content-derived id:
 * the id and its check mean what they meant for a record stored whole.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  brokenRow,
  decodeHandleIds,
  encodeHandleIds,
  type RecordBody,
  type RecordRowContext,
  type StoredRecordRow,
} from './record-handles.js';

export type { RecordBody, StoredRecordRow };

/** A stored record a new one may be written as a delta against. */
export interface DeltaBase {
  /** The base record's id. */
  readonly id: string;
  /** Its ordinal (a base always precedes the record written against it). */
  readonly ordinal: number;
  /** Deltas between it and the nearest full snapshot (0: it is one). */
  readonly chain: number;
  /** Its content. */
  readonly body: RecordBody;
}

/**
 * A full snapshot is written at least every this many rows of a chain (a snapshot, then at most 31 deltas), so
 * rebuilding a record reads at most 32 rows. At 8,000 tokens on SWE-agent trajectories a delta is ~0.8 KB and a
 * snapshot ~17 KB: 32 keeps snapshots near half of what records take, and a lone read fast (one query, 32 inflates).
 */
export const SNAPSHOT_INTERVAL = 32;

/**
 * Longest chain a read follows before it calls the ledger broken. Larger than {@link SNAPSHOT_INTERVAL} on purpose,
 * so ledgers written with a larger interval by a later version still read; only a loop (tampering) reaches it.
 */
export const MAX_DELTA_CHAIN = 1_024;

/** Largest rebuilt row a delta may inflate to (a corrupted delta must not exhaust memory). */
const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

/** The columns a store writes for one record. */
export interface RecordRowForm {
  /** Full snapshot: the JSON; delta: empty. */
  readonly json: string;
  /** Full snapshot: the carried-handle ids as text (`encodeHandleIds`); delta: null. */
  readonly handleIds: string | null;
  /** Delta: the base record's id; full snapshot: null. */
  readonly baseId: string | null;
  /** Delta: the deflated change (see `encodeDelta`); full snapshot: null. */
  readonly delta: Buffer | null;
  /** Deltas between this row and the nearest full snapshot (0: this row is one). */
  readonly chain: number;
}

/**
 * The carried-handle list as a change against the base's list: one item per handle, `#id` for a handle the base does
 * not carry (added), else the base position as a step from the previous one taken (`0`: the next one in the base's
 * order). Base positions not taken are the handles dropped or spilled since.
 */
function encodeIdList(ids: readonly number[], base: readonly number[]): string {
  const positions = new Map<number, number>();
  base.forEach((id, position) => {
    if (!positions.has(id)) positions.set(id, position);
  });
  let last = -1;
  return ids
    .map((id) => {
      const position = positions.get(id);
      if (position === undefined) return `#${id}`;
      const step = position - last - 1;
      last = position;
      return String(step);
    })
    .join(',');
}

const ITEM = /^(#?)(-?\d+)$/;

function decodeIdList(text: string, base: readonly number[], context: RecordRowContext, baseId: string): number[] {
  if (text === '') return [];
  let last = -1;
  return text.split(',').map((item) => {
    const match = ITEM.exec(item);
    const value = Number(match?.[2]);
    if (match && Number.isSafeInteger(value)) {
      if (match[1] === '#' && value >= 0) return value;
      const position = last + 1 + value;
      const id = match[1] === '' ? base[position] : undefined;
      if (id !== undefined && position >= 0) {
        last = position;
        return id;
      }
    }
    throw brokenRow(context, `its carried-handle change ${JSON.stringify(item)} against record ${baseId} is malformed`);
  });
}

/** The deflated change of `body` against `base`: its JSON and id list, the base's JSON as the preset dictionary. */
export function encodeDelta(body: RecordBody, base: RecordBody): Buffer {
  return deflateRawSync(`${body.json}\n${encodeIdList(body.ids, base.ids)}`, { dictionary: Buffer.from(base.json) });
}

/**
 * The content a delta row holds, rebuilt against its base's content. Throws `ImmutableSpanError` naming the record and
 * session when the delta does not inflate or parse (a changed row); a delta that parses but rebuilds other content is
 * caught by the record's id check.
 */
export function decodeDelta(
  delta: Uint8Array,
  base: RecordBody,
  context: RecordRowContext,
  baseId: string,
): RecordBody {
  let text: string;
  try {
    text = inflateRawSync(delta, { dictionary: Buffer.from(base.json), maxOutputLength: MAX_INFLATED_BYTES }).toString(
      'utf8',
    );
  } catch (error) {
    throw brokenRow(context, `its delta against record ${baseId} does not inflate: ${(error as Error).message}`);
  }
  const cut = text.indexOf('\n');
  if (cut < 0) throw brokenRow(context, `its delta against record ${baseId} has no carried-handle list`);
  return { json: text.slice(0, cut), ids: decodeIdList(text.slice(cut + 1), base.ids, context, baseId) };
}

/**
 * A full snapshot packed on its own (schema 11 of the SQLite store): its JSON and its carried-handle ids as text
 * (`encodeHandleIds`), deflated without a dictionary. A row holding one has a delta and no base.
 */
function packSnapshot(json: string, handleIds: string): Buffer {
  return deflateRawSync(`${json}\n${handleIds}`);
}

/** The content of a packed snapshot row; throws `ImmutableSpanError` naming the record when it does not unpack. */
function unpackSnapshot(packed: Uint8Array, context: RecordRowContext): RecordBody {
  let text: string;
  try {
    text = inflateRawSync(packed, { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8');
  } catch (error) {
    throw brokenRow(context, `its packed snapshot does not inflate: ${(error as Error).message}`);
  }
  const cut = text.indexOf('\n');
  if (cut < 0) throw brokenRow(context, 'its packed snapshot has no carried-handle list');
  return { json: text.slice(0, cut), ids: decodeHandleIds(text.slice(cut + 1), context) };
}

/**
 * What to store for a record: a delta against `base` when there is one, its chain stays below
 * {@link SNAPSHOT_INTERVAL} and the delta is smaller than the full row; else a full snapshot.
 */
export function rowForm(
  body: RecordBody,
  base: DeltaBase | undefined,
  options: { readonly packSnapshots?: boolean } = {},
): RecordRowForm {
  const handleIds = encodeHandleIds(body.ids);
  const full: RecordRowForm = options.packSnapshots
    ? { json: '', handleIds: null, baseId: null, delta: packSnapshot(body.json, handleIds), chain: 0 }
    : { json: body.json, handleIds, baseId: null, delta: null, chain: 0 };
  const chain = base === undefined ? SNAPSHOT_INTERVAL : base.chain + 1;
  if (base === undefined || !Number.isSafeInteger(chain) || chain < 1 || chain >= SNAPSHOT_INTERVAL) return full;
  const delta = encodeDelta(body, base.body);
  if (delta.length >= (full.delta?.length ?? body.json.length + handleIds.length)) return full;
  return { json: '', handleIds: null, baseId: base.id, delta, chain };
}

/**
 * Bodies rebuilt before, by record id, for one session (records are immutable, so a body once rebuilt and checked
 * stays right): a read that meets one stops walking its delta chain there.
 */
export interface BodyMemo {
  get(recordId: string): RecordBody | undefined;
  set(recordId: string, body: RecordBody): void;
}

/**
 * The content of record rows, rebuilt: a full row as stored, a delta row against its base (found in `rows` or
 * `others`, rebuilt once and shared), undefined for a row of a ledger older than carried-handle ids (handles inline in
 * its JSON). A base that is missing, or a chain longer than {@link MAX_DELTA_CHAIN}, is `ImmutableSpanError` naming the
 * record and session.
 */
export function rebuildBodies(
  location: string,
  sessionId: string,
  rows: readonly StoredRecordRow[],
  others: readonly StoredRecordRow[] = [],
  known?: BodyMemo,
): (RecordBody | undefined)[] {
  const byId = new Map<string, StoredRecordRow>();
  for (const row of [...others, ...rows]) byId.set(row.id, row);
  const built = new Map<string, RecordBody | undefined>();
  const isBuilt = (id: string): boolean => {
    if (built.has(id)) return true;
    const body = known?.get(id);
    if (body !== undefined) built.set(id, body);
    return body !== undefined;
  };
  const build = (id: string, body: RecordBody | undefined): void => {
    built.set(id, body);
    if (body !== undefined) known?.set(id, body);
  };
  const bodyOf = (start: StoredRecordRow): RecordBody | undefined => {
    const chain: StoredRecordRow[] = [];
    // The row the chain starts from, or the id of a body built already (here or before) that it starts from.
    let row: StoredRecordRow | string = start;
    while (typeof row !== 'string' && row.delta != null && row.base_id != null) {
      if (isBuilt(row.id)) {
        row = row.id;
        break;
      }
      chain.push(row);
      if (chain.length > MAX_DELTA_CHAIN) {
        throw brokenRow(
          { location, sessionId, recordId: start.id },
          `its delta chain is longer than ${MAX_DELTA_CHAIN} rows`,
        );
      }
      const baseId: string = row.base_id;
      const base = isBuilt(baseId) ? baseId : byId.get(baseId);
      if (base === undefined) {
        throw brokenRow(
          { location, sessionId, recordId: row.id },
          `the record ${baseId} its delta is against is missing`,
        );
      }
      row = base;
    }
    let body: RecordBody | undefined;
    if (typeof row === 'string') body = built.get(row);
    else if (isBuilt(row.id)) body = built.get(row.id);
    else {
      const context = { location, sessionId, recordId: row.id };
      if (row.delta != null) body = unpackSnapshot(row.delta, context);
      else
        body = row.handle_ids === null ? undefined : { json: row.json, ids: decodeHandleIds(row.handle_ids, context) };
      build(row.id, body);
    }
    for (let index = chain.length - 1; index >= 0; index -= 1) {
      const delta = chain[index] as StoredRecordRow;
      const context = { location, sessionId, recordId: delta.id };
      const baseId = delta.base_id ?? '';
      if (body === undefined) throw brokenRow(context, `the record ${baseId} its delta is against has no handle list`);
      body = decodeDelta(delta.delta as Uint8Array, body, context, baseId);
      build(delta.id, body);
    }
    return body;
  };
  return rows.map(bodyOf);
}

/** How a delta row was rebuilt, for the error of a record whose rebuilt content does not match its id. */
export function storedAs(row: StoredRecordRow): string | undefined {
  if (row.delta == null) return undefined;
  return row.base_id == null ? 'its packed snapshot' : `its delta against record ${String(row.base_id)}`;
}
