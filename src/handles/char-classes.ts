/**
 * Character classes of a token, as one bit set: which kinds of character it holds. The
 * classifiers test a bit before running a regex that needs (or a lookup that only matters
 * with) such a character, so most tokens never reach most regexes.
 */

/** `a-z`. */
export const HAS_LOWER = 1;
/** `A-Z`. */
export const HAS_UPPER = 2;
/** `0-9`. */
export const HAS_DIGIT = 4;
/** `_`. */
export const HAS_UNDERSCORE = 8;
/** `-`. */
export const HAS_HYPHEN = 16;
/** `.`. */
export const HAS_DOT = 32;
/** `/`. */
export const HAS_SLASH = 64;
/** `\`. */
export const HAS_BACKSLASH = 128;
/** `:`. */
export const HAS_COLON = 256;
/** `@`. */
export const HAS_AT = 512;
/** `=`. */
export const HAS_EQUALS = 1024;
/** `%`. */
export const HAS_PERCENT = 2048;
/** Any other character (including every non-ASCII one). */
export const HAS_OTHER = 4096;

const TABLE = new Uint16Array(128).fill(HAS_OTHER);
for (let code = 97; code <= 122; code++) TABLE[code] = HAS_LOWER;
for (let code = 65; code <= 90; code++) TABLE[code] = HAS_UPPER;
for (let code = 48; code <= 57; code++) TABLE[code] = HAS_DIGIT;
for (const [char, bit] of [
  ['_', HAS_UNDERSCORE],
  ['-', HAS_HYPHEN],
  ['.', HAS_DOT],
  ['/', HAS_SLASH],
  ['\\', HAS_BACKSLASH],
  [':', HAS_COLON],
  ['@', HAS_AT],
  ['=', HAS_EQUALS],
  ['%', HAS_PERCENT],
] as const)
  TABLE[char.charCodeAt(0)] = bit;

/** The classes of the characters of `text` in `[start, end)`. */
export function charClasses(text: string, start = 0, end = text.length): number {
  let classes = 0;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    classes |= code < 128 ? (TABLE[code] ?? HAS_OTHER) : HAS_OTHER;
  }
  return classes;
}

/** `a-z`. */
export function isLowerCode(code: number): boolean {
  return code >= 97 && code <= 122;
}

/** `A-Z`. */
export function isUpperCode(code: number): boolean {
  return code >= 65 && code <= 90;
}

/** `0-9`. */
export function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `A-Za-z`. */
export function isLetterCode(code: number): boolean {
  return isLowerCode(code) || isUpperCode(code);
}

/** `A-Za-z0-9`. */
export function isAlphanumericCode(code: number): boolean {
  return isLetterCode(code) || isDigitCode(code);
}
