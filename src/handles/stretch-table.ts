/**
 * A bounded hash table keyed by a stretch of a string (`text[from, to)`), read and written without slicing the
 * stretch out: the key's char codes are hashed and compared in place, and a stored key is copied into one char pool.
 * A lookup then allocates nothing, and the stored keys are no strings for the garbage collector to trace (nor
 * slices that keep a whole text alive). The table holds at most `limit` entries and a pool of `limit * 32` code
 * units; it starts over when either is full, like `BoundedMemo`.
 */

/** Fields of a slot in {@link StretchTable}'s `slots`. */
const SLOT_FIELDS = 4;
const STAMP = 0;
const HASH = 1;
const LENGTH = 2;
const OFFSET = 3;

/** Open addressing with linear probing over a power-of-two number of slots, at most half of them filled. */
export class StretchTable<V> {
  private readonly mask: number;
  /**
   * Per slot, side by side so that one probe reads one cache line: the generation the slot was filled in (a slot of
   * an older generation is empty), the key's hash, its length and its offset in the pool.
   */
  private readonly slots: Int32Array;
  private readonly values: (V | undefined)[];
  private readonly pool: Uint16Array;
  private generation = 1;
  private used = 0;
  private pooled = 0;
  /** The slot the last {@link find} stopped at: the key's, or the empty slot it would go in. */
  private slot = 0;

  constructor(private readonly limit: number) {
    let slots = 2;
    while (slots < limit * 2) slots *= 2;
    this.mask = slots - 1;
    this.slots = new Int32Array(slots * SLOT_FIELDS);
    this.values = new Array<V | undefined>(slots).fill(undefined);
    this.pool = new Uint16Array(limit * 32);
  }

  /** How many entries are held now (at most the limit). */
  get size(): number {
    return this.used;
  }

  /** The value stored under `text[from, to)`, if any. */
  get(text: string, from: number, to: number): V | undefined {
    return this.find(text, from, to, hashOf(text, from, to)) ? this.values[this.slot] : undefined;
  }

  /** Stores `value` under `text[from, to)`, starting over first when the table or its pool is full. */
  set(text: string, from: number, to: number, value: V): void {
    const length = to - from;
    if (length > this.pool.length) return;
    const hash = hashOf(text, from, to);
    if (this.find(text, from, to, hash)) {
      this.values[this.slot] = value;
      return;
    }
    if (this.used >= this.limit || this.pooled + length > this.pool.length) {
      this.clear();
      this.find(text, from, to, hash);
    }
    const slot = this.slot;
    const at = slot * SLOT_FIELDS;
    this.slots[at + STAMP] = this.generation;
    this.slots[at + HASH] = hash;
    this.slots[at + LENGTH] = length;
    this.slots[at + OFFSET] = this.pooled;
    this.values[slot] = value;
    for (let index = from; index < to; index++) this.pool[this.pooled++] = text.charCodeAt(index);
    this.used++;
  }

  /** Forgets every entry. */
  clear(): void {
    // A stamp is an int32, and 0 is the stamp of a never-filled slot.
    this.generation = (this.generation % 0x7fffffff) + 1;
    this.values.fill(undefined);
    this.used = 0;
    this.pooled = 0;
  }

  /** Whether `text[from, to)` (hashing to `hash`) is stored; {@link slot} is then its slot, else the free one. */
  private find(text: string, from: number, to: number, hash: number): boolean {
    const length = to - from;
    const slots = this.slots;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      this.slot = slot;
      const at = slot * SLOT_FIELDS;
      if (slots[at + STAMP] !== this.generation) return false;
      if (slots[at + HASH] !== hash || slots[at + LENGTH] !== length) continue;
      if (this.holds(slots[at + OFFSET] ?? 0, text, from, to)) return true;
    }
  }

  private holds(offset: number, text: string, from: number, to: number): boolean {
    for (let index = from; index < to; index++) if (this.pool[offset++] !== text.charCodeAt(index)) return false;
    return true;
  }
}

/**
 * FNV-1a over the char codes of `text[from, to)` taken two at a time (half the chain of multiplications), then
 * murmur3's finaliser, since the slot is taken from the low bits and a product's low bits see no high ones.
 */
function hashOf(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5 | 0;
  let index = from;
  for (; index + 1 < to; index += 2)
    hash = Math.imul(hash ^ (text.charCodeAt(index) | (text.charCodeAt(index + 1) << 16)), 0x01000193);
  if (index < to) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}
