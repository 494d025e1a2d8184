/**
 * The token pass: {@link scanTokens} yields every token holding a digit, a special
 * character, an inner capital or a trailing `()`; each is trimmed and classified by the
 * per-family detectors, first match wins: URL, email, assignment (+ its key and value as
 * tokens), path, date, endpoint, version, identifier. Tokens that start with a digit also
 * anchor the phrase detectors around them (month-name dates, `Product 1.2` versions,
 * numeric constants), and tokens starting with `/` anchor `METHOD /route` endpoints.
 */
import { matchAssignmentToken } from './assignments.js';
import type { Candidate } from './candidate.js';
import { MAX_TOKEN_LENGTH } from './candidate.js';
import { matchDateToken, matchWordDateAt } from './dates.js';
import { isEmail } from './emails.js';
import { isEndpoint, matchMethodRouteAt } from './endpoints.js';
import { matchIdentifier } from './identifiers.js';
import { matchNumberAt } from './numbers.js';
import { matchPath } from './paths.js';
import { DIGIT, scanTokens, SPECIAL } from './scan.js';
import { isUrl } from './urls.js';
import { isVersionToken, matchProductVersionAt } from './versions.js';

/** Which phrase detectors the token pass should also run. */
export interface TokenPhrases {
  /** Numeric constants. */
  readonly numbers: boolean;
}

const SECTION_BEFORE = /(?:Section|section|Chapter|chapter|Figure|Table|Step|step|§) ?$/;
const SSH_BEFORE = /\b(?:ssh|scp|rsync|sftp|mosh)\b[^\n]*$/;
const URL_PARENS = /^\([^\s()]{1,80}\)[^\s`"'()[\]{}<>,;|]*/;

function isTrailing(code: number): boolean {
  return code === 46 || code === 58 || code === 33 || code === 63 || code === 42 || code === 44;
}

/** Extends a URL over a balanced `(…)` group directly after it (`/wiki/Foo_(bar)`). */
function urlEnd(text: string, end: number): number {
  if (text.charCodeAt(end) !== 40) return end;
  const group = URL_PARENS.exec(text.slice(end, end + 200));
  if (group === null) return end;
  let stop = end + group[0].length;
  while (isTrailing(text.charCodeAt(stop - 1))) stop--;
  return stop;
}

/** Whether a `user@host` token is the target of an ssh-like command on the same line. */
function isSshTarget(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 200), start);
  return SSH_BEFORE.test(before.slice(before.lastIndexOf('\n') + 1));
}

function classify(text: string, start: number, end: number, flags: number, out: Candidate[], depth: number): void {
  const token = text.slice(start, end);
  const hasSlash = token.includes('/') || token.includes('\\');
  if (hasSlash && isUrl(token)) return void out.push({ kind: 'url', start, end: urlEnd(text, end) });
  const at = token.indexOf('@');
  if (at !== -1 && isEmail(token))
    return void out.push({ kind: isSshTarget(text, start) ? 'endpoint' : 'email', start, end });
  if (depth < 2 && token.includes('=')) {
    const assignment = matchAssignmentToken(text, start, end);
    if (assignment !== undefined) {
      out.push({ kind: 'assignment', start, end: assignment.end });
      classifyToken(text, start, assignment.keyEnd, out, depth + 1);
      if (assignment.valueStart !== -1) classifyToken(text, assignment.valueStart, end, out, depth + 1);
      return;
    }
  }
  const hasDot = token.includes('.');
  if (hasSlash || hasDot || token.charCodeAt(0) === 126) {
    const path = matchPath(token);
    if (path !== undefined) {
      out.push({ kind: 'path', start, end: start + path.length });
      if (path.memberStart !== undefined) matchIdentifier(text, start + path.memberStart, end, out);
      return;
    }
  }
  const digits = (flags & DIGIT) !== 0;
  if (digits) {
    const dateEnd = matchDateToken(text, start, end);
    if (dateEnd !== -1) return void out.push({ kind: 'date', start, end: dateEnd });
  }
  if ((hasDot || at !== -1 || token.includes(':') || hasSlash) && isEndpoint(token))
    return void out.push({ kind: 'endpoint', start, end });
  if (digits && isVersionToken(token)) {
    if (!SECTION_BEFORE.test(text.slice(Math.max(0, start - 12), start))) out.push({ kind: 'version', start, end });
    return;
  }
  matchIdentifier(text, start, end, out);
}

/** Trims a raw token and classifies it. */
function classifyToken(
  text: string,
  start: number,
  end: number,
  out: Candidate[],
  depth: number,
  flags = DIGIT | SPECIAL,
): void {
  while (end > start && isTrailing(text.charCodeAt(end - 1))) end--;
  let code = text.charCodeAt(start);
  while (
    start < end &&
    (code === 42 ||
      code === 36 ||
      (code === 94 && !(text.charCodeAt(start + 1) >= 48 && text.charCodeAt(start + 1) <= 57)))
  )
    code = text.charCodeAt(++start);
  if (code === 64 && end - start > 1) {
    const token = text.slice(start, end);
    if (!token.includes('/') && token.indexOf('@', 1) === -1) start++;
  }
  if (end - start < 2 || end - start > MAX_TOKEN_LENGTH) return;
  classify(text, start, end, flags, out, depth);
}

/** Runs the token pass over the whole text, pushing candidates to `out`. */
export function findTokenHandles(text: string, phrases: TokenPhrases, out: Candidate[]): void {
  let dateEnd = -1;
  scanTokens(text, (start, end, flags) => {
    const code = text.charCodeAt(start);
    classifyToken(text, start, end, out, 0, flags);
    const second = text.charCodeAt(start + 1);
    if ((code >= 48 && code <= 57) || (code === 118 && second >= 48 && second <= 57)) {
      let stop = end;
      while (stop > start && isTrailing(text.charCodeAt(stop - 1))) stop--;
      matchProductVersionAt(text, start, stop, out);
      if (code === 118) return;
      if (start >= dateEnd) dateEnd = Math.max(dateEnd, matchWordDateAt(text, start, stop, out));
      if (phrases.numbers) matchNumberAt(text, start, out);
    } else if (code === 47) matchMethodRouteAt(text, start, out);
  });
}
