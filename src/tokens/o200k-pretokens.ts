/**
 * o200k_base's pre-tokenizer, read one pre-token at a time: `preTokenEnd(text, at)` is where the
 * pre-token starting at `at` ends, exactly where gpt-tokenizer's split regex
 * (`O200K_TOKEN_SPLIT_REGEX`) would end it.
 *
 * Most agent text is ASCII, where the regex's Unicode classes reduce to a few character ranges:
 * a scan over char codes decides the pre-token when every character it has to read is ASCII, or a
 * symbol above U+007F (an arrow, a box-drawing line, a check mark: `[^\s\p{L}\p{N}\p{M}]`, which every
 * alternative treats as it treats ASCII punctuation). Whenever it would have to classify another
 * character above U+007F (a letter, a digit, a mark, white space, half of a surrogate pair), the
 * regex itself decides, run from `at` (every character belongs to some alternative, so its match
 * starts at `at`). About four times faster than the regex alone on the development transcripts;
 * `test/tokens/o200k-pretokens.test.ts` compares the two on random and real text.
 *
 * The pattern's alternatives, in the order the regex tries them, with their ASCII meaning:
 * 1. `[^\r\n\p{L}\p{N}]?[Lu Lt Lm Lo M]*[Ll Lm Lo M]+` contraction? — an optional prefix (a space,
 *    tab or punctuation) and a letter run: capitals, then lower case letters (at least one);
 * 2. the same prefix, `[Lu Lt Lm Lo M]+[Ll Lm Lo M]*` contraction? — capitals then lower case;
 * 3. `\p{N}{1,3}` — up to three digits;
 * 4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*` — an optional space, punctuation, then line breaks and slashes;
 * 5. `\s*[\r\n]+` — white space up to its last line break;
 * 6. `\s+(?!\S)` — white space not followed by a non-space (all but the last of a run before text);
 * 7. `\s+`.
 */
import { createRequire } from 'node:module';
import type * as SplitRegexes from 'gpt-tokenizer/encodingParams/constants';

/**
 * The regex, for pre-tokens with characters above U+007F: a copy whose `lastIndex` is this module's. Made (and
 * gpt-tokenizer's module of split regexes loaded: it builds three Unicode regexes) on the first such pre-token, not
 * when this module loads: a short-lived process counting ASCII text (a hook's turn, most often) never needs it.
 */
let split: RegExp | undefined;

/** The regex, made on first use. */
function splitRegex(): RegExp {
  if (split === undefined) {
    const require = createRequire(import.meta.url);
    const { O200K_TOKEN_SPLIT_REGEX } = require('gpt-tokenizer/encodingParams/constants') as typeof SplitRegexes;
    split = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);
  }
  return split;
}

/** Whether the split regex has been made (for tests: text of ASCII characters only never makes it). */
export function splitRegexMade(): boolean {
  return split !== undefined;
}

/** Classes of ASCII char codes. */
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
/** Space, tab, vertical tab and form feed: white space that may prefix a letter run. */
const BLANK = 4;
/** Line feed and carriage return. */
const BREAK = 5;
/** Everything else below U+0080 (`[^\s\p{L}\p{N}]`), control characters included; and the symbols above it. */
const PUNCT = 6;
/** Above U+007F, a symbol excepted: the regex decides. */
const OTHER = 0;

const ASCII_CLASS = new Uint8Array(128).map((_, code) => {
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 10 || code === 13) return BREAK;
  if (code === 9 || code === 11 || code === 12 || code === 32) return BLANK;
  return PUNCT;
});

/** A character the regex treats as ASCII punctuation: not white space, a letter, a digit or a mark. */
const SYMBOL = /^[^\s\p{L}\p{N}\p{M}]$/u;

/**
 * The class of each char code above U+007F looked at so far (0 when not yet): `PUNCT` for a symbol (`SYMBOL`),
 * `WIDE_OTHER` for the rest. Made on the first such character (64 KB).
 */
let wideClasses: Uint8Array | undefined;
/** `OTHER` as `wideClasses` holds it (0 there means not classified yet). */
const WIDE_OTHER = 7;

