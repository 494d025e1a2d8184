/** Freezing a value whole: records and spans the stores hand out cannot be changed by their readers. */

/** Freezes a value and everything reachable from it (an object already frozen is taken as frozen through); returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
