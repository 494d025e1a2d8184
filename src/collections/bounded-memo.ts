/**
 * A memo of a pure function's results that holds at most `limit` entries and is cleared when full (a cleared value
 * is just computed again), so memory stays bounded however long a session or replay runs.
 */
export class BoundedMemo<K, V> {
  private entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** How many entries are held now (at most the limit). */
  get size(): number {
    return this.entries.size;
  }

  /** The value remembered under `key`, if any. */
  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Remember `value` under `key`, clearing the memo first when it is full. */
  set(key: K, value: V): void {
    if (this.entries.size >= this.limit) this.entries = new Map();
    this.entries.set(key, value);
  }

  /** Forget every entry. */
  clear(): void {
    this.entries = new Map();
  }
}
