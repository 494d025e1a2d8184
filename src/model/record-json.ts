/**
 * The JSON of records, with each carried handle's JSON text built once: a summary record re-carries
 * most of its ancestor's handles (the same frozen objects), and its id, its store check and its
 * stored form each need the record as JSON. Every function here returns exactly what
 * `JSON.stringify` returns; it only skips stringifying a handle it has stringified lately.
 */
import { RecentObjects } from './recent-objects.js';

/**
 * JSON text of the immutable handle objects stringified lately (see `isImmutableLeaf`). Safe module-level, shared by
 * every store and session: keyed by the object itself and kept only for one whose JSON can never change, so an entry is
 * what `JSON.stringify` gives again; bounded (two generations of a few records' handles: `RecentObjects`).
 */
const texts = new RecentObjects<string>();

/**
 * Entries the memos here reserve per handle of a record: the handle and its copy, twice over, so a record's handles
 * (mostly carried by the next record too) stay held from one record to the next however many there are.
 */
const WORKING_SET_PER_HANDLE = 4;

/**
 * Whether `value`'s JSON can never change: a frozen object, no `toJSON`, every own property a data property
 * holding a primitive. Only such objects have their JSON remembered.
 */
function isImmutableLeaf(value: object): boolean {
  if (!Object.isFrozen(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in descriptor)) return false;
    const item: unknown = descriptor.value;
    if ((typeof item === 'object' && item !== null) || typeof item === 'function') return false;
  }
  return true;
}

/** `JSON.stringify(handle)`, remembered for immutable handle objects. */
export function handleJson(handle: object): string {
  const known = texts.get(handle);
  if (known !== undefined) return known;
  const text = JSON.stringify(handle);
  if (isImmutableLeaf(handle)) texts.set(handle, text);
  return text;
}

const EMPTY_HANDLES = '"handles":[]';

/** A record-like object's JSON in parts: everything but its handles, and each handle's JSON. */
export interface RecordJsonParts {
  /** `JSON.stringify` of the object with `handles: []`. */
  readonly rest: string;
  /** Where the handles go in `rest`: the index just after the `[` of its `"handles":[]`. */
  readonly open: number;
  /** Each handle's JSON, in order. */
  readonly handles: readonly string[];
}

/**
 * A record-like object as the JSON of everything but its handles (`handles: []`) and each handle's JSON, or
 * undefined when that would not give `JSON.stringify(value)` back: no `handles` array, a handle that is not an
 * object or has a `toJSON`, or a nested `handles: []` that makes the place of the record's own not unique.
 * `rest` up to `open`, the handles joined by commas, then `rest` from `open` is exactly `JSON.stringify(value)`.
 */
export function recordJsonParts(value: object): RecordJsonParts | undefined {
  const own = Object.getOwnPropertyDescriptor(value, 'handles');
  const handles: unknown = own?.value;
  if (own?.enumerable !== true || !Array.isArray(handles)) return undefined;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  // A record's handles and their copies are read again for its id, its store check and its stored form.
  texts.reserve(WORKING_SET_PER_HANDLE * handles.length);
  const parts: string[] = [];
  for (const handle of handles as unknown[]) {
    if (typeof handle !== 'object' || handle === null) return undefined;
    if (typeof (handle as { toJSON?: unknown }).toJSON === 'function') return undefined;
    parts.push(handleJson(handle));
  }
  const rest = JSON.stringify({ ...value, handles: [] });
  const at = rest.indexOf(EMPTY_HANDLES);
  // Inside a JSON string every quote is escaped, so each match is an object key: exactly one must be there.
  if (at < 0 || rest.indexOf(EMPTY_HANDLES, at + 1) >= 0) return undefined;
  return { rest, open: at + EMPTY_HANDLES.length - 1, handles: parts };
}

/** `JSON.stringify(value)`, the JSON of immutable carried handles taken from what is remembered. */
export function recordJson(value: object): string {
  const split = recordJsonParts(value);
  if (split === undefined) return JSON.stringify(value);
  return split.rest.slice(0, split.open) + split.handles.join(',') + split.rest.slice(split.open);
}

/**
 * Frozen copies of the immutable handles copied lately, parsed once per handle object (a copy is its own copy). Safe
 * module-level: kept only for a handle whose JSON is remembered (immutable), and a copy is frozen, so two stores or
 * records that share one cannot change it for each other; bounded as `texts`.
 */
const copies = new RecentObjects<object>();

function handleCopy(handle: object, text: string): object {
  const known = copies.get(handle);
  if (known !== undefined) return known;
  const copy = JSON.parse(text) as object;
  if (!texts.has(handle)) return copy;
  Object.freeze(copy);
  texts.set(copy, text);
  copies.set(handle, copy);
  copies.set(copy, copy);
  return copy;
}

/**
 * `JSON.parse(JSON.stringify(value))`: a JSON-safe deep copy. Immutable carried handles copied lately are not
 * parsed again: their frozen copy is shared by the records that carry them.
 */
export function recordCopy<T extends object>(value: T): T {
  const split = recordJsonParts(value);
  if (split === undefined) return JSON.parse(JSON.stringify(value)) as T;
  const copy = JSON.parse(split.rest) as { handles: unknown[] };
  const originals = (value as unknown as { handles: object[] }).handles;
  copies.reserve(WORKING_SET_PER_HANDLE * originals.length);
  copy.handles = originals.map((handle, index) => handleCopy(handle, split.handles[index] as string));
  return copy as unknown as T;
}
