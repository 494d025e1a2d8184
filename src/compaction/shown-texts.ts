import { containsAtBoundary, onBoundaries } from './near-duplicates.js';

/** Joins the texts; a character no handle text is expected to hold (when one does, the texts are searched one by one). */
const SEPARATOR = '\u0000';

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
 * each text, from one search of the joined texts instead of one per text. A match that is a
 * whole text is not inside it (`containsAtBoundary` needs a longer text).
 */
export class ShownTexts {
  private readonly texts: string[] = [];
  private joined = '';
  private separated = true;
  /** Every 4 characters of every text: a needle whose first or last 4 are not among them is in none. */
  private readonly grams = new Set<string>();
  /** The same pieces of the long texts, a set per text. */
  private readonly longGrams: ReadonlySet<string>[] = [];

  constructor(texts: readonly string[] = []) {
    for (const text of texts) this.add(text);
  }

  /** Add a text. */
  add(text: string): void {
    if (text.includes(SEPARATOR)) this.separated = false;
    this.joined = this.texts.length === 0 ? text : this.joined + SEPARATOR + text;
    this.texts.push(text);
    if (text.length >= LONG_TEXT) this.longGrams.push(gramsOf(text));
    else for (let at = 0; at + 4 <= text.length; at++) this.grams.add(text.slice(at, at + 4));
  }

  private hasGram(gram: string): boolean {
    return this.grams.has(gram) || this.longGrams.some((grams) => grams.has(gram));
  }

  /** Whether `needle` is inside one of the texts on word boundaries (`containsAtBoundary` of any text). */
  contain(needle: string): boolean {
    if (needle.length < 4 || !this.hasGram(needle.slice(0, 4)) || !this.hasGram(needle.slice(-4))) return false;
    if (!this.separated || needle.includes(SEPARATOR))
      return this.texts.some((text) => containsAtBoundary(text, needle));
    const joined = this.joined;
    for (let at = joined.indexOf(needle); at >= 0; at = joined.indexOf(needle, at + 1)) {
      const before = at === 0 ? SEPARATOR : (joined[at - 1] as string);
      const after = joined[at + needle.length] ?? SEPARATOR;
      if (before === SEPARATOR && after === SEPARATOR) continue;
      if (onBoundaries(needle, before === SEPARATOR ? '' : before, after === SEPARATOR ? '' : after)) return true;
    }
    return false;
  }
}
