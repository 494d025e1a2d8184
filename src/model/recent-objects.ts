/** Entries a {@link RecentObjects} generation holds at least before it becomes the old one: a few records' handles. */
export const RECENT_OBJECT_ENTRIES = 4_096;

/**
 * A map keyed by objects that holds what was set or read in its last two generations of at least
 * {@link RECENT_OBJECT_ENTRIES} entries each, so memory stays bounded by a few records' handles (not by every
 * handle a session keeps alive). Reading an old entry moves it to the current generation. A caller about to read a
 * larger working set again and again (the handles of a large record) makes the generations hold it
 * ({@link RecentObjects.reserve}): otherwise each pass over it would push its own first entries out.
 */
export class RecentObjects<V> {
  private current = new Map<object, V>();
  private old = new Map<object, V>();
  private capacity = RECENT_OBJECT_ENTRIES;

  /**
   * @param refreshOnRead Whether reading an old entry moves it to the current generation (the default). Without it,
   *   an entry read again and again is set again only once it has fallen out (once per two generations): a caller
   *   that reads a large working set on every pass pays a lookup per entry, not a move.
   */
  constructor(private readonly refreshOnRead = true) {}

  /** Make each generation hold at least `entries` entries from now on. */
  reserve(entries: number): void {
    if (entries > this.capacity) this.capacity = entries;
  }

  /** The value of `key`, if it is still held. */
  get(key: object): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.old.get(key);
    if (old !== undefined && this.refreshOnRead) this.set(key, old);
    return old;
  }

  /** Whether `key` is still held. */
  has(key: object): boolean {
    return this.get(key) !== undefined;
  }

  /** Hold `value` under `key`. */
  set(key: object, value: V): void {
    if (this.current.size >= this.capacity) {
      this.old = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }
}
