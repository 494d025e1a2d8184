import { gramKey } from './gram-key.js';
import { GramTable } from './gram-table.js';
import { containsAtBoundary, mayStartAt } from './near-duplicates.js';

/** A text at least this long keeps its 4-character pieces in a set of its own, remembered across lists. */
const LONG_TEXT = 256;

/** The remembered sets of the last few long texts (a compaction's summary is searched by several lists in a row). */
const longTextGrams = new Map<string, ReadonlySet<number>>();

function gramsOf(text: string): ReadonlySet<number> {
  let grams = longTextGrams.get(text);
  if (grams === undefined) {
    const built = new Set<number>();
    for (let at = 0; at + 4 <= text.length; at++) built.add(gramKey(text, at));
    if (longTextGrams.size >= 8) longTextGrams.clear();
    longTextGrams.set(text, built);
    grams = built;
  }
  return grams;
}

/**
 * A growing list of texts (the summary, the handles kept so far) asked many times whether a
 * needle is inside one of them on word boundaries: the same answer as `containsAtBoundary` on
 * each text. A long text is searched when it holds the needle's first and last 4 characters (its
 * pieces' keys are kept in a set); a short text is indexed only by the pieces that start where a
 * word boundary may be (`mayStartAt`), and searched when it is under the needle's first key: a
 * needle inside it on boundaries starts at such a place (pieces are indexed by `gramKey`, so a
 * few more texts may be searched). A match that is a whole text is not inside it
 * (`containsAtBoundary` needs a longer text).
 */
export class ShownTexts {
  /** The short texts. */
  private readonly texts: string[] = [];
  /** Each 4 characters' key: the indexes (into `texts`, once each) of the short texts holding them where a word may start. */
  private readonly starts: GramTable;
  /** The long texts, and their pieces' keys (a set per text). */
  private readonly longTexts: string[] = [];
  private readonly longGrams: ReadonlySet<number>[] = [];

  constructor(texts: readonly string[] = []) {
    // Sized for the pieces of the texts given, so a table built from a whole list is not grown piece by piece.
    let pieces = 0;
    for (const text of texts) if (text.length < LONG_TEXT) pieces += Math.max(0, text.length - 3);
    this.starts = new GramTable(pieces);
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
    for (let at = 0; at + 4 <= text.length; at++) if (mayStartAt(text, at)) this.starts.add(gramKey(text, at), index);
  }

  /** Whether `needle` is inside one of the texts on word boundaries (`containsAtBoundary` of any text). */
  contain(needle: string): boolean {
    if (needle.length < 4) return false;
    const head = gramKey(needle, 0);
    const tail = gramKey(needle, needle.length - 4);
    for (let index = 0; index < this.longGrams.length; index++) {
      const grams = this.longGrams[index] as ReadonlySet<number>;
      if (grams.has(head) && grams.has(tail) && containsAtBoundary(this.longTexts[index] as string, needle))
        return true;
    }
    const { starts } = this;
    // A text holding the needle on boundaries holds it where it may start: it is under the needle's first key.
    for (let entry = starts.first(head); entry >= 0; entry = starts.following(entry, head))
      if (containsAtBoundary(this.texts[starts.value(entry)] as string, needle)) return true;
    return false;
  }
}
