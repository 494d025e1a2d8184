/**
 * Identifier detection for one token: UUIDs, hex hashes (≥ 7 hex chars with a digit and a
 * letter, `sha256:` prefix allowed, `a..b` ranges split), tickets (`PAY-4412`, `#1234`,
 * `harbor-kq7.1`), error codes (`E0382`, `TS2307`), ids and regions with a digit
 * (`acct-77f3`, `eu-west-2b`, `worker-3`), `snake_case` / `ENV_VARS`, `camelCase`,
 * multi-hump `PascalCase`, `Class.method`, dotted calls (`os.path.join()`), `module::fn`,
 * `fn()`, `--flags`, `@scope/pkg`, member chains of two or more names (`self.separable`,
 * `django.db.models`, `re.IGNORECASE`; not `e.g`), a one-letter local's exported member (`c.Message`), a package's
 * one- or two-letter type (`testing.T`), numbered names (`sql1`, `Model3`, `python3`),
 * Elixir captures (`String.trim/1`) and capture arguments' members (`&1.kind`), radix literals (`0o644`, `0xff`), MIME types
 * (`application/json`), remote git refs (`origin/main`) and `#1a3a1a` colours.
 * A hyphenated word without a digit (`payments-api`) is an identifier only when it is the whole
 * of a quoted string or code span (`"test-dir"`, `` `payments-api` ``) or a CSS class in a
 * selector (`.transcript-thread {`), or, letters only, a word of a code span or a tool call's command
 * (`code-words.ts`): in prose, `one-time` and `side-by-side` are words. Plain
 * words, brands (`GitHub`, `iPhone`), markdown (`_em_`, `**b**`) and standards (`UTF-8`) are
 * not identifiers.
 */
