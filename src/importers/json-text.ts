/**
 * `JSON.stringify` for values of any depth. A transcript line may hold a tool input nested thousands of levels deep;
 * `JSON.parse` reads it, but V8's `JSON.stringify` recurses and overflows the stack near 5,000 levels. The importers
 * serialize tool inputs and outputs through {@link jsonText}, which gives `JSON.stringify`'s text and falls back to a
 * loop with its own stack when the native one runs out.
 */

/** A JSON value once `toJSON` and boxed primitives are resolved, as `JSON.stringify` sees it. */
function resolved(key: string, value: unknown): unknown {
  let next = value;
  if (typeof next === 'object' && next !== null && typeof (next as { toJSON?: unknown }).toJSON === 'function')
    next = (next as { toJSON: (key: string) => unknown }).toJSON(key);
  if (next instanceof Number || next instanceof String || next instanceof Boolean) next = next.valueOf();
  return next;
}

/** The text of a value that holds nothing nested (`undefined` for what JSON leaves out: undefined, functions, symbols). */
function leafText(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

/** One open array or object: the entries still to write. */
interface Frame {
  readonly value: object;
  readonly array: boolean;
  readonly keys: readonly string[];
  index: number;
  wrote: boolean;
}

/** The loop behind {@link jsonText}: the same text as `JSON.stringify(value)`, with an explicit stack. */
export function jsonTextIterative(value: unknown): string | undefined {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();
  /** Write `item` (already resolved); returns false when it is left out (an object member that JSON omits). */
  const write = (item: unknown, inArray: boolean, prefix: string): boolean => {
    if (typeof item === 'object' && item !== null) {
      if (open.has(item)) throw new TypeError('Converting circular structure to JSON');
      open.add(item);
      const array = Array.isArray(item);
      parts.push(prefix, array ? '[' : '{');
      stack.push({ value: item, array, keys: array ? [] : Object.keys(item), index: 0, wrote: false });
      return true;
    }
    const text = leafText(item);
    if (text === undefined) {
      if (!inArray) return false;
      parts.push(prefix, 'null');
      return true;
    }
    parts.push(prefix, text);
    return true;
  };
  const root = resolved('', value);
  if (!write(root, false, '')) return undefined;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.array ? (frame.value as unknown[]).length : frame.keys.length;
    if (frame.index >= length) {
      parts.push(frame.array ? ']' : '}');
      open.delete(frame.value);
      stack.pop();
      continue;
    }
    const index = frame.index++;
    const key = frame.array ? String(index) : (frame.keys[index] as string);
    const item = resolved(key, (frame.value as Record<string, unknown>)[key]);
    const comma = frame.wrote ? ',' : '';
    const prefix = frame.array ? comma : `${comma}${JSON.stringify(key)}:`;
    if (write(item, frame.array, prefix)) frame.wrote = true;
  }
  return parts.join('');
}

/**
 * `JSON.stringify(value)` at any depth: the native call, and {@link jsonTextIterative} when the native call overflows
 * the stack (a deeply nested tool input). Same text either way; `undefined` where `JSON.stringify` gives undefined.
 */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return jsonTextIterative(value);
  }
}

/** The JSON text of a tool input or output: a string as it is, anything else as {@link jsonText} (missing as `null`). */
export function jsonOrText(value: unknown): string {
  return typeof value === 'string' ? value : (jsonText(value ?? null) as string);
}
