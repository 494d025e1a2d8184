/**
 * Appending one array to another without spreading it into arguments: `target.push(...items)` passes every item as an
 * argument, and past about 100,000 items (the engine's argument limit) it throws `RangeError: Maximum call stack size
 * exceeded`. A store read, a transcript's entries or a handle list can be that long.
 */

/** Append every item of `items` to `target`, in order, whatever their number; returns `target`. */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
