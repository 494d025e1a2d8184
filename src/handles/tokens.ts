/**
 * The token pass: one global regex finds every whitespace/quote/bracket-delimited token
 * holding a digit, `_ / \\ @ : = # ~ . -`, an inner capital or a trailing `()` — plain words
 * are never materialised — and each token is classified by the per-family detectors,
 * first match wins: URL, email, assignment (+ its key and value as tokens), path, date,
 * endpoint, version, identifier.
 */
import type { Candidate } from './candidate.js';
import { MAX_TOKEN_LENGTH } from './candidate.js';
import { matchAssignmentToken } from './assignments.js';
import { matchDateToken } from './dates.js';
import { isEmail } from './emails.js';
import { isEndpoint } from './endpoints.js';
import { matchIdentifier } from './identifiers.js';
import { matchPath } from './paths.js';
import { isUrl } from './urls.js';
import { isVersionToken } from './versions.js';

const BOUNDARY = '\\s`"\'()\\[\\]{}<>,;|';
const TOKEN = new RegExp(
  `(?<![^${BOUNDARY}])(?:[A-Za-z$*^+&!%?]*(?:[0-9_/\\\\@:=#~.\\-]|(?<=[a-z])[A-Z]|(?<=[A-Z]{3})[a-z])|[A-Za-z$]+(?=\\(\\)))[^${BOUNDARY}]*`,
  'g',
);
const TRAILING = new Set(['.', ':', '!', '?', '*', ',']);
const LEADING = new Set(['*', '$', '^']);

const SECTION_BEFORE = /(?:Section|section|Chapter|chapter|Figure|Table|Step|step|§) ?$/;
const SSH_BEFORE = /\b(?:ssh|scp|rsync|sftp|mosh)\b[^\n]*$/;
const URL_PARENS = /^\([^\s()]{1,80}\)[^\s`"'()\[\]{}<>,;|]*/;

/** Extends a URL over a balanced `(…)` group directly after it (`/wiki/Foo_(bar)`). */
function urlEnd(text: string, end: number): number {
  if (text.charCodeAt(end) !== 40) return end;
  const group = URL_PARENS.exec(text.slice(end, end + 200));
  if (group === null) return end;
  let stop = end + group[0].length;
  while (TRAILING.has(text[stop - 1] ?? '')) stop--;
  return stop;
}

/** Whether a `user@host` token is the target of an ssh-like command on the same line. */
function isSshTarget(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 200), start);
  return SSH_BEFORE.test(before.slice(before.lastIndexOf('\n') + 1));
}

function classify(text: string, start: number, end: number, out: Candidate[], depth: number): void {
  while (end > start && TRAILING.has(text[end - 1] ?? '')) end--;
  while (start < end && LEADING.has(text[start] ?? '') && !(text[start] === '^' && /\d/.test(text[start + 1] ?? ''))) start++;
  if (end - start < 2 || end - start > MAX_TOKEN_LENGTH) return;
  let token = text.slice(start, end);
  if (token.startsWith('@') && !token.includes('/') && token.indexOf('@', 1) === -1) {
    start++;
    token = token.slice(1);
  }
  if (isUrl(token)) return void out.push({ kind: 'url', start, end: urlEnd(text, end) });
  if (isEmail(token)) return void out.push({ kind: isSshTarget(text, start) ? 'endpoint' : 'email', start, end });
  if (token.includes('=') && depth < 2) {
    const assignment = matchAssignmentToken(text, start, end);
    if (assignment !== undefined) {
      out.push({ kind: 'assignment', start, end: assignment.end });
      classify(text, start, assignment.keyEnd, out, depth + 1);
      if (assignment.valueStart !== -1) classify(text, assignment.valueStart, end, out, depth + 1);
      return;
    }
  }
  const path = matchPath(token);
  if (path !== undefined) {
    out.push({ kind: 'path', start, end: start + path.length });
    if (path.memberStart !== undefined) matchIdentifier(text, start + path.memberStart, end, out);
    return;
  }
  const dateEnd = matchDateToken(text, start, end);
  if (dateEnd !== -1) return void out.push({ kind: 'date', start, end: dateEnd });
  if (isEndpoint(token)) return void out.push({ kind: 'endpoint', start, end });
  if (isVersionToken(token)) {
    if (!SECTION_BEFORE.test(text.slice(Math.max(0, start - 12), start))) out.push({ kind: 'version', start, end });
    return;
  }
  matchIdentifier(text, start, end, out);
}

/** Runs the token pass over the whole text, pushing token-level candidates to `out`. */
export function findTokenHandles(text: string, out: Candidate[]): void {
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    if (match[0].length === 0) TOKEN.lastIndex++;
    else classify(text, match.index, match.index + match[0].length, out, 0);
  }
}
