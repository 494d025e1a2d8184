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

/** `INVISIBLE_RANGES` as one flag per UTF-16 code unit (all of them are below 0x10000): a lookup per character. */
const INVISIBLE_CODES = new Uint8Array(0x10000);
for (const [from, to] of INVISIBLE_RANGES) INVISIBLE_CODES.fill(1, from, to + 1);

/** True for a character that renders as nothing. */
export function isInvisible(code: number): boolean {
  return code >= FIRST_INVISIBLE && INVISIBLE_CODES[code] === 1;
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
const LOOK_ALIKES: Record<string, string> = {
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
  // Latin small capitals (no compatibility decomposition, so NFKC keeps them): `[ᴜꜱᴇʀ]` reads as `[user]`
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ꜰ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
};

/**
 * Brackets of other blocks that read as `[` and `]` (after NFKC, which already folds fullwidth `［`, halfwidth `｢`
 * and the small and vertical presentation forms into these): white, tortoise-shell, lenticular, corner and ceiling
 * brackets, quill and half brackets. A label check reads `⁅user⁆` and `〚system〛` as `[user]` and `[system]`.
 */
const BRACKET_PAIRS = [
  '\u2045\u2046', // ⁅ ⁆ square brackets with quill
  '\u2308\u2309', // ⌈ ⌉ ceiling
  '\u230A\u230B', // ⌊ ⌋ floor
  '\u231C\u231D', // ⌜ ⌝ top corners
  '\u231E\u231F', // ⌞ ⌟ bottom corners
  '\u23A1\u23A4', // ⎡ ⎤ bracket pieces
  '\u23A3\u23A6', // ⎣ ⎦ bracket pieces
  '\u2772\u2773', // ❲ ❳ light tortoise shell
  '\u27E6\u27E7', // ⟦ ⟧ white square
  '\u27EC\u27ED', // ⟬ ⟭ white tortoise shell
  '\u298B\u298C', // ⦋ ⦌ square with underbar
  '\u298D\u2990', // ⦍ ⦐ square with ticks
  '\u298F\u298E', // ⦏ ⦎ square with ticks
  '\u2E22\u2E23', // ⸢ ⸣ top half
  '\u2E24\u2E25', // ⸤ ⸥ bottom half
  '\u300C\u300D', // 「 」 corner (also halfwidth ｢ ｣)
  '\u300E\u300F', // 『 』 white corner
  '\u3010\u3011', // 【 】 black lenticular
  '\u3014\u3015', // 〔 〕 tortoise shell (also small ﹝ ﹞ and vertical ︹ ︺)
  '\u3016\u3017', // 〖 〗 white lenticular
  '\u3018\u3019', // 〘 〙 white tortoise shell
  '\u301A\u301B', // 〚 〛 white square
] as const;

for (const [open, close] of BRACKET_PAIRS)
  Object.assign(LOOK_ALIKES, { [open as string]: '[', [close as string]: ']' });

const LOOK_ALIKE_PATTERN = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/**
 * The text as a wording check should read it: compatibility-normalised (NFKC folds
 * fullwidth and styled letters such as `ｉｇｎｏｒｅ` or mathematical bold), invisible
 * characters removed, and Cyrillic/Greek look-alike letters mapped to Latin. Only for
 * checks: never shown or stored in place of the original text.
 */
export function foldConfusables(text: string): string {
  return mapLookAlikes(removeInvisible(text.normalize('NFKC')));
}

/** Each look-alike of `LOOK_ALIKES` replaced by the Latin letter or bracket it imitates. */
function mapLookAlikes(text: string): string {
  return text.replace(LOOK_ALIKE_PATTERN, (character) => LOOK_ALIKES[character] ?? character);
}

/** Combining marks (accents, overlays, enclosing marks) once a text is decomposed. */
const COMBINING_MARK = /\p{M}/gu;

/**
 * The text as a label check reads it: {@link foldConfusables}, with combining marks removed too (`[useŕ]` and
 * `[u\u0336ser]` read as `[user]`). Not for wording checks of prose, where an accent is part of the word.
 */
export function foldForLabels(text: string): string {
  const compatible = removeInvisible(text.normalize('NFKC'));
  // Marks go before the look-alikes are mapped: Cyrillic `ѐ` decomposes to `е` and a grave, and `е` is a look-alike.
  const bare = /[\u0080-\uFFFF]/.test(compatible)
    ? compatible.normalize('NFD').replace(COMBINING_MARK, '')
    : compatible;
  return mapLookAlikes(bare);
}
