/**
 * A multimap from `gramKey` keys to small integers (text or handle indexes), in typed arrays: what the
 * 4-character piece indexes of a compaction hold (thousands of pieces per placement), without a Map entry and
 * an array per piece. Values of one key are read most recent first.
 */
export class GramTable {
  /** Per slot (`key & mask`): 1 + the most recent entry in the slot, 0 when empty. */
  private slots: Int32Array;
  private mask: number;
  private keys: Int32Array;
  private values: Int32Array;
  /** Per entry: 1 + the previous entry of its slot, 0 at the end. */
  private next: Int32Array;
  private size = 0;

  /** A table sized for about `entries` entries (it grows past them as needed). */
  constructor(entries = 128) {
    let length = 256;
    while (length < 2 * entries) length *= 2;
    this.slots = new Int32Array(length);
    this.mask = length - 1;
    this.keys = new Int32Array(length);
    this.values = new Int32Array(length);
    this.next = new Int32Array(length);
  }

  /** Add `value` under `key`, unless the most recent value under `key` is `value` already. */
  add(key: number, value: number): void {
    const last = this.first(key);
    if (last >= 0 && this.values[last] === value) return;
    if (this.size === this.keys.length) this.growEntries();
    if (this.size * 2 >= this.slots.length) this.growSlots();
    const entry = this.size++;
    const slot = key & this.mask;
    this.keys[entry] = key;
    this.values[entry] = value;
    this.next[entry] = this.slots[slot] as number;
    this.slots[slot] = entry + 1;
  }

  /** How many values `key` has. */
  count(key: number): number {
    let count = 0;
    for (let entry = this.first(key); entry >= 0; entry = this.following(entry, key)) count++;
    return count;
  }

  /** The value of an entry (from `first` or `following`). */
  value(entry: number): number {
    return this.values[entry] as number;
  }

  /** The most recent entry of `key`, or -1 (walk on with `following`). */
  first(key: number): number {
    let entry = (this.slots[key & this.mask] as number) - 1;
    while (entry >= 0 && this.keys[entry] !== key) entry = (this.next[entry] as number) - 1;
    return entry;
  }

  /** The entry of `key` before `entry`, or -1. */
  following(entry: number, key: number): number {
    let at = (this.next[entry] as number) - 1;
    while (at >= 0 && this.keys[at] !== key) at = (this.next[at] as number) - 1;
    return at;
  }

  private growEntries(): void {
    const length = this.keys.length * 2;
    for (const name of ['keys', 'values', 'next'] as const) {
      const grown = new Int32Array(length);
      grown.set(this[name]);
      this[name] = grown;
    }
  }

  /** Double the slots and chain every entry again, oldest first, so each slot stays most recent first. */
  private growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.mask = this.slots.length - 1;
    for (let entry = 0; entry < this.size; entry++) {
      const slot = (this.keys[entry] as number) & this.mask;
      this.next[entry] = this.slots[slot] as number;
      this.slots[slot] = entry + 1;
    }
  }
}
