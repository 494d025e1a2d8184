/**
 * The token scanner: one pass over the text's char codes splits it at whitespace, quotes,
 * brackets, `,;|` (a `${name}` template placeholder inside a token does not split it) and
 * hands every token holding a digit, one of `_ / \\ @ : = # ~ . -`, an inner capital
 * (`fooBar`, `OSError`) or a trailing `()` to a callback. Plain words are never
 * materialised, which keeps the pass close to a bare word regex in speed.
 */

/** Token flag: a digit. */
export const DIGIT = 1;
/** Token flag: one of `_ / \ @ : = # ~ . -`. */
export const SPECIAL = 2;
/** Token flag: an inner capital after a lowercase letter, or a lowercase after three capitals. */
export const CAMEL = 4;
/** Token flag: directly followed by `()`. */
export const CALL = 8;

const BOUNDARY = 16;
const LOWER = 32;
const UPPER = 64;
/** Class of every UTF-16 code unit (64 KiB), so the scan never branches on non-ASCII or reads out of bounds. */
const TABLE = new Uint8Array(0x10000);
for (const char of ' \t\n\r\v\f`"\'()[]{}<>,;|') TABLE[char.charCodeAt(0)] = BOUNDARY;
for (let code = 97; code <= 122; code++) TABLE[code] = LOWER;
for (let code = 65; code <= 90; code++) TABLE[code] = UPPER;
for (let code = 48; code <= 57; code++) TABLE[code] = DIGIT;
for (const char of '_/\\@:=#~.-') TABLE[char.charCodeAt(0)] = SPECIAL;
for (const code of [0xa0, 0x2028, 0x2029, 0x3000, 0xfeff]) TABLE[code] = BOUNDARY;
// En quad to zero-width space, and the curly quotes.
for (let code = 0x2000; code <= 0x200b; code++) TABLE[code] = BOUNDARY;
for (let code = 0x2018; code <= 0x201f; code++) TABLE[code] = BOUNDARY;

/** Longest `${…}` placeholder a token may carry. */
const MAX_TEMPLATE = 80;

/** End (the `}`) of a `${name}` placeholder whose `{` is at `open`, or -1. */
function templateEnd(text: string, open: number): number {
  const limit = Math.min(text.length, open + MAX_TEMPLATE);
  for (let index = open + 1; index < limit; index++) {
    const code = text.charCodeAt(index);
    if (code === 125) return index > open + 1 ? index : -1;
    if (code < 128 && TABLE[code] === BOUNDARY) return -1;
  }
  return -1;
}

/** Called for each interesting token `[start, end)` with its flags. */
export type TokenVisitor = (start: number, end: number, flags: number) => void;

/** Scans `text`, calling `visit` for every interesting token, in order. */
export function scanTokens(text: string, visit: TokenVisitor): void {
  const length = text.length;
  let start = -1;
  let flags = 0;
  let previous = 0;
  let upperRun = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    const kind = TABLE[code] ?? 0;
    if (kind === BOUNDARY) {
      if (start === -1) continue;
      if (code === 123 && text.charCodeAt(index - 1) === 36) {
        const close = templateEnd(text, index);
        if (close !== -1) {
          flags |= SPECIAL;
          previous = SPECIAL;
          upperRun = 0;
          index = close;
          continue;
        }
      }
      if (code === 40 && text.charCodeAt(index + 1) === 41) flags |= CALL;
      if (flags !== 0) visit(start, index, flags);
      start = -1;
      continue;
    }
    if (start === -1) {
      start = index;
      flags = 0;
      previous = 0;
      upperRun = 0;
    }
    if (kind === LOWER) {
      if (upperRun >= 3) flags |= CAMEL;
      upperRun = 0;
      previous = LOWER;
      // The rest of a lowercase run (`a-z`) changes nothing.
      while (index + 1 < length) {
        const next = text.charCodeAt(index + 1);
        if (next < 97 || next > 122) break;
        index++;
      }
      continue;
    } else if (kind === UPPER) {
      if (previous === LOWER) flags |= CAMEL;
      upperRun++;
    } else {
      flags |= kind & (DIGIT | SPECIAL);
      upperRun = 0;
    }
    previous = kind;
  }
  // The end of the text ends the last token.
  if (start !== -1 && flags !== 0) visit(start, length, flags);
}