import type { Candidate } from './candidate.js';
import {
  charClasses,
  HAS_COLON,
  HAS_DIGIT,
  HAS_DOT,
  HAS_HYPHEN,
  HAS_LOWER,
  HAS_PERCENT,
  HAS_SLASH,
  HAS_UNDERSCORE,
  HAS_UPPER,
  isDigitCode,
  isLowerCode,
  isUpperCode,
} from './char-classes.js';
import { BRAND_WORDS, NON_ID_HYPHEN_PREFIXES, NON_TICKET_PREFIXES } from './lexicon.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const HEX = /^(?:sha\d{1,3}:)?[0-9a-f]{7,128}$/;
const HEX_RANGE = /^([0-9a-f]{7,40})\.\.\.?([0-9a-f]{7,40})$/;
const ISSUE = /^#\d+$/;
const TICKET = /^([A-Z][A-Z0-9]{1,9})(?:-\d+)+$/;
const CODE = /^[A-Z]{1,4}\d{3,5}$/;
const FLAG = /^--[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const SCOPED = /^@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*$/;
const MODULE_PATH = /^[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+$/;
// A later part may start with digits when it holds a letter: `migrations.0011_add_field`, not `v1.2`.
const DOTTED = /^[A-Za-z_$][\w$]*(?:\.(?:[A-Za-z_$][\w$]*|\d+[A-Za-z_][\w$]*))+$/;
/** A one-letter local and a lowercase member of three or more characters: `m.value`, `e.args` (not `e.g`, `a.m`). */
const LOCAL_MEMBER = /^[a-z]\.[a-z_][a-z0-9_]{2,}$/;
/** A one-letter local and an exported (capitalised) member, as Go writes them: `c.Message`, `s.Run` (not `a.I`). */
const LOCAL_EXPORTED = /^[a-z]\.[A-Z][A-Za-z0-9_]{2,}$/;
/** A package of three or more letters and a one- or two-letter exported type, as Go writes them: `testing.T`, `testing.TB`. */
const PACKAGE_SHORT_TYPE = /^[a-z][a-z0-9]{2,}\.[A-Z][A-Z0-9]?$/;
/** A name built with a printf placeholder: `get_next_by_%s`, `worker_%d`. */
const PRINTF_NAME = /^[A-Za-z_]\w*_%[sdr]$/;
/** A format spec after a name in a `{…}` replacement field: `{dt.month:02d}`, `{total:>10}`, `{ratio:.2f}`. */
const FORMAT_SPEC = /^:[<>^=+\- #0-9,._]*[bcdeEfFgGnosxX%]?$/;
const SNAKE = /^_*[A-Za-z$][\w$]*$/;
const HYPHENATED = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?:\.\d+)*$/;
const CAMEL = /^[a-z]+[A-Z][A-Za-z0-9]*$/;
const PASCAL = /^[A-Z]+[a-z0-9]{2,}[A-Z][A-Za-z0-9]*$/;
const ACRONYM_WORD = /^[A-Z]{2,}[A-Z][a-z]{2,}(?:[A-Z][A-Za-z0-9]*)?$/;
const JS_LIBRARY = /^[A-Z][A-Za-z0-9]*\.js$/;
const NUMBERED = /^[A-Za-z]{2,}\d{1,4}$/;
const CAPTURE = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*[?!]?)+\/\d$/;
/** A member of an Elixir capture argument: `&1.kind`, `&2.tool_use_id`. */
const CAPTURE_MEMBER = /^&\d\.[a-z_]\w*[?!]?$/;
const MIME = /^(?:application|text|image|audio|video|multipart|font)\/[a-z0-9][\w.+-]*$/;
const RADIX_LITERAL = /^0(?:o[0-7]{2,}|x[0-9a-fA-F]{2,}|b[01]{2,})$/;
/** A name stamped with a date: `2026-01-06-c93f3533`, `2026-02-10T23-57-9f5659bb`, `2024-05-01-preview`. */
const DATE_STAMPED = /^(?:19|20)\d{2}-[01]\d-[0-3]\d[-_T](?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;
const GIT_REF =
  /^(?:(?:origin|upstream)\/[\w.-]+|(?:release|releases|feature|hotfix|bugfix|fix|chore|support)\/[\w.]*[\d-][\w.-]*)(?:\/[\w.-]+)*$/;
const COLOUR = /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const KEBAB = /^[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+$/;
const WORD_NAME = /^[A-Za-z_]\w*$/;
const DIGIT = /\d/;
const LETTER = /[a-z]/i;
const MIXED = /^(?=.*\d)(?=.*[a-z])[a-z0-9]+$/;

function isHex(token: string): boolean {
  return (
    HEX.test(token) &&
    DIGIT.test(token.slice(token.indexOf(':') + 1)) &&
    /[a-f]/.test(token.slice(token.indexOf(':') + 1))
  );
}

function isSnake(token: string): boolean {
  if (!token.includes('_') || !SNAKE.test(token) || !LETTER.test(token)) return false;
  // SNAKE holds a non-underscore, so the leading and trailing underscore runs leave an inner part.
  let lead = 0;
  while (token.charCodeAt(lead) === 95) lead++;
  let stop = token.length;
  while (token.charCodeAt(stop - 1) === 95) stop--;
  const innerUnderscore = token.indexOf('_', lead) < stop;
  if (lead === 1 && token.length - stop === 1 && !innerUnderscore) return false;
  return innerUnderscore || lead > 0;
}

function isHyphenatedId(token: string): boolean {
  if (!HYPHENATED.test(token)) return false;
  const dot = token.indexOf('.');
  if (dot !== -1) return true;
  if (!DIGIT.test(token)) return false;
  const segments = token.split('-');
  if (segments.length >= 3 || segments.some((segment) => MIXED.test(segment))) return true;
  const head = segments[0] ?? '';
  return head.length >= 2 && !NON_ID_HYPHEN_PREFIXES.has(head);
}

function isSymbolWord(word: string): boolean {
  // Each shape regex is tried only when the first character allows it; brands are looked up only for a shape.
  const first = word.charCodeAt(0);
  const shaped =
    (isLowerCode(first) && CAMEL.test(word)) ||
    (isUpperCode(first) && (PASCAL.test(word) || ACRONYM_WORD.test(word))) ||
    isSnake(word);
  return shaped && !BRAND_WORDS.has(word) && !word.startsWith('Mc');
}

/**
 * `a.b` member chains: a call, a part that is a symbol, a one-letter local's member (`m.value`), or at least two names
 * of two or more characters (not `e.g`, `U.S`).
 */
function isDottedSymbol(token: string, call: boolean): boolean {
  if (!DOTTED.test(token) || JS_LIBRARY.test(token)) return false;
  if (call) return true;
  if (LOCAL_MEMBER.test(token)) return true;
  if (LOCAL_EXPORTED.test(token) || PACKAGE_SHORT_TYPE.test(token)) return true;
  // Two names of two or more characters decide it without splitting the token.
  let long = 0;
  for (let from = 0; from <= token.length;) {
    let dot = token.indexOf('.', from);
    if (dot === -1) dot = token.length;
    if (dot - from >= 2 && ++long >= 2) return true;
    from = dot + 1;
  }
  return token.split('.').some((part) => isSymbolWord(part));
}

/** The shapes that need no `/`: each regex is tried only when the token's classes, length and first characters allow it. */
function isPlainShape(token: string, classes: number): boolean {
  const first = token.charCodeAt(0);
  const length = token.length;
  if (length === 36 && (classes & HAS_HYPHEN) !== 0 && UUID.test(token)) return true;
  if (length >= 7 && (classes & HAS_DIGIT) !== 0 && (classes & HAS_LOWER) !== 0 && isHex(token)) return true;
  if (first === 35) return ISSUE.test(token) || (COLOUR.test(token) && DIGIT.test(token));
  if (isUpperCode(first)) return length >= 4 && length <= 9 && (classes & HAS_DIGIT) !== 0 && CODE.test(token);
  if (first === 45) return token.charCodeAt(1) === 45 && FLAG.test(token);
  if (first === 48) return RADIX_LITERAL.test(token);
  return length >= 12 && isDigitCode(first) && (classes & HAS_HYPHEN) !== 0 && DATE_STAMPED.test(token);
}

function isWholeIdentifier(token: string, classes: number, call: boolean, emptyCall: boolean): boolean {
  if (isPlainShape(token, classes)) return true;
  if ((classes & HAS_SLASH) !== 0)
    return CAPTURE.test(token) || MIME.test(token) || GIT_REF.test(token) || SCOPED.test(token);
  const first = token.charCodeAt(0);
  const ticket = isUpperCode(first) && (classes & HAS_HYPHEN) !== 0 ? TICKET.exec(token) : null;
  if (ticket !== null) return !NON_TICKET_PREFIXES.has(ticket[1] ?? '');
  if (first === 64 && SCOPED.test(token)) return true;
  if (first === 38 && (classes & HAS_DOT) !== 0 && CAPTURE_MEMBER.test(token)) return true;
  if ((classes & HAS_COLON) !== 0 && token.includes('::') && MODULE_PATH.test(token)) return true;
  if ((classes & HAS_DOT) !== 0) return isDottedSymbol(token, call) || isHyphenatedId(token);
  if ((classes & HAS_HYPHEN) !== 0) return isHyphenatedId(token);
  // A symbol word needs a capital (camel, Pascal, acronym) or an underscore (snake).
  if ((classes & (HAS_UPPER | HAS_UNDERSCORE)) !== 0 && isSymbolWord(token)) return true;
  if ((classes & HAS_DIGIT) !== 0 && isDigitCode(token.charCodeAt(token.length - 1)) && NUMBERED.test(token))
    return true;
  return emptyCall && WORD_NAME.test(token);
}

/** Whether `[start, end)` of the verbatim `source` is the whole of a quoted string or code span (`"x"`, `\\"x\\"`, `` `x` ``). */
export function isQuotedWhole(source: string, start: number, end: number): boolean {
  const before = source[start - 1];
  if (before === '`' || before === "'") return source[end] === before;
  if (before !== '"') return false;
  return source[start - 2] === '\\' ? source[end] === '\\' && source[end + 1] === '"' : source[end] === '"';
}

/**
 * Pushes a hyphenated word (`payments-api`, `Content-Type`) that {@link matchIdentifier} leaves
 * to prose, when the caller has seen it in code: quoted whole, or a CSS class of a selector.
 */
export function matchCodeWord(start: number, end: number, token: string, out: Candidate[]): boolean {
  if (!KEBAB.test(token)) return false;
  out.push({ kind: 'identifier', start, end });
  return true;
}

/**
 * Classifies the token `text.slice(start, end)` as an identifier (extending over a
 * directly following `()`), pushing candidates to `out`; returns whether it matched.
 * A caller that holds the token and its {@link charClasses} already passes them.
 */
export function matchIdentifier(
  text: string,
  start: number,
  end: number,
  out: Candidate[],
  token = text.slice(start, end),
  classes = charClasses(token),
): boolean {
  const range = (classes & HAS_DOT) !== 0 && token.includes('..') ? HEX_RANGE.exec(token) : null;
  if (range !== null) {
    const first = range[1] ?? '';
    const second = range[2] ?? '';
    out.push({ kind: 'identifier', start, end: start + first.length });
    out.push({ kind: 'identifier', start: end - second.length, end });
    return true;
  }
  const colon = (classes & HAS_COLON) !== 0 ? token.indexOf(':') : -1;
  if (colon > 0 && text.charCodeAt(end) === 125 && FORMAT_SPEC.test(token.slice(colon)))
    return matchIdentifier(text, start, start + colon, out);
  const emptyCall = text.charCodeAt(end) === 40 && text.charCodeAt(end + 1) === 41;
  const call = emptyCall || text.charCodeAt(end) === 40;
  if (
    !isWholeIdentifier(token, classes, call, emptyCall) &&
    !((classes & HAS_PERCENT) !== 0 && PRINTF_NAME.test(token))
  )
    return false;
  out.push({ kind: 'identifier', start, end: emptyCall ? end + 2 : end });
  return true;
}
