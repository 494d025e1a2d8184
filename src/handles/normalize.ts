/**
 * Normalised keys for dedup and lookup. A key is only for matching; a handle's stored
 * `text` is never altered. Every key is trimmed of surrounding whitespace, wrapping quotes,
 * backticks and brackets, and trailing `.,;:!?`. Then, per kind:
 *
 * - `path`: leading `./` and a `:line[:col]` suffix removed, trailing `/` removed; case kept.
 * - `url`: scheme and host lowercased, trailing `/` removed.
 * - `endpoint`: lowercased, except an HTTP method + route (method uppercased, route kept).
 * - `identifier`: a leading `$` and trailing `()` removed; UUIDs and hex hashes lowercased;
 *   other identifiers keep their case (`userId` ≠ `UserId`).
 * - `version`: lowercased, whitespace collapsed, a leading `v` before a digit removed.
 * - `assignment`: JSON quotes around the key removed, whitespace around `=` removed, other
 *   whitespace collapsed; case kept.
 * - `number`, `date`, `email`: whitespace collapsed, lowercased.
 * - `constraint`: whitespace collapsed, curly apostrophes straightened, lowercased
 *   (a prohibition means the same at the start of a sentence and inside one).
 * - `error`: whitespace collapsed; case kept.
 */
import type { HandleKind } from '../types.js';
import { HANDLE_KINDS } from '../types.js';

const PAIRS: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '`': '`',
  '(': ')',
  '[': ']',
  '<': '>',
  '{': '}',
  '“': '”',
  '‘': '’',
};
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;
const HEX_LIKE =
  /^(?:sha\d{1,3}:)?[0-9a-fA-F]{7,128}$|^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const METHOD_ROUTE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(\S+)$/i;

/** Char codes of the opening characters of {@link PAIRS}, and of a space, tab and line feed. */
const OPENING_CODES: ReadonlySet<number> = new Set(
  [...Object.keys(PAIRS), ' ', '\t', '\n'].map((char) => char.charCodeAt(0)),
);

/** A first character {@link HEX_LIKE} allows: a hex digit, or the `s` of `sha256:`. */
function isHexStart(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102) || code === 115;
}

function isPlainEdge(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  if (OPENING_CODES.has(text.charCodeAt(0))) return false;
  return !(last === 46 || last === 44 || last === 59 || last === 58 || last === 33 || last === 63 || last <= 32);
}

function unwrap(text: string): string {
  if (isPlainEdge(text)) return text;
  let value = text.trim();
  for (;;) {
    const before = value;
    value = value.replace(TRAILING_PUNCTUATION, '').trim();
    const close = PAIRS[value[0] ?? ''];
    if (close !== undefined && value.length >= 2 && value.endsWith(close)) value = value.slice(1, -1).trim();
    if (value === before) return value;
  }
}

/**
 * Whether `text` may hold a whitespace run or a tab, line feed or other control space: it holds a character below the
 * space, above U+007F (the other spaces), or two spaces in a row. A cheap test before {@link COLLAPSIBLE}.
 */
function mayCollapse(text: string): boolean {
  let space = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 || code > 127 || (space && code === 32)) return true;
    space = code === 32;
  }
  return false;
}

const COLLAPSIBLE = /\s\s|[\t\n\r\f\v]/;

function collapse(text: string): string {
  return mayCollapse(text) && COLLAPSIBLE.test(text) ? text.replace(/\s+/g, ' ') : text;
}

function pathKey(value: string): string {
  let key = value;
  while (key.startsWith('./')) key = key.slice(2);
  if (key.includes(':')) key = key.replace(/(?::\d+)+$/, '');
  return key.length > 1 && key.endsWith('/') ? key.replace(/\/+$/, '') : key;
}

function urlKey(value: string): string {
  const scheme = value.indexOf('://');
  const hostStart = scheme === -1 ? 0 : scheme + 3;
  const slash = value.indexOf('/', hostStart);
  const hostEnd = slash === -1 ? value.length : slash;
  const key = value.slice(0, hostEnd).toLowerCase() + value.slice(hostEnd);
  return key.endsWith('/') ? key.replace(/\/+$/, '') : key;
}

/** The normalised key of a handle of `kind` with verbatim `text` (see the module notes). */
export function handleKey(kind: HandleKind, text: string): string {
  const value = unwrap(text);
  switch (kind) {
    case 'path':
      return pathKey(value);
    case 'url':
      return urlKey(value);
    case 'endpoint': {
      const route = METHOD_ROUTE.exec(value);
      return route === null ? value.toLowerCase() : `${(route[1] ?? '').toUpperCase()} ${route[2] ?? ''}`;
    }
    case 'identifier': {
      let key = value.startsWith('$') ? value.slice(1) : value;
      if (key.endsWith('()')) key = key.slice(0, -2);
      return key.length >= 7 && isHexStart(key.charCodeAt(0)) && HEX_LIKE.test(key) ? key.toLowerCase() : key;
    }
    case 'version':
      return collapse(value)
        .toLowerCase()
        .replace(/^v(?=\d)/, '');
    case 'assignment':
      return collapse(value.replace(/^"([^"]+)"(\s*:)/, '$1$2').replace(/\s*=\s*/, '='));
    case 'constraint':
      return collapse(value).replace(/[’‘]/g, "'").toLowerCase();
    case 'error':
      return collapse(value);
    default:
      return collapse(value).toLowerCase();
  }
}

/**
 * The keys a recall query could match: the query normalised under every handle kind,
 * deduplicated, in `HANDLE_KINDS` order. `lookupKeys('./src/a.ts')` includes `src/a.ts`.
 */
export function lookupKeys(query: string): string[] {
  const keys: string[] = [];
  for (const kind of HANDLE_KINDS) {
    const key = handleKey(kind, query);
    if (key.length > 0 && !keys.includes(key)) keys.push(key);
  }
  return keys;
}
