/**
 * Assignment detection. Tokens: `KEY=VALUE`, `--flag=value`, `key="quoted value"` anywhere
 * in text (not `==`, `=>`, and not query strings inside URLs). Lines: YAML/INI/JSON-like
 * config lines — `key: value`, `"key": value`, `key = scalar` — where prose is excluded:
 * a capitalised key (`Note:`) needs a single handle-like value (`Host: db.internal`), a
 * lowercase key at most two words of value, and `Error:`/`TODO:`-style keys never count (nor a
 * test assertion's `expected: 4` / `actual: 0`: a failure's detail, no setting); a
 * value that opens a block (`content: %{`, `opts: [`) or repeats its key (`id: id`) is code. A
 * named constant's declaration (`const retryWindow = 30 * time.Second`) binds its name to a scalar or a product.
 */
import type { Candidate } from './candidate.js';
import { isAlphanumericCode, isLetterCode } from './char-classes.js';

/** Longest quoted value an assignment may carry. */
const MAX_QUOTED = 400;
const KEY = /^(?:--?)?[A-Za-z_][\w.-]*$/;
const CONFIG_LINE = /([ \t]*(?:[-*][ \t]+)?)("?)([A-Za-z_][\w.-]*)\2[ \t]*(:[ \t]+|[ \t]+=[ \t]*)([^\n]*)/y;
const SCALAR = /^(?:[-+]?\d[\w.,%]*|"[^"]*"|'[^']*'|true|false|yes|no|on|off|null|none|True|False|None)$/;
const HANDLE_LIKE = /[\d/._@:=-]/;
const PROSE_KEYS: ReadonlySet<string> = new Set(
  (
    'error fatal panic warning warn note todo hint tip summary update important caused exception fixme ' +
    'nb ps q a re fyi step answer question example output input result reason cause fix problem solution errors ' +
    'expected actual received got want'
  ).split(' '),
);

/** Key and value ranges of a `KEY=VALUE` token, with the assignment's end. */
export interface AssignmentToken {
  /** End of the key (offset of the `=`). */
  readonly keyEnd: number;
  /** Start of an unquoted value, or -1 when the value is quoted. */
  readonly valueStart: number;
  /** End of the whole assignment (after a closing quote when quoted). */
  readonly end: number;
}

const LIST_ITEM = /,[^\s,;`"'()[\]{}<>|]+/y;

/** Extends an unquoted value over `,item` continuations (`a=x:1,y:2`). */
function listEnd(text: string, end: number): number {
  let stop = end;
  for (;;) {
    LIST_ITEM.lastIndex = stop;
    if (!LIST_ITEM.test(text) || LIST_ITEM.lastIndex - end > MAX_QUOTED) return stop;
    stop = LIST_ITEM.lastIndex;
  }
}

/** Longest `$(command)` an assignment may carry. */
const MAX_SUBSTITUTION = 120;

/**
 * The end (after its `)`) of the `$(…)` whose `(` is at `open`, on one line and within MAX_SUBSTITUTION characters. A
 * command that chains commands outside quotes (`|`, `;`, `&&`, `||`) is none: the value would run on through a pipeline
 * (`src=$(echo "$x" | jq -r .a)`), holding the ` | ` a handle list separates handles with, and say no more than its name.
 */
function substitutionEnd(text: string, open: number): number | undefined {
  if (text.charCodeAt(open) !== 40) return undefined;
  let depth = 0;
  let quote = 0;
  for (let at = open; at < text.length && at - open < MAX_SUBSTITUTION; at++) {
    const code = text.charCodeAt(at);
    if (code === 10) return undefined;
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === 34 || code === 39) quote = code;
    else if (code === 124 || code === 59 || (code === 38 && text.charCodeAt(at + 1) === 38)) return undefined;
    else if (code === 40) depth++;
    else if (code === 41 && --depth === 0) return at + 1;
  }
  return undefined;
}

/** A dotted name: `models.Max`, `np.arange`. */
const DOTTED_VALUE = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/;

/** Matches the token `text.slice(start, end)` as `KEY=VALUE`; `undefined` if it is not one. */
export function matchAssignmentToken(text: string, start: number, end: number): AssignmentToken | undefined {
  const eq = text.indexOf('=', start);
  if (eq === -1 || eq >= end || eq - start < 1) return undefined;
  const next = text.charCodeAt(eq + 1);
  if (next === 61 || next === 62) return undefined;
  const key = text.slice(start, eq);
  if (!KEY.test(key)) return undefined;
  // A one-letter key only with a dotted name as its value (`m=models.Max`, `x=np.arange`), not `a=b` or `i=0`.
  if (key.replace(/^-+/, '').length < 2 && !(key.length === 1 && DOTTED_VALUE.test(text.slice(eq + 1, end))))
    return undefined;
  // A shell command substitution (`blob=$(git …)` scans as `blob=$`): the whole `name=$(command)` when it closes on
  // its line within MAX_SUBSTITUTION characters (what the name is set from), else no assignment (`blob=$` says nothing).
  if (eq + 2 === end && text.charCodeAt(eq + 1) === 36) {
    const close = substitutionEnd(text, end);
    return close === undefined ? undefined : { keyEnd: eq, valueStart: -1, end: close };
  }
  if (eq + 1 < end) return { keyEnd: eq, valueStart: eq + 1, end: listEnd(text, end) };
  const quote = text[end];
  if (end !== eq + 1 || (quote !== '"' && quote !== "'")) return undefined;
  const window = text.slice(end + 1, end + 1 + MAX_QUOTED);
  const close = window.indexOf(quote);
  if (close === -1 || window.lastIndexOf('\n', close) !== -1) return undefined;
  return { keyEnd: eq, valueStart: -1, end: end + close + 2 };
}

function valueEnd(value: string, equals: boolean): number {
  let cut = value.length;
  if (!value.startsWith('"') && !value.startsWith("'")) {
    const comment = value.search(/\s#/);
    if (comment !== -1) cut = comment;
  }
  let trimmed = value.slice(0, cut).trimEnd();
  if (!equals && trimmed.endsWith(',')) trimmed = trimmed.slice(0, -1).trimEnd();
  return trimmed.length;
}

function acceptsValue(key: string, quoted: boolean, equals: boolean, value: string): boolean {
  if (value.length === 0 || PROSE_KEYS.has(key.toLowerCase()) || /(?:Error|Exception|Warning|Fault)$/.test(key))
    return false;
  if (equals || quoted) return SCALAR.test(value) || PRODUCT.test(value) || (quoted && /^[[{].*[\]}]$/.test(value));
  if (/^[[{]/.test(value) && !/[\]}]$/.test(value)) return false;
  if (/^[|>][-+]?$/.test(value)) return false;
  if (/[[{(]$|^%/.test(value) || value === key) return false;
  const first = key.charCodeAt(0);
  if (first >= 65 && first <= 90) return !/\s/.test(value) && HANDLE_LIKE.test(value);
  if (/^["'].*["']$/.test(value)) return true;
  return value.split(/\s+/).length <= 2;
}

function isBlankCode(code: number): boolean {
  return code === 32 || code === 9;
}

function isKeyCode(code: number): boolean {
  return isAlphanumericCode(code) || code === 95 || code === 46 || code === 45;
}

/**
 * Whether the line at `lineStart` has the shape {@link CONFIG_LINE} needs before its value: indentation, an optional
 * `-`/`*` bullet and its blanks, a key (optionally in double quotes), blanks, then `:` and a blank, or blanks and `=`.
 * The key is the longest run of key characters (a shorter one would have to be followed by a quote, a blank or a
 * separator, which are no key characters), so this walk decides exactly what the regex decides, without it.
 */
function reachesSeparator(text: string, lineStart: number): boolean {
  let index = lineStart;
  while (isBlankCode(text.charCodeAt(index))) index++;
  let code = text.charCodeAt(index);
  if (code === 45 || code === 42) {
    if (!isBlankCode(text.charCodeAt(++index))) return false;
    while (isBlankCode(text.charCodeAt(index))) index++;
    code = text.charCodeAt(index);
  }
  const quoted = code === 34;
  if (quoted) code = text.charCodeAt(++index);
  if (!(isLetterCode(code) || code === 95)) return false;
  while (isKeyCode(text.charCodeAt(++index)));
  if (quoted && text.charCodeAt(index++) !== 34) return false;
  const blanks = index;
  while (isBlankCode(text.charCodeAt(index))) index++;
  code = text.charCodeAt(index);
  if (code === 58) return isBlankCode(text.charCodeAt(index + 1));
  return code === 61 && index > blanks;
}

/**
 * A measure written as a product (`10 * time.Minute`, `30 * 60`, `4 * units.MiB`): a number times numbers or unit
 * names. What a named constant is set to in code is often one: the value a reader needs, with its unit.
 */
const PRODUCT = /^\d[\d_.]*(?:[ \t]*\*[ \t]*(?:\d[\d_.]*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?))+$/;

/**
 * A named constant's declaration line (`const retryWindow = 30 * time.Second`, `export const MAX_ROWS = 500;`,
 * `let limit: number = 20`): the keyword is left out, the name and its scalar or product value are the assignment.
 */
const DECLARATION =
  /[ \t]*(?:export[ \t]+)?(?:const|let|var|val|final)[ \t]+([A-Za-z_]\w*)(?:[ \t]*:[ \t]*[\w.]+)?[ \t]+=[ \t]+([^\n;]*)/y;

/** Matches the line starting at `lineStart` as a named constant's declaration (see {@link DECLARATION}). */
function matchDeclaration(text: string, lineStart: number, out: Candidate[]): boolean {
  DECLARATION.lastIndex = lineStart;
  const match = DECLARATION.exec(text);
  if (match === null) return false;
  const [whole, name = '', rawValue = ''] = match;
  const value = rawValue.slice(0, valueEnd(rawValue.replace(/\r$/, '').replace(/[ \t]*\/\/.*$/, ''), true));
  if (name.length < 2 || !(SCALAR.test(value) || PRODUCT.test(value))) return false;
  const start = lineStart + whole.lastIndexOf(name, whole.length - rawValue.length);
  out.push({ kind: 'assignment', start, end: lineStart + whole.length - rawValue.length + value.length });
  return true;
}

/** Matches the line starting at `lineStart` as a config-style `key: value` / `key = value` line. */
export function matchConfigLine(text: string, lineStart: number, out: Candidate[]): boolean {
  if (!reachesSeparator(text, lineStart)) return matchDeclaration(text, lineStart, out);
  CONFIG_LINE.lastIndex = lineStart;
  const match = CONFIG_LINE.exec(text);
  if (match === null) return false;
  const [, prefix = '', quote = '', key = '', separator = '', rawValue = ''] = match;
  const value = rawValue.replace(/\r$/, '');
  const equals = separator.includes('=');
  const length = valueEnd(value, equals);
  if (!acceptsValue(key, quote !== '', equals, value.slice(0, length))) return false;
  const valueStart = lineStart + match[0].length - rawValue.length;
  out.push({ kind: 'assignment', start: lineStart + prefix.length, end: valueStart + length });
  return true;
}

/**
 * Whether a value lies inside an assignment (`KEY=value`, `key: value`), for values asked about in order of start: a
 * sweep over the assignments sorted by start, keeping the furthest end of those starting at or before the value.
 */
export function insideAssignment(candidates: readonly Candidate[]): (value: Candidate) => boolean {
  const assignments = candidates
    .filter((candidate) => candidate.kind === 'assignment')
    .sort((a, b) => a.start - b.start);
  let next = 0;
  let furthest = -Infinity;
  return (value) => {
    while (next < assignments.length && (assignments[next] as Candidate).start <= value.start)
      furthest = Math.max(furthest, (assignments[next++] as Candidate).end);
    return furthest >= value.end;
  };
}
