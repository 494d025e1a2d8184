/**
 * Cheap tests that tell when a regular expression cannot match a text, so that it is neither run nor compiled. A hook
 * process reads a few short texts and exits: compiling a long alternation costs it more than running it, and most of
 * the patterns behind a rule or a number never match them. Each guard is a necessary condition of its pattern: it
 * may let through a text the pattern then rejects, never hold back one the pattern would match.
 *
 * The patterns guarded are case-insensitive without the `u` flag: there, an ASCII letter matches only an ASCII letter
 * (in either case), so a literal word of the pattern shows up in the lower-cased text as the same lower-case word.
 */

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** The ASCII letters opening `text`, lower-cased (`''` when it opens with anything else). */
export function leadingWord(text: string): string {
  let end = 0;
  while (end < text.length && isAsciiLetter(text.charCodeAt(end))) end++;
  return text.slice(0, end).toLowerCase();
}

/** The last text {@link holdsAny} lower-cased: a clause meets several guards in a row, and is lower-cased once. */
let lastText = '';
let lastLower = '';

/** Whether `text`, lower-cased, holds one of `needles` (given in lower case). */
export function holdsAny(text: string, needles: readonly string[]): boolean {
  if (text !== lastText) {
    lastText = text;
    lastLower = text.toLowerCase();
  }
  const lower = lastLower;
  for (const needle of needles) if (lower.includes(needle)) return true;
  return false;
}

/**
 * A pattern with the words one of which every text it matches holds: `test` and `exec` run it only on a text that
 * holds one (for a `g` or `y` pattern, a text without one leaves `lastIndex` at 0, as a failed match does).
 */
export class GuardedPattern {
  constructor(
    readonly pattern: RegExp,
    readonly needles: readonly string[],
  ) {}

  /** `pattern.test(text)`, skipped (false) when the text holds none of the needles. */
  test(text: string): boolean {
    if (holdsAny(text, this.needles)) return this.pattern.test(text);
    this.pattern.lastIndex = 0;
    return false;
  }

  /** `pattern.exec(text)`, skipped (null) when the text holds none of the needles. */
  exec(text: string): RegExpExecArray | null {
    if (holdsAny(text, this.needles)) return this.pattern.exec(text);
    this.pattern.lastIndex = 0;
    return null;
  }
}

/**
 * A pattern anchored at the start (`^word…`) whose match opens with one of `words`: `test` runs it only on a text
 * whose opening ASCII letters, lower-cased, are one of them.
 */
export class OpeningPattern {
  readonly words: ReadonlySet<string>;

  constructor(
    readonly pattern: RegExp,
    words: readonly string[],
  ) {
    this.words = new Set(words);
  }

  /** `pattern.test(text)`, skipped (false) when the text does not open with one of the words. */
  test(text: string): boolean {
    return this.words.has(leadingWord(text)) && this.pattern.test(text);
  }
}
