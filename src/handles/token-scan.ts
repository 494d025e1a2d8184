/**
 * The token pass: {@link scanTokens} yields every token holding a digit, a special
 * character, an inner capital or a trailing `()`; each is trimmed (trailing punctuation, and
 * leading sigils: `*`, `$`, `^`, a shebang's `#!`, and before a name `!`, `&`, `:`) and
 * classified by the per-family detectors, first match wins: URL, email, assignment (+ its key
 * and value as tokens), path, CSS selector / leading-dot member (`.row-text {`, `).st_mode`),
 * date, endpoint, version, identifier (or a hyphenated word quoted whole in the verbatim
 * text, or a letter-only one in a code span or a tool call's command: `code-words.ts`). Tokens
 * that start with a digit also anchor the phrase detectors around them (month-name dates,
 * `Product 1.2` versions, numeric constants), and tokens starting with `/` anchor `METHOD /route`
 * endpoints, else route patterns (`/users/{id}`, `/a/:id`: `routes.ts`). A token's classification
 * is remembered with its neighbours in the memo the caller passes (`token-memo.ts`): transcripts
 * repeat their tokens, and a repeated one is replayed instead of classified again.
 */
import { matchAssignmentToken } from './assignments.js';
import type { Candidate } from './candidate.js';
import { MAX_TOKEN_LENGTH } from './candidate.js';
import {
  charClasses,
  HAS_AT,
  HAS_BACKSLASH,
  HAS_COLON,
  HAS_DIGIT,
  HAS_DOT,
  HAS_EQUALS,
  HAS_HYPHEN,
  HAS_SLASH,
} from './char-classes.js';
import { isCommandWord, isInCodeSpan, isLetterKebab } from './code-words.js';
import { matchDateToken, matchWordDateAt } from './dates.js';
import { isEmail } from './emails.js';
import { isEndpoint, matchMethodRouteAt } from './endpoints.js';
import { isQuotedWhole, matchCodeWord, matchIdentifier } from './identifiers.js';
import { matchNumberAt } from './numbers.js';
import { matchPath } from './paths.js';
import { matchRoutePatternAt } from './routes.js';
import { memoKeyEnd, memoKeyStart, wideMemoKey } from './token-memo.js';
import type { TokenMemo } from './token-memo.js';
import { DIGIT, scanTokens, SPECIAL } from './scan.js';
import { isUrl } from './urls.js';
import { isVersionToken, matchProductVersionAt } from './versions.js';

/** Which phrase detectors the token pass should also run, and the verbatim text. */
export interface TokenPhrases {
  /** Numeric constants. */
  readonly numbers: boolean;
  /** The verbatim text the scanned view was made from (same length; default: the view), to see quotes markup hid. */
  readonly source?: string | undefined;
  /** The memo of classifications the caller keeps across texts (default: none, every token is classified). */
  readonly memo?: TokenMemo | undefined;
}

