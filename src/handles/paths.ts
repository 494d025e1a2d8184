/**
 * Path detection for one token. A token is a path when it is absolute (`/etc/x`), a
 * Windows path (`C:\x`), prefixed (`./x`, `../x`, `~/x`), a relative path whose last
 * segment has a known extension or whose first segment is a known directory, a
 * trailing-slash directory (`dist/`), or a bare file name with a known extension
 * (`package.json`). A `:line[:col]` suffix is not part of the path handle; a pytest
 * `::test_name` suffix becomes a separate identifier.
 */
import { FILE_EXTENSIONS, JS_LIBRARY_NAMES, KNOWN_DIRS, KNOWN_DOTFILES } from './lexicon.js';

const WINDOWS = /^[A-Za-z]:[\\/][\w.@+~*%\\/-]*$/;
const ABSOLUTE = /^\/[\w.@+~*%-]+(?:\/[\w.@+~*%-]+)*\/?$/;
const PREFIXED = /^(?:\.\.?|~)\/[\w.@+~*%/-]+$/;
const RELATIVE = /^[\w.@+~*%-]+(?:\/[\w.@+~*%-]+)*\/?$/;
const FILENAME = /^\.?[\w@+~-][\w.@+~-]*\.([A-Za-z0-9]+)$/;
const LINE_SUFFIX = /(?::\d+)+$/;
const PYTEST_SUFFIX = /::[\w[\]-]+(?:::[\w[\]-]+)*$/;
const HAS_LETTER = /[A-Za-z]/;
const NOT_FILES: ReadonlySet<string> = new Set(['process.env', 'import.meta', 'module.exports']);

/** Where a path sits inside a token, and an optional pytest member after it. */
export interface PathMatch {
  /** Length of the path part from the token start. */
  readonly length: number;
  /** Offset of a `::member` name (after the `::`) inside the token, if any. */
  readonly memberStart?: number;
}

function extensionOf(segment: string): string | undefined {
  const dot = segment.lastIndexOf('.');
  return dot > 0 || (dot === 0 && segment.length > 1) ? segment.slice(dot + 1).toLowerCase() : undefined;
}

function isFileName(token: string): boolean {
  if (KNOWN_DOTFILES.has(token)) return true;
  if (!FILE_EXTENSIONS.has(token.slice(token.lastIndexOf('.') + 1).toLowerCase())) return false;
  const match = FILENAME.exec(token);
  if (match === null || !FILE_EXTENSIONS.has((match[1] ?? '').toLowerCase())) return false;
  if (NOT_FILES.has(token)) return false;
  const dot = token.indexOf('.');
  const name = token.slice(0, dot);
  if (token.slice(dot) === '.js' && JS_LIBRARY_NAMES.has(name)) return false;
  return HAS_LETTER.test(name) || token.startsWith('.');
}

function isPathBody(body: string): boolean {
  if (body.length < 2) return false;
  if (WINDOWS.test(body) || PREFIXED.test(body)) return true;
  if (body.startsWith('//')) return false;
  if (ABSOLUTE.test(body)) {
    const second = body.indexOf('/', 1);
    const first = body.slice(1, second === -1 ? undefined : second);
    return HAS_LETTER.test(first) && (first.length > 1 || second !== -1);
  }
  if (!body.includes('/')) return isFileName(body);
  if (!RELATIVE.test(body)) return false;
  const segments = body.split('/');
  const first = segments[0] ?? '';
  if (!HAS_LETTER.test(first)) return false;
  if (body.endsWith('/')) return true;
  const last = segments[segments.length - 1] ?? '';
  const extension = extensionOf(last);
  if (
    extension !== undefined &&
    FILE_EXTENSIONS.has(extension) &&
    HAS_LETTER.test(last.slice(0, -extension.length - 1) || 'x')
  )
    return true;
  return KNOWN_DIRS.has(first);
}

/** Matches a (trimmed) token as a path; returns how much of it is the path, or `undefined`. */
export function matchPath(token: string): PathMatch | undefined {
  let body = token;
  let memberStart: number | undefined;
  const pytest = token.includes('::') ? PYTEST_SUFFIX.exec(token) : null;
  if (pytest !== null) {
    body = token.slice(0, pytest.index);
    memberStart = pytest.index + 2;
  } else if (token.includes(':')) {
    const line = LINE_SUFFIX.exec(token);
    if (line !== null) body = token.slice(0, line.index);
  }
  if (!isPathBody(body)) return undefined;
  if (memberStart !== undefined && extensionOf(body) === undefined) return undefined;
  return memberStart === undefined ? { length: body.length } : { length: body.length, memberStart };
}
