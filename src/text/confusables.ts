/**
 * Code point ranges of characters that render as nothing (zero-width spaces and joiners,
 * soft hyphen, combining grapheme joiner, variation selectors, word joiner, byte-order
 * mark, bidirectional controls, Hangul fillers). A wording check must remove them first:
 * `ig\u200Bnore` reads as "ignore" to a model but not to a regular expression.
 */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
];

/** The lowest code point of `INVISIBLE_RANGES`: below it nothing is invisible. */
const FIRST_INVISIBLE = Math.min(...INVISIBLE_RANGES.map(([from]) => from));

/** True for a character that renders as nothing. */
export function isInvisible(code: number): boolean {
  if (code < FIRST_INVISIBLE) return false;
  return INVISIBLE_RANGES.some(([from, to]) => code >= from && code <= to);
}

/** The text without characters that render as nothing. */
export function removeInvisible(text: string): string {
  let start = 0;
  while (start < text.length && !isInvisible(text.charCodeAt(start))) start++;
  // Most texts have none: they are returned as they are, not rebuilt one character at a time.
  if (start === text.length) return text;
  let result = text.slice(0, start);
  for (let index = start; index < text.length; index++)
    if (!isInvisible(text.charCodeAt(index))) result += text.charAt(index);
  return result;
}

/** Letters of other scripts that look like Latin ones, mapped to the Latin letter they imitate. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  һ: 'h',
  ӏ: 'l',
  ո: 'n',
  ս: 'u',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  // Greek
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  // Punctuation that imitates brackets, quotes and dashes
  '\u2018': "'",
  '\u2019': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2212': '-',
  '\u27E6': '[',
  '\u27E7': ']',
  '\u3010': '[',
  '\u3011': ']',
  '\u3014': '[',
  '\u3015': ']',
  '\u2772': '[',
  '\u2773': ']',
};

const LOOK_ALIKE_PATTERN = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/**
 * The text as a wording check should read it: compatibility-normalised (NFKC folds
 * fullwidth and styled letters such as `ｉｇｎｏｒｅ` or mathematical bold), invisible
 * characters removed, and Cyrillic/Greek look-alike letters mapped to Latin. Only for
 * checks: never shown or stored in place of the original text.
 */
export function foldConfusables(text: string): string {
  return removeInvisible(text.normalize('NFKC')).replace(
    LOOK_ALIKE_PATTERN,
    (character) => LOOK_ALIKES[character] ?? character,
  );
}
