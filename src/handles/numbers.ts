/**
 * Numeric-constant detection. The handle spans the measure phrase verbatim: an optional
 * measure (`retry ceiling of`, `timeout`, `max`, `port`, `batch size of`, `TTL is`,
 * `Budget:`), a number, an optional unit (`30s`, `256 MiB`, `3 retries`, `5-minute`,
 * `2 vCPUs`) and an optional rate (`per minute`, `/s`), or an amount as the adjective of its measure after it
 * (`30-second timeout`, `10-character threshold`). A number counts only with a
 * measure or a unit, so list numbers, line numbers, years, clock times (`10:30`, `9:45pm`),
 * percentages, ratios and versions are not numbers.
 */
import type { Candidate } from './candidate.js';
import { isDigitCode, isLetterCode } from './char-classes.js';
import {
  AFTER_MEASURE_WORDS,
  CONNECTOR_WORDS,
  MEASURE_NOUN_WORDS,
  MODIFIER_WORDS,
  measurePhraseStart,
} from './measure-phrases.js';

const NUMBER = '\\d+(?:[,_]\\d{3})*(?:\\.\\d+)?';
const SPACED_UNIT =
  'ms|msec|milliseconds?|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?|[KMGTP]i?B|kB|bytes?|' +
  'retries|attempts|connections|requests|req|rps|qps|RPS|QPS|replicas|pods|nodes|workers|threads|cores|vCPUs?|CPUs?|' +
  'shards|partitions|tokens|rows|records|messages|characters|chars';
const UNIT =
  // a bare short unit (`30s`, `5m`, `2Gi`)
  '(?:(?:ms|s|m|h|d|[KMG]i)(?![\\w])' +
  // a spaced unit, optionally scaled and qualified (`10 concurrent connections`, `5k requests`)
  `|[kKM]? ?(?:(?:concurrent|parallel|simultaneous|active|idle|open) )?(?:${SPACED_UNIT})\\b` +
  // a hyphenated duration or size (`30-second`, `10-GB`)
  '|-(?:second|minute|hour|day|week|month|year|ms|GB|MB)\\b)';
const PER = '(?: ?\\/ ?[a-z]+\\b| per [A-Za-z]+\\b)';
const PLURAL_AFTER_LIMIT = '(?: [a-z]{2,}s\\b)';
/**
 * An amount written as the adjective of its measure (`30-second timeout`, `10-character threshold`, `5 GB limit`): a
 * number with a hyphenated word or a unit, then the measure noun (an optional modifier before it: `5 GB hard limit`),
 * all one handle, so the amount keeps what it measures. The shape is a short pattern and the two words are looked up
 * in sets: the nouns as one more alternation cost a hook process (a new process after every answer) a regex compile
 * of several milliseconds.
 */
const ADJECTIVE_SHAPE = new RegExp(`${NUMBER}(?:-[a-z]+| ?(?:${SPACED_UNIT})) ([A-Za-z-]+)(?: ([A-Za-z-]+))?`, 'y');
const MEASURE_NOUNS: ReadonlySet<string> = new Set(MEASURE_NOUN_WORDS.split(' '));
const MODIFIERS: ReadonlySet<string> = new Set(MODIFIER_WORDS.split(' '));

/** `word` is one of `words` as `anyCase` spells it: lower case, capitalised, or all upper case. */
function isWordOf(words: ReadonlySet<string>, word: string): boolean {
  const lower = word.toLowerCase();
  return words.has(lower) && (word.slice(1) === lower.slice(1) || word === word.toUpperCase());
}

/** Where the adjective amount at `start` ends (after its measure noun), or -1 when there is none. */
function adjectiveAmountEnd(text: string, start: number): number {
  ADJECTIVE_SHAPE.lastIndex = start;
  const match = ADJECTIVE_SHAPE.exec(text);
  if (match === null) return -1;
  const [whole, first = '', second] = match;
  const end = start + whole.length;
  const firstEnd = end - (second === undefined ? 0 : second.length + 1);
  const closed = (at: number) => !/[\w-]/.test(text.charAt(at));
  if (second !== undefined && isWordOf(MODIFIERS, first) && isWordOf(MEASURE_NOUNS, second) && closed(end)) return end;
  return isWordOf(MEASURE_NOUNS, first) && closed(firstEnd) ? firstEnd : -1;
}
const NUMBER_PHRASE = new RegExp(
  `(${NUMBER})(${UNIT})?((?:${PER}){0,2})(${PLURAL_AFTER_LIMIT})?(?![\\w%]|[.:/,-]\\d)`,
  'y',
);
/** A bound right before the number (`at most 3 retries`, `up to 120s`): part of the handle when a unit follows. */
const BOUND_BEFORE =
  /(?<![\w-])(?:at most|at least|up to|no more than|not more than|more than|fewer than|less than)[ \t]+$/i;