/** The class of the char code `code` above U+007F: `PUNCT` for a symbol, else `OTHER` (the regex decides). */
function wideClass(code: number): number {
  // Half of a surrogate pair: the regex reads the pair as one code point.
  if (code >= 0xd800 && code <= 0xdfff) return OTHER;
  wideClasses ??= new Uint8Array(0x10000);
  let kind = wideClasses[code] as number;
  if (kind === 0) {
    kind = SYMBOL.test(String.fromCharCode(code)) ? PUNCT : WIDE_OTHER;
    wideClasses[code] = kind;
  }
  return kind === PUNCT ? PUNCT : OTHER;
}

/** The class of the char code at `index` (above U+007F: `PUNCT` for a symbol, else `OTHER`), or -1 past the end. */
function classAt(text: string, index: number): number {
  if (index >= text.length) return -1;
  const code = text.charCodeAt(index);
  return code < 128 ? (ASCII_CLASS[code] ?? OTHER) : wideClass(code);
}

/** Where the regex ends the pre-token at `at`. */
function regexEnd(text: string, at: number): number {
  const regex = splitRegex();
  regex.lastIndex = at;
  const match = regex.exec(text);
  return match === null ? text.length : match.index + match[0].length;
}

/** The end of `'s`, `'d`, `'m`, `'t`, `'ll`, `'ve` or `'re` (either case) at `at`, else `at`. */
function contractionEnd(text: string, at: number): number {
  // Reads stay inside the text: a char code read past its end (NaN) deoptimizes the optimized scan.
  if (at + 1 >= text.length || text.charCodeAt(at) !== 39) return at;
  const first = text.charCodeAt(at + 1) | 0x20;
  if (first === 115 || first === 100 || first === 109 || first === 116) return at + 2;
  if (at + 2 >= text.length) return at;
  const second = text.charCodeAt(at + 2) | 0x20;
  if ((first === 108 && second === 108) || (first === 118 && second === 101) || (first === 114 && second === 101)) {
    return at + 3;
  }
  return at;
}

/** Alternatives 1 and 2 from the first letter at `from`: capitals, lower case, a contraction; -1 when a character above U+007F decides. */
function letterRunEnd(text: string, from: number): number {
  let end = from;
  while (classAt(text, end) === UPPER) end += 1;
  while (classAt(text, end) === LOWER) end += 1;
  return classAt(text, end) === OTHER ? -1 : contractionEnd(text, end);
}

/** Alternative 4 from its punctuation at `from`; -1 when a character above U+007F decides. */
function punctuationEnd(text: string, from: number): number {
  let end = from;
  while (classAt(text, end) === PUNCT) end += 1;
  if (classAt(text, end) === OTHER) return -1;
  const length = text.length;
  for (let code = end < length ? text.charCodeAt(end) : -1; code === 10 || code === 13 || code === 47;) {
    end += 1;
    code = end < length ? text.charCodeAt(end) : -1;
  }
  return end;
}

/** Alternatives 5–7 for the white space at `at`; -1 when a character above U+007F decides. */
function whiteSpaceEnd(text: string, at: number): number {
  let end = at;
  let lastBreak = -1;
  for (let kind = classAt(text, end); kind === BLANK || kind === BREAK; kind = classAt(text, end)) {
    if (kind === BREAK) lastBreak = end;
    end += 1;
  }
  if (classAt(text, end) === OTHER) return -1;
  if (lastBreak >= 0) return lastBreak + 1;
  if (end === text.length || end - at === 1) return end;
  return end - 1;
}

/** The ASCII scan's end of the pre-token at `at`, or -1 when the regex must decide. */
function asciiEnd(text: string, at: number): number {
  const kind = classAt(text, at);
  if (kind === UPPER || kind === LOWER) return letterRunEnd(text, at);
  if (kind === DIGIT) {
    let end = at + 1;
    while (end < at + 3 && classAt(text, end) === DIGIT) end += 1;
    return end < at + 3 && classAt(text, end) === OTHER ? -1 : end;
  }
  if (kind === OTHER) return -1;
  const next = classAt(text, at + 1);
  if (next === OTHER) return -1;
  if (kind !== BREAK && (next === UPPER || next === LOWER)) return letterRunEnd(text, at + 1);
  if (kind === PUNCT) return punctuationEnd(text, at);
  if (text.charCodeAt(at) === 32 && next === PUNCT) return punctuationEnd(text, at + 1);
  return whiteSpaceEnd(text, at);
}

/** Where the o200k pre-token that starts at `at` (`at < text.length`, at a pre-token start) ends. */
export function preTokenEnd(text: string, at: number): number {
  const end = asciiEnd(text, at);
  return end < 0 ? regexEnd(text, at) : end;
}
