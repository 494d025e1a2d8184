import { containsAtBoundary } from './near-duplicates.js';

/** A text at least this long keeps its 4-character pieces in a set of its own, remembered across lists. */
const LONG_TEXT = 256;

/** The remembered sets of the last few long texts (a compaction's summary is searched by several lists in a row). */
const longTextGrams = new Map<string, ReadonlySet<string>>();

function gramsOf(text: string): ReadonlySet<string> {
  let grams = longTextGrams.get(text);
  if (grams === undefined) {
    const built = new Set<string>();
    for (let at = 0; at + 4 <= text.length; at++) built.add(text.slice(at, at + 4));
    if (longTextGrams.size >= 8) longTextGrams.clear();
    longTextGrams.set(text, built);
    grams = built;
  }
  return grams;
}

/**
 * A growing list of texts (the summary, the handles kept so far) asked many times whether a
 * needle is inside one of them on word boundaries: the same answer as `containsAtBoundary` on
 * each text, searching only the texts that hold the needle's first and last 4 characters (a
 * text holding the needle holds both). A match that is a whole text is not inside it
 * (`containsAtBoundary` needs a longer text).
 */
export class ShownTexts {
  /** The short texts. */
  private readonly texts: string[] = [];
  /** Each 4 characters of a short text: the indexes (into `texts`, ascending, once each) of the texts holding them. */
  private readonly holders = new Map<string, number[]>();
  /** The long texts, and their pieces (a set per text). */
  private readonly longTexts: string[] = [];
  private readonly longGrams: ReadonlySet<string>[] = [];

  constructor(texts: readonly string[] = []) {
    for (const text of texts) this.add(text);
  }

  /** Add a text. */
  add(text: string): void {
    if (text.length >= LONG_TEXT) {
      this.longTexts.push(text);
      this.longGrams.push(gramsOf(text));
      return;
    }
    const index = this.texts.length;
    this.texts.push(text);
    for (let at = 0; at + 4 <= text.length; at++) {
      const gram = text.slice(at, at + 4);
      const list = this.holders.get(gram);
      if (list === undefined) this.holders.set(gram, [index]);
      else if (list[list.length - 1] !== index) list.push(index);
    }
  }

  /** Whether `needle` is inside one of the texts on word boundaries (`containsAtBoundary` of any text). */
  contain(needle: string): boolean {
    if (needle.length < 4) return false;
    const head = needle.slice(0, 4);
    const tail = needle.slice(-4);
    for (const [index, grams] of this.longGrams.entries())
      if (grams.has(head) && grams.has(tail) && containsAtBoundary(this.longTexts[index] as string, needle))
        return true;
    const first = this.holders.get(head);
    const last = this.holders.get(tail);
    if (first === undefined || last === undefined) return false;
    // A text holding the needle is in both lists: searching the texts of the shorter one is enough.
    for (const index of first.length <= last.length ? first : last)
      if (containsAtBoundary(this.texts[index] as string, needle)) return true;
    return false;
  }
}