const DECADE = /^(?:1[5-9]|20)\d\ds$/;
const LIMIT_WORD = /^(?:(?:\w+ )?(?:limit|max|maximum|min|minimum|cap|quota|ceiling|budget))\b/i;
const EXCLUDED_BEFORE = /[\w.:/$#-]/;
const MEASURE_WORDS: ReadonlySet<string> = new Set(
  `${MEASURE_NOUN_WORDS} ${CONNECTOR_WORDS} ${AFTER_MEASURE_WORDS}`.toLowerCase().split(' '),
);

/** A letter or `-`: a measure word's character, and the first character of every unit but the spaced ones. */
function isMeasureCode(code: number): boolean {
  return isLetterCode(code) || code === 45;
}

/** Start of a measure phrase (`retry ceiling of`, `Budget:`) ending right before `start`, or -1. */
export function measureBefore(text: string, start: number): number {
  let stop = start;
  while (stop > 0 && (text[stop - 1] === ' ' || text[stop - 1] === '\t' || text[stop - 1] === ':')) stop--;
  if (stop === start) return -1;
  let word = stop;
  while (word > 0 && isMeasureCode(text.charCodeAt(word - 1))) word--;
  if (!MEASURE_WORDS.has(text.slice(word, stop).toLowerCase())) return -1;
  const window = text.slice(Math.max(0, start - 80), start);
  const phrase = measurePhraseStart(window);
  return phrase === -1 ? -1 : start - window.length + phrase;
}

/**
 * Whether a unit may follow the number at `start`: every unit starts with a letter, a space or `-`, and the number
 * (digits, `,`, `_`, `.`) ends after a digit, at the end of one of its runs of digits (`0020_add` holds none: its
 * number is `0020`, and `_` starts no unit). Without one the phrase patterns are neither run nor compiled.
 */
function mayHaveUnit(text: string, start: number): boolean {
  for (let index = start; ; index++) {
    const code = text.charCodeAt(index);
    if (isDigitCode(code)) continue;
    if (isDigitCode(text.charCodeAt(index - 1)) && (isMeasureCode(code) || code === 32)) return true;
    if (!(code === 44 || code === 95 || code === 46)) return false;
  }
}

/**
 * Matches a numeric-constant phrase whose number starts at `start` (see the module notes),
 * pushing it to `out`; returns whether it matched.
 */
export function matchNumberAt(text: string, start: number, out: Candidate[]): boolean {
  const previous = text[start - 1] ?? ' ';
  if (EXCLUDED_BEFORE.test(previous) || (previous === ',' && /\d/.test(text[start - 2] ?? ''))) return false;
  let measureStart = measureBefore(text, start);
  if (measureStart === -1 && !mayHaveUnit(text, start)) return false;
  if (measureStart === -1) {
    const end = adjectiveAmountEnd(text, start);
    if (end !== -1) {
      out.push({ kind: 'number', start, end });
      return true;
    }
  }
  const bound = measureStart === -1 ? BOUND_BEFORE.exec(text.slice(Math.max(0, start - 20), start)) : null;
  NUMBER_PHRASE.lastIndex = start;
  const match = NUMBER_PHRASE.exec(text);
  if (match === null) return false;
  const [whole, number = '', unit, per = '', plural] = match;
  if (measureStart === -1 && unit === undefined) return false;
  if (bound !== null) measureStart = start - Math.min(start, 20) + bound.index;
  if (unit === 's' && DECADE.test(number + unit)) return false;
  if (unit === undefined && per.length > 0 && measureStart === -1) return false;
  let length = whole.length;
  const measure = measureStart === -1 ? '' : text.slice(measureStart, start);
  if (plural !== undefined && (unit !== undefined || measureStart === -1 || !LIMIT_WORD.test(measure)))
    length -= plural.length;
  out.push({ kind: 'number', start: measureStart === -1 ? start : measureStart, end: start + length });
  return true;
}
