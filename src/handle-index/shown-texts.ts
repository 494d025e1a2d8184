import { gramKey, wideGramKey } from './gram-key.js';
import { GramTable } from './gram-table.js';
import { containsAtBoundary, mayStartAt, onBoundariesAt } from './near-duplicates.js';

/** A text at least this long keeps where each of its 4-character pieces starts. */
const LONG_TEXT = 256;

/** Length of the wide pieces short texts are also indexed by (`wideGramKey`). */
const WIDE = 8;

/** Long texts whose piece starts a {@link LongTextPieces} keeps before it starts over. */
const REMEMBERED_LONG_TEXTS = 8;

/**
 * Where each 4-character piece of the last few long texts starts: several {@link ShownTexts} built one after another
 * over the same summary (a placement's lists) can share one, so the summary's pieces are found once. Each
 * `ShownTexts` given none finds the pieces of its own long texts.
 */
export class LongTextPieces {
  private readonly tables = new Map<string, GramTable>();

  /** Where each piece of a long text starts: its offsets under their piece keys. */
  of(text: string): GramTable {
    let pieces = this.tables.get(text);
    if (pieces === undefined) {
      pieces = new GramTable(text.length);
      for (let at = 0; at + 4 <= text.length; at++) pieces.add(gramKey(text, at), at);
      if (this.tables.size >= REMEMBERED_LONG_TEXTS) this.tables.clear();
      this.tables.set(text, pieces);
    }
    return pieces;
  }
}

/**
 * Whether the long `text` (its piece starts `pieces`) holds `needle` on word boundaries: `containsAtBoundary`, but
 * the needle is compared only where a piece with its first key starts, and only when the text has a piece with the
 * key of every 4th piece of the needle and of its last one (a text holding the needle holds each of its pieces).
 */
function longTextHolds(text: string, pieces: GramTable, needle: string): boolean {
  if (text.length <= needle.length) return false;
  const head = gramKey(needle, 0);
  const first = pieces.first(head);
  if (first < 0 || pieces.first(gramKey(needle, needle.length - 4)) < 0) return false;
  for (let at = 4; at + 4 < needle.length; at += 4) if (pieces.first(gramKey(needle, at)) < 0) return false;
  for (let entry = first; entry >= 0; entry = pieces.following(entry, head)) {
    const at = pieces.value(entry);
    if (text.startsWith(needle, at) && onBoundariesAt(text, needle, at)) return true;
  }
  return false;
}

/** How many short and long texts a {@link ShownTexts} held at some point: `containSince` searches only those added after. */
export interface ShownMark {
  readonly short: number;
  readonly long: number;
}

/** The mark of an empty list: `containSince` from it searches every text. */
const START: ShownMark = { short: 0, long: 0 };

/**
 * A growing list of texts (the summary, the handles kept so far) asked many times whether a
 * needle is inside one of them on word boundaries: the same answer as `containsAtBoundary` on
 * each text. A long text keeps where each of its pieces (4 characters, by `gramKey`) starts, and is
 * compared with the needle only where its first piece starts (`longTextHolds`); a short text is
 * indexed only by the pieces that start where a word boundary may be (`mayStartAt`), and searched
 * when it is under the needle's first key: a needle inside it on boundaries starts at such a place
 * (pieces are indexed by `gramKey`, so a few more texts may be searched). A match that is a whole
 * text is not inside it (`containsAtBoundary` needs a longer text).
 */
export class ShownTexts {
  /** The short texts. */
  private readonly texts: string[] = [];
  /**
   * Each 4 characters' key: the indexes (into `texts`, once each) of the short texts holding them where a word may
   * start. Indexed up to `texts[indexed[0]]` only: the texts after it are indexed when a needle under 8 characters is
   * first searched (most needles are longer, and a list may never be asked).
   */
  private readonly starts: GramTable;
  /** `starts` by 8 characters (`wideGramKey`), indexed up to `texts[indexed[1]]`: what longer needles are looked up by. */
  private readonly wideStarts: GramTable;
  /** How many short texts `starts` and `wideStarts` hold. */
  private readonly indexed = [0, 0];
  /** The long texts, and where their pieces start. */
  private readonly longTexts: string[] = [];
  /** Where each long text's pieces start, found when the text is first searched (a list may never be asked). */
  private readonly longPieces: (GramTable | undefined)[] = [];

  /**
   * `pieces`: where the piece starts of long texts are found and kept (share one across lists that hold the same long
   * text; default: this list's own).
   */
  constructor(
    texts: readonly string[] = [],
    private readonly pieces: LongTextPieces = new LongTextPieces(),
  ) {
    // Sized for the pieces of the texts given, so a table built from a whole list is not grown piece by piece.
    let shortPieces = 0;
    for (const text of texts) if (text.length < LONG_TEXT) shortPieces += Math.max(0, text.length - 3);
    this.starts = new GramTable(shortPieces);
    this.wideStarts = new GramTable(shortPieces);
    for (const text of texts) this.add(text);
  }

  /** Add a text. */
  add(text: string): void {
    if (text.length >= LONG_TEXT) {
      this.longTexts.push(text);
      this.longPieces.push(undefined);
      return;
    }
    this.texts.push(text);
  }

  /** Where the list is now: the texts added from here on are the ones `containSince` searches. */
  mark(): ShownMark {
    return { short: this.texts.length, long: this.longTexts.length };
  }

  /** Whether `needle` is inside one of the texts on word boundaries (`containsAtBoundary` of any text). */
  contain(needle: string): boolean {
    return this.containSince(needle, START);
  }

  /**
   * `contain`, over the texts added since `since` only (a needle already known not to be inside the earlier ones,
   * a placement's kept handle, is then not searched in them again).
   */
  containSince(needle: string, since: ShownMark): boolean {
    if (needle.length < 4) return false;
    for (let index = since.long; index < this.longTexts.length; index++) {
      const text = this.longTexts[index] as string;
      const pieces = (this.longPieces[index] ??= this.pieces.of(text));
      if (longTextHolds(text, pieces, needle)) return true;
    }
    // A needle of 8 or more characters starts where its first 8 do: fewer texts share them than its first 4.
    const wide = needle.length >= WIDE;
    const head = wide ? wideGramKey(needle, 0) : gramKey(needle, 0);
    const starts = this.startsOf(wide);
    // A text holding the needle on boundaries holds it where it may start: it is under the needle's first key. The
    // table gives the texts under a key most recent first, so the walk stops at the first one before the mark.
    for (let entry = starts.first(head); entry >= 0; entry = starts.following(entry, head)) {
      const index = starts.value(entry);
      if (index < since.short) break;
      if (containsAtBoundary(this.texts[index] as string, needle)) return true;
    }
    return false;
  }

  /** `starts` or `wideStarts`, with every short text indexed. */
  private startsOf(wide: boolean): GramTable {
    const which = wide ? 1 : 0;
    const width = wide ? WIDE : 4;
    const table = wide ? this.wideStarts : this.starts;
    const { texts, indexed } = this;
    for (let index = indexed[which] as number; index < texts.length; index++) {
      const text = texts[index] as string;
      for (let at = 0; at + width <= text.length; at++)
        if (mayStartAt(text, at)) table.add(wide ? wideGramKey(text, at) : gramKey(text, at), index);
    }
    indexed[which] = texts.length;
    return table;
  }
}
