/**
 * The measure phrase right before a number (`numbers.ts`): `retry ceiling of`, `timeout`, `max`, `batch size of`,
 * `TTL is`, `Budget:`. An optional modifier and a space, a measure noun, optionally a space and what it measures
 * (`max heap`), then a colon (blanks around it) or one space, then up to three connectors, each with its space. A
 * modifier or noun is written in lower case, capitalised (its first letter only) or in upper case; the other words in
 * lower case. The phrase opens after a character that cannot end a token (not a word character, `.`, `:`, `/`, `$`,
 * `#` or `-`). The words are looked up in sets: one alternation of every spelling is a pattern of over a thousand
 * characters, and a hook process (a new process after every answer) would compile it on the first number after a
 * measure word.
 */

/** Measure nouns. */
export const MEASURE_NOUN_WORDS =
  'timeout time-out ttl limit ceiling cap max maximum min minimum port threshold budget quota capacity deadline ' +
  'interval delay backoff concurrency latency size retries replicas workers threads window';
/** Modifiers before a measure noun (`retry ceiling`, `idle timeout`). */
export const MODIFIER_WORDS =
  'retry connection request rate memory disk token context pool batch page chunk buffer heap cache queue file ' +
  'upload download body payload hard soft idle read write session daily default global max latency timeout';
/** What a measure noun measures, right after it (`max heap`, `limit connections`). */
export const AFTER_MEASURE_WORDS =
  'heap memory size connections retries requests threads workers pool body file payload';
/** Connectors between the measure and its number (`is`, `of`, `at most`, `set to`). */
export const CONNECTOR_WORDS =
  'is was be set of to at after above below under over around about exactly up most least now currently';

const NOUNS: ReadonlySet<string> = new Set(MEASURE_NOUN_WORDS.split(' '));
const MODIFIERS: ReadonlySet<string> = new Set(MODIFIER_WORDS.split(' '));
const AFTER_MEASURE: ReadonlySet<string> = new Set(AFTER_MEASURE_WORDS.split(' '));
const CONNECTORS: ReadonlySet<string> = new Set(CONNECTOR_WORDS.split(' '));

/** Whether `code` is `A`-`Z` or `-` (a character of an upper-case measure word). */
function isUpperWordCode(code: number): boolean {
  return (code >= 65 && code <= 90) || code === 45;
}

/** Whether `word` spells one of `words` (lower case): lower case, first letter upper case, or all upper case. */
function spells(words: ReadonlySet<string>, word: string): boolean {
  const first = word.charCodeAt(0);
  const isLetter = (first >= 65 && first <= 90) || (first >= 97 && first <= 122);
  if (!isLetter) return false;
  if (words.has(String.fromCharCode(first | 32) + word.slice(1))) return true;
  for (let index = 1; index < word.length; index++) if (!isUpperWordCode(word.charCodeAt(index))) return false;
  return isUpperWordCode(first) && words.has(word.toLowerCase());
}

/** Whether `code` is a space or a tab. */
function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** Where the word at `from` ends: at the next space, tab or colon, or at the end of `text`. */
function wordEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !isBlank(text.charCodeAt(end)) && text.charCodeAt(end) !== 58) end++;
  return end;
}

/** Whether `text` from `at` to its end is up to three connectors, each followed by one space. */
function areConnectors(text: string, at: number): boolean {
  let index = at;
  for (let count = 0; index < text.length; count++) {
    const end = text.indexOf(' ', index);
    if (count === 3 || end === -1 || !CONNECTORS.has(text.slice(index, end))) return false;
    index = end + 1;
  }
  return true;
}

/** Whether `text` from `at` to its end is a colon (blanks around it) or one space, then the connectors. */
function isSeparated(text: string, at: number): boolean {
  if (text.charCodeAt(at) === 32 && areConnectors(text, at + 1)) return true;
  let index = at;
  while (isBlank(text.charCodeAt(index))) index++;
  if (text.charCodeAt(index) !== 58) return false;
  index++;
  // the blanks after the colon are all the separator's: a connector opens with a letter
  while (isBlank(text.charCodeAt(index))) index++;
  return areConnectors(text, index);
}

/** Whether `text` from `at` (right after a measure noun) to its end is what follows the noun in a measure phrase. */
function isNounTail(text: string, at: number): boolean {
  if (text.charCodeAt(at) === 32) {
    const end = wordEnd(text, at + 1);
    if (AFTER_MEASURE.has(text.slice(at + 1, end)) && isSeparated(text, end)) return true;
  }
  return isSeparated(text, at);
}

/** Whether `text` from `start` to its end is a measure phrase (see the module comment; the character before aside). */
function isMeasurePhrase(text: string, start: number): boolean {
  const end = wordEnd(text, start);
  const word = text.slice(start, end);
  if (spells(NOUNS, word) && isNounTail(text, end)) return true;
  if (text.charCodeAt(end) !== 32 || !spells(MODIFIERS, word)) return false;
  const nounEnd = wordEnd(text, end + 1);
  return spells(NOUNS, text.slice(end + 1, nounEnd)) && isNounTail(text, nounEnd);
}

/** Whether `code` may not come right before a measure phrase: a word character, `.`, `:`, `/`, `$`, `#` or `-`. */
function isTokenCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 46 ||
    code === 58 ||
    code === 47 ||
    code === 36 ||
    code === 35 ||
    code === 45
  );
}

/** The start of the first measure phrase that runs to the end of `text` (see the module comment), or -1. */
export function measurePhraseStart(text: string): number {
  for (let start = 0; start < text.length; start++)
    if ((start === 0 || !isTokenCode(text.charCodeAt(start - 1))) && isMeasurePhrase(text, start)) return start;
  return -1;
}
