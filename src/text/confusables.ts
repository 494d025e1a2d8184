/**
 * Characters that render as nothing (zero-width spaces and joiners, soft hyphen, word
 * joiner, byte-order mark, bidirectional controls). A wording check must remove them
 * first: `ig\u200Bnore` reads as "ignore" to a model but not to a regular expression.
 */
export const INVISIBLE_CHARACTERS = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/g;

/** Letters of other scripts that look like Latin ones, mapped to the Latin letter they imitate. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', ɡ: 'g', һ: 'h', ӏ: 'l', ո: 'n', ս: 'u',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', У: 'Y', Ѕ: 'S', І: 'I', Ј: 'J',
  // Greek
  α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  // Punctuation that imitates brackets, quotes and dashes
  '\u2018': "'", '\u2019': "'", '\u201C': '"', '\u201D': '"', '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2212': '-',
  '\u27E6': '[', '\u27E7': ']', '\u3010': '[', '\u3011': ']', '\u3014': '[', '\u3015': ']', '\u2772': '[', '\u2773': ']',
};

const LOOK_ALIKE_PATTERN = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/**
 * The text as a wording check should read it: compatibility-normalised (NFKC folds
 * fullwidth and styled letters such as `ｉｇｎｏｒｅ` or mathematical bold), invisible
 * characters removed, and Cyrillic/Greek look-alike letters mapped to Latin. Only for
 * checks: never shown or stored in place of the original text.
 */
export function foldConfusables(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE_CHARACTERS, '').replace(LOOK_ALIKE_PATTERN, (character) => LOOK_ALIKES[character] ?? character);
}
