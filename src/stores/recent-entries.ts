/**
 * What a store wrote or read lately, kept so that reading it back soon after (a compaction reads the spans and
 * handles of the turns it absorbs, written a few turns before) does not read and unpack it from the database again.
 * Memory stays bounded: two generations of at most `capacity` weight each (the weight of an entry is the length of
 * the text it holds); a full generation becomes the old one, and reading an old entry moves it to the current one.
 * Only what a store has committed, and what cannot change once committed (spans, occurrences), is held.
 */

/** Characters of text one generation holds at most by default (about 8 MB in all, as UTF-16). */
export const RECENT_TEXT_CHARS = 2_000_000;

/** A bounded map of what was written or read lately (see the module comment). */
export class RecentEntries<K, V> {
  private current = new Map<K, V>();
  private old = new Map<K, V>();
  private weight = 0;

  constructor(
    private readonly weightOf: (value: V) => number,
    private readonly capacity = RECENT_TEXT_CHARS,
  ) {}

  /** The value held under `key`, if any. */
  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.old.get(key);
    if (old !== undefined) this.hold(key, old);
    return old;
  }

  /** Hold `value` under `key` (unless the current generation holds it already). */
  set(key: K, value: V): void {
    if (!this.current.has(key)) this.hold(key, value);
  }

  /** Forget everything. */
  clear(): void {
    this.current = new Map();
    this.old = new Map();
    this.weight = 0;
  }

  private hold(key: K, value: V): void {
    const weight = this.weightOf(value);
    if (this.weight + weight > this.capacity && this.current.size > 0) {
      this.old = this.current;
      this.current = new Map();
      this.weight = 0;
    }
    this.current.set(key, value);
    this.weight += weight;
  }
}
