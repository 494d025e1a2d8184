/**
 * Date detection. Tokens: ISO dates and date-times (`2026-11-12`, `2026-11-12T10:30:00Z`,
 * extended over a following ` 10:30:00,123` time), `2026/11/12`, `11/12/2026`,
 * `12.11.2026`. Phrases with a capitalised month name: `Nov 12, 2026`, `March 3rd`,
 * `12 November 2026`, `5th of June, 2026`, `2026 November 12`, `July 2023`,
 * `Thu Nov 12 10:30:00 2026 +0000`, `Sat, 14 Nov 2026 08:00:00 GMT`. Clock times alone are not dates.
 */
import type { Candidate } from './candidate.js';

const ISO = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMERIC = /^(?:\d{4}\/\d{1,2}\/\d{1,2}|\d{1,2}\/\d{1,2}\/\d{4}|\d{1,2}\.\d{1,2}\.\d{4})$/;
const TIME_AFTER = / \d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\d:])/y;

const MONTH = 'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?';
const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? ';
const CLOCK = ' \\d{1,2}:\\d{2}(?::\\d{2})?';
const ORDINAL = '(?:st|nd|rd|th)?';
const WORD_DATE = new RegExp(
  '(?<![\\w.])(?:' +
    // Nov 12, 2026 · Thu Nov 12 10:30:00 2026 +0000 · March 3rd · July 2023
    `(?:${WEEKDAY})?(?:${MONTH})\\.? (?:\\d{1,2}${ORDINAL}(?:,? \\d{4})?(?:${CLOCK}(?: \\d{4})?(?: [+-]\\d{4})?)?|\\d{4})` +
    // 12 November 2026 · 5th of June, 2026 · Sat, 14 Nov 2026 08:00:00 GMT
    `|(?:${WEEKDAY})?\\d{1,2}${ORDINAL} (?:of )?(?:${MONTH})\\.?(?:,? \\d{4}(?:${CLOCK}(?: (?:GMT|UTC|[+-]\\d{4}))?)?)?` +
    // 2026 November 12
    `|\\d{4} (?:${MONTH}) \\d{1,2}` +
    ')(?![\\w:])',
  'g',
);

/** Returns the end of a date starting with the (trimmed) token, or -1 when it is not a date. */
export function matchDateToken(text: string, start: number, end: number): number {
  const token = text.slice(start, end);
  if (NUMERIC.test(token)) return end;
  if (!ISO.test(token)) return -1;
  if (token.length !== 10) return end;
  TIME_AFTER.lastIndex = end;
  return TIME_AFTER.test(text) ? TIME_AFTER.lastIndex : end;
}

/** Finds month-name dates in the whole text. */
export function findWordDates(text: string, out: Candidate[]): void {
  WORD_DATE.lastIndex = 0;
  for (let match = WORD_DATE.exec(text); match !== null; match = WORD_DATE.exec(text)) {
    out.push({ kind: 'date', start: match.index, end: match.index + match[0].length });
  }
}
