/**
 * Date detection. Tokens: ISO dates and date-times (`2026-11-12`, `2026-11-12T10:30:00Z`,
 * extended over a following ` 10:30:00,123` time), `2026/11/12`, `11/12/2026`,
 * `12.11.2026`, `06-Nov-94`. Phrases with a capitalised month name: `Nov 12, 2026`, `March 3rd`,
 * `12 November 2026`, `5th of June, 2026`, `2026 November 12`, `July 2023`,
 * `Thu Nov 12 10:30:00 2026 +0000`, `Sat, 14 Nov 2026 08:00:00 GMT`. Clock times alone are not dates.
 */
import type { Candidate } from './candidate.js';
import { isLetterCode, isLowerCode } from './char-classes.js';

const ISO = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMERIC = /^(?:\d{4}\/\d{1,2}\/\d{1,2}|\d{1,2}\/\d{1,2}\/\d{4}|\d{1,2}\.\d{1,2}\.\d{4})$/;
/** The day-month-year of an RFC 850 date or a log line: `06-Nov-94`, `14-Nov-2026`. */
const DAY_MONTH_YEAR = /^(?:0?[1-9]|[12]\d|3[01])-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(?:\d{2}|\d{4})$/;
const TIME_AFTER = / \d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\d:])/y;

const MONTH =
  'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|' +
  'Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?';
const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? ';
const CLOCK = ' \\d{1,2}:\\d{2}(?::\\d{2})?';
const ORDINAL = '(?:st|nd|rd|th)?';
/** A day of the month, 1 to 31 (`66 Sep` in an `ls -l` line is a file size before a month). */
const DAY = '(?:[12]\\d|3[01]|0?[1-9])';
/** A year that leads a date (`2026 November 12`), 1900 to 2099: `4096 Sep 10` in an `ls -l` line is a size. */
const LEADING_YEAR = '(?:19|20)\\d{2}';
const WORD_DATE = new RegExp(
  '(?:' +
    // Nov 12, 2026 · Thu Nov 12 10:30:00 2026 +0000 · March 3rd · July 2023
    `(?:${WEEKDAY})?(?:${MONTH})\\.? (?:${DAY}${ORDINAL}(?:,? \\d{4})?(?:${CLOCK}(?: \\d{4})?(?: [+-]\\d{4})?)?|\\d{4})` +
    // 12 November 2026 · 5th of June, 2026 · Sat, 14 Nov 2026 08:00:00 GMT
    `|(?:${WEEKDAY})?${DAY}${ORDINAL} (?:of )?(?:${MONTH})\\.?(?:,? \\d{4}(?:${CLOCK}(?: (?:GMT|UTC|[+-]\\d{4}))?)?)?` +
    // 2026 November 12
    `|${LEADING_YEAR} (?:${MONTH}) ${DAY}` +
    ')(?![\\w:])',
  'y',
);
const MONTH_WORDS: ReadonlySet<string> = new Set(
  (
    'Jan January Feb February Mar March Apr April May Jun June Jul July Aug August ' +
    'Sep Sept September Oct October Nov November Dec December'
  ).split(' '),
);
const WEEKDAY_BEFORE = /(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? $/;
const WORD_CHAR = /[\w.]/;

/** Returns the end of a date starting with the (trimmed) token, or -1 when it is not a date. */
export function matchDateToken(text: string, start: number, end: number): number {
  const token = text.slice(start, end);
  // each pattern runs only on a token with its separator in place (`/` or `.`; `-` after the day; `-` after the year)
  if ((token.includes('/') || token.includes('.')) && NUMERIC.test(token)) return end;
  if ((token.charCodeAt(1) === 45 || token.charCodeAt(2) === 45) && DAY_MONTH_YEAR.test(token)) return end;
  if (token.charCodeAt(4) !== 45 || !ISO.test(token)) return -1;
  if (token.length !== 10) return end;
  TIME_AFTER.lastIndex = end;
  return TIME_AFTER.test(text) ? TIME_AFTER.lastIndex : end;
}

function wordBefore(text: string, end: number): number {
  let start = end;
  while (start > 0 && isLetterCode(text.charCodeAt(start - 1))) start--;
  return start;
}

function tryAt(text: string, at: number, out: Candidate[]): number {
  if (at < 0 || (at > 0 && WORD_CHAR.test(text[at - 1] ?? ''))) return -1;
  WORD_DATE.lastIndex = at;
  const match = WORD_DATE.exec(text);
  if (match === null) return -1;
  out.push({ kind: 'date', start: at, end: at + match[0].length });
  return at + match[0].length;
}

function withWeekday(text: string, at: number): number {
  const weekday = WEEKDAY_BEFORE.exec(text.slice(Math.max(0, at - 5), at));
  return weekday === null ? at : at - weekday[0].length;
}

/**
 * Finds a month-name date around the numeric token `[start, end)` (its day or year):
 * `Nov 12, 2026`, `12 November 2026`, `2026 November 12`, `July 2023`. Returns the end of
 * the date found, or -1.
 */
export function matchWordDateAt(text: string, start: number, end: number, out: Candidate[]): number {
  let next = end;
  while (next < text.length && isLowerCode(text.charCodeAt(next))) next++;
  if (text[next] === ',') next++;
  if (text[next] === ' ') {
    let word = next + 1;
    if (text.startsWith('of ', word)) word += 3;
    let stop = word;
    while (stop < text.length && isLetterCode(text.charCodeAt(stop))) stop++;
    if (MONTH_WORDS.has(text.slice(word, stop))) {
      const found = tryAt(text, withWeekday(text, start), out);
      if (found !== -1) return found;
    }
  }
  let before = start - 1;
  if (text[before] !== ' ') return -1;
  if (text[before - 1] === '.') before--;
  const wordStart = wordBefore(text, before);
  if (!MONTH_WORDS.has(text.slice(wordStart, before))) return -1;
  return tryAt(text, withWeekday(text, wordStart), out);
}
