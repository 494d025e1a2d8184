/**
 * API route patterns with parameter segments: `/teams/:team_id/members/:member_id`, `/users/{id}/posts`. Each is
 * one `path` handle (a route without a method is a path, as `/api/v1/charges` is; `METHOD /route` stays an endpoint,
 * see `endpoints.ts`). A route starts at a `/` after whitespace, a quote, a bracket or the text start, holds at least
 * one whole-segment parameter (`:name` or `{name}`) and one literal segment with a letter, and ends at whitespace, a
 * quote, a bracket, punctuation before one of them, or the text end. A colon inside a segment (`a.py:12`,
 * `/usr/bin:/bin`, `x.py::test`), a `//` start (`http://`) or a `${name}` template is no parameter, so those tokens
 * keep their classification. The route is read from the text after the token (a `{` splits tokens), so this runs
 * outside the token memo, like the method routes it stands beside.
 */
import type { Candidate } from './candidate.js';

/** Segments: a literal (`users`, `v1`, `file.json`), a `:name` parameter or a `{name}` one. */
const ROUTE = /^(?:\/(?:[A-Za-z0-9_.~-]+|:[A-Za-z_]\w*|\{[A-Za-z_]\w*\}))+\/?/;
const PARAM = /\/(?::[A-Za-z_]|\{)/;
const LITERAL_WITH_LETTER = /^[\w.~-]*[A-Za-z][\w.~-]*$/;
/** What may stand before a route: the text start or one of these. */
const BEFORE = /[\s"'`([<,=]/;
/** What may follow a route (or follow punctuation after it). */
const AFTER = /[\s"'`)\]>,;|]/;
const PUNCTUATION = /[.,;:!?]/;
/** Longest route read. */
const MAX_ROUTE = 400;

function endsAt(text: string, stop: number): boolean {
  if (stop >= text.length) return true;
  const next = text[stop] ?? '';
  if (AFTER.test(next)) return true;
  return PUNCTUATION.test(next) && (stop + 1 >= text.length || AFTER.test(text[stop + 1] ?? ''));
}

/**
 * Pushes the route pattern starting at `start` (a `/`) as a `path` candidate when there is one; returns its end, or
 * -1.
 */
export function matchRoutePatternAt(text: string, start: number, out: Candidate[]): number {
  if (text.charCodeAt(start) !== 47 || text.charCodeAt(start + 1) === 47) return -1;
  if (start > 0 && !BEFORE.test(text[start - 1] ?? '')) return -1;
  const match = ROUTE.exec(text.slice(start, start + MAX_ROUTE));
  if (match === null) return -1;
  let stop = start + match[0].length;
  if (!endsAt(text, stop)) return -1;
  while (stop > start + 1 && text.charCodeAt(stop - 1) === 46) stop--;
  const route = text.slice(start, stop);
  if (!PARAM.test(route)) return -1;
  if (!route.split('/').some((segment) => LITERAL_WITH_LETTER.test(segment))) return -1;
  out.push({ kind: 'path', start, end: stop });
  return stop;
}