const SECTION_BEFORE = /(?:Section|section|Chapter|chapter|Figure|Table|Step|step|§) ?$/;
const SSH_BEFORE = /\b(?:ssh|scp|rsync|sftp|mosh)\b[^\n]*$/;
const URL_PARENS = /^\([^\s()]{1,80}\)[^\s`"'()[\]{}<>,;|]*/;
/** The rest of a CSS selector line after a `.class` token: more selectors, then `{` or `,` at the line end. */
const SELECTOR_REST = /^[\w .#:>+~()[\]="-]*(?:\{[^\n}]*|,)[ \t]*(?:\n|$)/;
const SELECTOR_PART = /[A-Za-z][\w-]*/g;

function isTrailing(code: number): boolean {
  return code === 46 || code === 58 || code === 33 || code === 63 || code === 42 || code === 44;
}

/** Extends a URL over a balanced `(…)` group directly after it (`/wiki/Foo_(bar)`). */
function urlEnd(text: string, end: number, memo: TokenMemo | undefined): number {
  if (text.charCodeAt(end) !== 40) return end;
  memo?.markContextual();
  const group = URL_PARENS.exec(text.slice(end, end + 200));
  if (group === null) return end;
  let stop = end + group[0].length;
  while (isTrailing(text.charCodeAt(stop - 1))) stop--;
  return stop;
}

/** Whether a `user@host` token is the target of an ssh-like command on the same line. */
function isSshTarget(text: string, start: number, memo: TokenMemo | undefined): boolean {
  memo?.markContextual();
  const before = text.slice(Math.max(0, start - 200), start);
  return SSH_BEFORE.test(before.slice(before.lastIndexOf('\n') + 1));
}

/** Pushes the hyphenated class names of a `.a-b.c-d` selector token (leading dot at `start`), when it is one. */
function matchSelector(
  text: string,
  start: number,
  end: number,
  out: Candidate[],
  memo: TokenMemo | undefined,
): boolean {
  memo?.markContextual();
  const rest = text.slice(end, end + 400);
  if (!SELECTOR_REST.test(rest)) return false;
  const token = text.slice(start, end);
  let found = false;
  for (const part of token.matchAll(SELECTOR_PART)) {
    const at = start + part.index;
    if (token[part.index - 1] !== '.' && token[part.index - 1] !== '#') continue;
    found =
      matchCodeWord(at, at + part[0].length, part[0], out) ||
      matchIdentifier(text, at, at + part[0].length, out) ||
      found;
  }
  return found;
}

/** A placeholder's name that opens with a count: `8-char-tag`, `40-hex-sha`. */
const COUNTED_NAME = /^\d{1,3}(?:-[a-z][a-z0-9]*){2,}$/;

/**
 * The last classifier: an identifier, or a hyphenated word the verbatim text quotes whole (or a template's `<name>`
 * placeholder the view shows), or a letter-only one inside a code span or a tool call's command (`code-words.ts`).
 */
function identifierOrCodeWord(
  text: string,
  source: string,
  start: number,
  end: number,
  token: string,
  classes: number,
  out: Candidate[],
  memo: TokenMemo | undefined,
): void {
  if (matchIdentifier(text, start, end, out, token, classes)) return;
  // A placeholder of a template the markup view left visible (`YYYY-MM-DD-<worker-run-uuid>`) is quoted by its brackets.
  if (isQuotedWhole(source, start, end) || (text.charCodeAt(start - 1) === 60 && text.charCodeAt(end) === 62)) {
    // a placeholder may open with a count (`<8-char-tag>`): its name all the same
    if (!matchCodeWord(start, end, token, out) && text.charCodeAt(start - 1) === 60 && COUNTED_NAME.test(token))
      out.push({ kind: 'identifier', start, end });
    return;
  }
  if ((classes & HAS_HYPHEN) === 0 || !isLetterKebab(token)) return;
  // A code span or a tool call's command around the word is read from the text beyond the token.
  memo?.markContextual();
  if (isInCodeSpan(source, start, end) || isCommandWord(source, start)) out.push({ kind: 'identifier', start, end });
}

function classify(
  text: string,
  source: string,
  start: number,
  end: number,
  flags: number,
  out: Candidate[],
  depth: number,
  memo: TokenMemo | undefined,
): void {
  const classes = charClasses(text, start, end);
  // An all-digit token is no URL, path, date, version or identifier.
  if (classes === HAS_DIGIT) return;
  const token = text.slice(start, end);
  const hasSlash = (classes & (HAS_SLASH | HAS_BACKSLASH)) !== 0;
  if (hasSlash && isUrl(token)) return void out.push({ kind: 'url', start, end: urlEnd(text, end, memo) });
  const at = (classes & HAS_AT) !== 0 ? token.indexOf('@') : -1;
  if (at !== -1 && isEmail(token))
    return void out.push({ kind: isSshTarget(text, start, memo) ? 'endpoint' : 'email', start, end });
  if (depth < 2 && (classes & HAS_EQUALS) !== 0) {
    // A quoted value, a `,item` list or a `$(command)` after the token is read from the text beyond it.
    const after = text.charCodeAt(end);
    if (after === 44 || after === 34 || after === 39 || after === 40) memo?.markContextual();
    // A diff's added line (`+KEY=value`): the assignment starts after the `+`.
    if (token.charCodeAt(0) === 43 && end - start > 3)
      return classifyToken(text, source, start + 1, end, out, depth + 1, memo);
    const assignment = matchAssignmentToken(text, start, end);
    if (assignment !== undefined) {
      out.push({ kind: 'assignment', start, end: assignment.end });
      classifyToken(text, source, start, assignment.keyEnd, out, depth + 1, memo);
      if (assignment.valueStart !== -1) classifyToken(text, source, assignment.valueStart, end, out, depth + 1, memo);
      return;
    }
    if (token.endsWith('=') && !token.endsWith('=='))
      return classifyToken(text, source, start, end - 1, out, depth + 1, memo);
    // A name set from a command that binds no value (`ROOT=$(a || b)`, see `assignments.ts`) is still a name.
    if (token.endsWith('=$')) return classifyToken(text, source, start, end - 2, out, depth + 1, memo);
  }
  const hasDot = (classes & HAS_DOT) !== 0;
  if (hasSlash || hasDot || token.charCodeAt(0) === 126) {
    const path = matchPath(token, text.charCodeAt(end) === 40);
    if (path !== undefined) {
      out.push({ kind: 'path', start, end: start + path.length });
      if (path.memberStart !== undefined) matchIdentifier(text, start + path.memberStart, end, out);
      return;
    }
    if (token.charCodeAt(0) === 46 && depth < 2) {
      if (matchSelector(text, start, end, out, memo)) return;
      return classifyToken(text, source, start + 1, end, out, depth + 1, memo);
    }
  }
  const digits = (flags & DIGIT) !== 0;
  if (digits) {
    // A time after an ISO date is read from the text beyond it.
    if (end - start === 10 && text.charCodeAt(end) === 32) memo?.markContextual();
    const dateEnd = matchDateToken(text, start, end);
    if (dateEnd !== -1) return void out.push({ kind: 'date', start, end: dateEnd });
  }
  if ((hasDot || at !== -1 || (classes & HAS_COLON) !== 0 || hasSlash) && isEndpoint(token))
    return void out.push({ kind: 'endpoint', start, end });
  if (digits && isVersionToken(token)) {
    memo?.markContextual();
    if (!SECTION_BEFORE.test(text.slice(Math.max(0, start - 12), start))) out.push({ kind: 'version', start, end });
    return;
  }
  identifierOrCodeWord(text, source, start, end, token, classes, out, memo);
}

function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/**
 * Whether the character at `start` is a sigil to skip: `*`, `$`, `^` (not before a digit), and
 * before a name `!` (negation), `&` (a capture) and `:` (an atom or symbol). (`#!` of a shebang is skipped first.)
 */
function isSigil(text: string, start: number): boolean {
  const code = text.charCodeAt(start);
  const next = text.charCodeAt(start + 1);
  if (code === 42 || code === 36) return true;
  if (code === 94) return !(next >= 48 && next <= 57);
  return (code === 33 || code === 38 || code === 58) && (isNameStart(next) || (code === 58 && next === 58));
}

/** Trims a raw token and classifies it. */
function classifyToken(
  text: string,
  source: string,
  start: number,
  end: number,
  out: Candidate[],
  depth: number,
  memo: TokenMemo | undefined,
  flags = DIGIT | SPECIAL,
): void {
  while (end > start && isTrailing(text.charCodeAt(end - 1))) end--;
  if (text.startsWith('#!/', start)) start += 2;
  while (start < end && isSigil(text, start)) start++;
  const code = text.charCodeAt(start);
  if (code === 64 && end - start > 1) {
    const token = text.slice(start, end);
    if (!token.includes('/') && token.indexOf('@', 1) === -1) start++;
  }
  if (end - start < 2 || end - start > MAX_TOKEN_LENGTH) return;
  classify(text, source, start, end, flags, out, depth, memo);
}

/**
 * Whether the classifiers find nothing in the raw token `[start, end)` whatever surrounds it, so that it needs neither
 * them nor a memo lookup: without its trailing punctuation it is shorter than two characters, all digits, or a word
 * (`end.`, `Note:`: a letter, then lowercase ones) not called, which no classifier takes without a digit, a special
 * character or an inner capital. About one token in eight of agent transcripts is such a word ending a sentence or label.
 */
function isInert(text: string, start: number, end: number): boolean {
  let stop = end;
  while (stop > start && isTrailing(text.charCodeAt(stop - 1))) stop--;
  if (stop - start < 2) return true;
  const first = text.charCodeAt(start);
  if (first >= 48 && first <= 57) {
    for (let index = start + 1; index < stop; index++) {
      const code = text.charCodeAt(index);
      if (code < 48 || code > 57) return false;
    }
    return true;
  }
  // A word before `()` is a call.
  // (`stop` may be the text's end: no read there, which would deoptimize this.)
  const called = stop < text.length && text.charCodeAt(stop) === 40;
  if (!((first >= 65 && first <= 90) || (first >= 97 && first <= 122)) || called) return false;
  for (let index = start + 1; index < stop; index++) {
    const code = text.charCodeAt(index);
    if (code < 97 || code > 122) return false;
  }
  return true;
}

/**
 * {@link classifyToken} at depth 0 through the token memo `memo` (see `token-memo.ts`), or without one when undefined;
 * `masked`: `source` when not the view.
 */
function classifyMemoized(
  text: string,
  source: string,
  start: number,
  end: number,
  flags: number,
  out: Candidate[],
  masked: string | undefined,
  memo: TokenMemo | undefined,
): void {
  // A one-character token is trimmed to nothing or too short: cheaper than a memo lookup.
  if (end - start < 2) return classifyToken(text, source, start, end, out, 0, undefined, flags);
  if (isInert(text, start, end)) return;
  if (memo === undefined) return classifyToken(text, source, start, end, out, 0, undefined, flags);
  const from = memoKeyStart(text, masked, start, end);
  if (from === -1) return classifyWide(text, source, start, end, flags, out, memo);
  const to = memoKeyEnd(text, end);
  if (memo.replay(text, from, to, start, out)) return;
  const first = out.length;
  memo.begin();
  classifyToken(text, source, start, end, out, 0, memo, flags);
  memo.remember(text, from, to, start, out, first);
}

/** {@link classifyMemoized} for a token with no stretch key: through its {@link wideMemoKey}. */
function classifyWide(
  text: string,
  source: string,
  start: number,
  end: number,
  flags: number,
  out: Candidate[],
  memo: TokenMemo,
): void {
  const key = wideMemoKey(text, source, start, end);
  if (key === undefined) return classifyToken(text, source, start, end, out, 0, undefined, flags);
  if (memo.replay(key, 0, key.length, start, out, true)) return;
  const first = out.length;
  memo.begin();
  classifyToken(text, source, start, end, out, 0, memo, flags);
  memo.remember(key, 0, key.length, start, out, first, true);
}

/** Runs the token pass over the whole text, pushing candidates to `out`. */
export function findTokenHandles(text: string, phrases: TokenPhrases, out: Candidate[]): void {
  let dateEnd = -1;
  const source = phrases.source ?? text;
  // Compared once here: the memo needs to know whether the verbatim text differs from the view.
  const masked = source === text ? undefined : source;
  const { memo } = phrases;
  scanTokens(text, (start, end, flags) => {
    const code = text.charCodeAt(start);
    classifyMemoized(text, source, start, end, flags, out, masked, memo);
    const second = text.charCodeAt(start + 1);
    if ((code >= 48 && code <= 57) || (code === 118 && second >= 48 && second <= 57)) {
      let stop = end;
      while (stop > start && isTrailing(text.charCodeAt(stop - 1))) stop--;
      matchProductVersionAt(text, start, stop, out);
      if (code === 118) return;
      if (start >= dateEnd) dateEnd = Math.max(dateEnd, matchWordDateAt(text, start, stop, out));
      if (phrases.numbers) matchNumberAt(text, start, out);
    } else if (code === 47 && matchMethodRouteAt(text, start, out) === -1) matchRoutePatternAt(text, start, out);
  });
}
