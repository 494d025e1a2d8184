/** Entries a {@link RecentObjects} generation holds before it becomes the old one: a few records' handles. */
export const RECENT_OBJECT_ENTRIES = 4_096;

/**
 * A map keyed by objects that holds what was set or read in its last two generations of
 * {@link RECENT_OBJECT_ENTRIES} entries each, so memory stays bounded by a few records' handles (not by every
 * handle a session keeps alive). Reading an old entry moves it to the current generation.
 */
export class RecentObjects<V> {
  private current = new Map<object, V>();
  private old = new Map<object, V>();

  /** The value of `key`, if it is still held. */
  get(key: object): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  /** Whether `key` is still held. */
  has(key: object): boolean {
    return this.get(key) !== undefined;
  }

  /** Hold `value` under `key`. */
  set(key: object, value: V): void {
    if (this.current.size >= RECENT_OBJECT_ENTRIES) {
      this.old = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }
}
