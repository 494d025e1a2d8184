/**
 * Numeric-constant detection. The handle spans the measure phrase verbatim: an optional
 * measure (`retry ceiling of`, `timeout`, `max`, `port`, `batch size of`, `TTL is`,
 * `Budget:`), a number, an optional unit (`30s`, `256 MiB`, `3 retries`, `5-minute`,
 * `2 vCPUs`) and an optional rate (`per minute`, `/s`). A number counts only with a
 * measure or a unit, so list numbers, line numbers, years, clock times (`10:30`, `9:45pm`),
 * percentages, ratios and versions are not numbers.
 */
import type { Candidate } from './candidate.js';

function anyCase(words: string): string {
  return words
    .split(' ')
    .map((word) => `[${word[0]?.toLowerCase()}${word[0]?.toUpperCase()}]${word.slice(1)}|${word.toUpperCase()}`)
    .join('|');
}

const MEASURE_NOUN = anyCase(
  'timeout time-out ttl limit ceiling cap max maximum min minimum port threshold budget quota capacity deadline ' +
    'interval delay backoff concurrency latency size retries replicas workers threads window',
);
const MODIFIER = anyCase(
  'retry connection request rate memory disk token context pool batch page chunk buffer heap cache queue file ' +
    'upload download body payload hard soft idle read write session daily default global max',
);
const AFTER_MEASURE = '(?:heap|memory|size|connections|retries|requests|threads|workers|pool|body|file|payload)';
const CONNECTOR = '(?:is|was|be|set|of|to|at|after|above|below|under|over|around|about|exactly|up|most|least|now|currently) ';
const MEASURE = `(?:(?:${MODIFIER}) )?(?:${MEASURE_NOUN})(?: ${AFTER_MEASURE})?(?:[ \\t]*:[ \\t]*| )(?:${CONNECTOR}){0,3}`;
const NUMBER = '\\d+(?:[,_]\\d{3})*(?:\\.\\d+)?';
const SPACED_UNIT =
  'ms|msec|milliseconds?|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?|[KMGTP]i?B|kB|bytes?|' +
  'retries|attempts|connections|requests|req|rps|qps|RPS|QPS|replicas|pods|nodes|workers|threads|cores|vCPUs?|CPUs?|' +
  'shards|partitions|tokens|rows|records|messages|characters|chars';
const UNIT = `(?:(?:ms|s|m|h|d|[KMG]i)(?![\\w])|[kKM]? ?(?:(?:concurrent|parallel|simultaneous|active|idle|open) )?(?:${SPACED_UNIT})\\b|-(?:second|minute|hour|day|week|month|year|ms|GB|MB)\\b)`;
const PER = '(?: ?\\/ ?[a-z]+\\b| per [A-Za-z]+\\b)';
const PLURAL_AFTER_LIMIT = '(?: [a-z]{2,}s\\b)';
const NUMBER_PHRASE = new RegExp(
  `(?<![\\w.:/$#-])(${MEASURE})?(${NUMBER})(${UNIT})?((?:${PER}){0,2})(${PLURAL_AFTER_LIMIT})?(?![\\w%]|[.:/,-]\\d)`,
  'g',
);
const DECADE = /^(?:1[5-9]|20)\d\ds$/;
const LIMIT_WORD = /^(?:(?:\w+ )?(?:limit|max|maximum|min|minimum|cap|quota|ceiling|budget))\b/i;

/** Finds numeric-constant phrases in the whole text. */
export function findNumbers(text: string, out: Candidate[]): void {
  NUMBER_PHRASE.lastIndex = 0;
  for (let match = NUMBER_PHRASE.exec(text); match !== null; match = NUMBER_PHRASE.exec(text)) {
    const [whole, measure, number = '', unit, per = '', plural] = match;
    if (measure === undefined && unit === undefined) continue;
    if (unit === 's' && DECADE.test(number + unit)) continue;
    let length = whole.length;
    if (plural !== undefined && (unit !== undefined || measure === undefined || !LIMIT_WORD.test(measure))) length -= plural.length;
    if (unit === undefined && per.length > 0 && measure === undefined) continue;
    out.push({ kind: 'number', start: match.index, end: match.index + length });
  }
}
