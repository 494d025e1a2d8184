/**
 * Path detection for one token. A token is a path when it is absolute (`/etc/x`), a
 * Windows path (`C:\x`), prefixed (`./x`, `../x`, `~/x`), a relative path whose last
 * segment has a known extension or whose first segment is a known directory, a
 * trailing-slash directory (`dist/`), or a bare file name with a known extension
 * (`package.json`), also with a copy suffix (`fitsrec.py.backup`, `.env.example`), or a standard library import path
 * (`encoding/json`, `node:fs/promises`; `std-packages.ts`). A
 * `:line[:col]` suffix is not part of the path handle; a pytest `::test_name` suffix becomes a
 * separate identifier, and neither is the text after a grep `path:` prefix. A bare `Name.ext` is a member, not a file, when it is called
 * (`System.cmd(`) or when a capitalised module meets an extension that is also a common member
 * name (`System.out`, `Logger.log`).
 */
import { FILE_EXTENSIONS, JS_LIBRARY_NAMES, KNOWN_DIRS, KNOWN_DOTFILES } from './lexicon.js';
import { isStdPackagePath } from './std-packages.js';

const WINDOWS = /^[A-Za-z]:[\\/][\w.@+~*%\\/-]*$/;
/** `f:\n`: a Python `with … as f:` (or a `case x:`) before a JSON-escaped line break, not the drive root's `n`. */
const ESCAPED_BREAK = /^[A-Za-z]:\\[nrt]$/;
const ABSOLUTE = /^\/[\w.@+~*%-]+(?:\/[\w.@+~*%-]+)*\/?$/;
const PREFIXED = /^(?:\.\.?|~)\/[\w.@+~*%/-]+$/;
const RELATIVE = /^[\w.@+~*%-]+(?:\/[\w.@+~*%-]+)*\/?$/;
const FILENAME = /^\.?[\w@+~-][\w.@+~-]*\.([A-Za-z0-9]+)$/;
const LINE_SUFFIX = /(?::\d+)+$/;
/** A grep match line's `path:` prefix run into the matched text (`/x/db.py:from`): the path has an extension. */
const GREP_PREFIX = /^[\w./~@+-]+\.[A-Za-z0-9]+(?::\d+)*:[^\d:/\\]/;
const PYTEST_SUFFIX = /::[\w[\]-]+(?:::[\w[\]-]+)*$/;
const HAS_LETTER = /[A-Za-z]/;
const NOT_FILES: ReadonlySet<string> = new Set(['process.env', 'import.meta', 'module.exports', 'console.log']);
/** Suffixes of a copy of a file (`a.py.backup`): the extension before them decides. */
const COPY_SUFFIXES: ReadonlySet<string> = new Set(
  'backup bak orig old new save prev rej swp dist sample example template'.split(' '),
);
/** Extensions that are also common member names, so `Module.ext` is a member access. */
const MEMBER_EXTENSIONS: ReadonlySet<string> = new Set('cmd log out err key lock env db tmp pub in so'.split(' '));
const MODULE_HEAD = /^[A-Z][A-Za-z0-9]*$/;

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

/** The segment without a copy suffix (`a.py.backup` → `a.py`), or as it is. */
function withoutCopySuffix(segment: string): string {
  const dot = segment.lastIndexOf('.');
  if (dot <= 0 || !COPY_SUFFIXES.has(segment.slice(dot + 1).toLowerCase())) return segment;
  const inner = segment.slice(0, dot);
  return KNOWN_DOTFILES.has(inner) || FILE_EXTENSIONS.has(extensionOf(inner) ?? '') ? inner : segment;
}

function isFileName(whole: string): boolean {
  const token = withoutCopySuffix(whole);
  if (KNOWN_DOTFILES.has(token)) return true;
  if (!FILE_EXTENSIONS.has(token.slice(token.lastIndexOf('.') + 1).toLowerCase())) return false;
  const match = FILENAME.exec(token);
  if (match === null || !FILE_EXTENSIONS.has((match[1] ?? '').toLowerCase())) return false;
  if (NOT_FILES.has(token)) return false;
  const dot = token.indexOf('.');
  const name = token.slice(0, dot);
  if (token.slice(dot) === '.js' && JS_LIBRARY_NAMES.has(name)) return false;
  if (token === whole && MODULE_HEAD.test(name) && MEMBER_EXTENSIONS.has(token.slice(dot + 1))) return false;
  return HAS_LETTER.test(name) || token.startsWith('.');
}

function isPathBody(body: string): boolean {
  if (body.length < 2) return false;
  // Each anchored shape is tried only when the first characters allow it.
  const lead = body.charCodeAt(0);
  if (body.charCodeAt(1) === 58 && WINDOWS.test(body)) return !ESCAPED_BREAK.test(body);
  if ((lead === 46 || lead === 126) && PREFIXED.test(body)) return true;
  if (body.startsWith('//')) return false;
  if (lead === 47 && ABSOLUTE.test(body)) {
    const second = body.indexOf('/', 1);
    const first = body.slice(1, second === -1 ? undefined : second);
    return HAS_LETTER.test(first) && (first.length > 1 || second !== -1);
  }
  if (!body.includes('/')) return isFileName(body);
  if (isStdPackagePath(body)) return true;
  if (!RELATIVE.test(body)) return false;
  const segments = body.split('/');
  const first = segments[0] ?? '';
  const last = withoutCopySuffix(segments[segments.length - 1] ?? '');
  const extension = extensionOf(last);
  const name = extension === undefined ? '' : last.slice(0, -extension.length - 1);
  const file = extension !== undefined && FILE_EXTENSIONS.has(extension) && HAS_LETTER.test(name || 'x');
  // A first segment of digits (a sharded store's `3c/8e41d07b52/0/blob_digest.txt`, a dated `2026/02/notes.md`) opens a
  // path only when its last segment names a file: `1/2`, `24/7` and `10/20/30` are numbers.
  if (!HAS_LETTER.test(first)) return /^\d+$/.test(first) && file && HAS_LETTER.test(name);
  if (body.endsWith('/')) return true;
  return file || KNOWN_DIRS.has(first);
}

/**
 * Matches a (trimmed) token as a path; returns how much of it is the path, or `undefined`.
 * `called`: the token is directly followed by `(`, so a bare `name.ext` is a call, not a file.
 */
export function matchPath(token: string, called = false): PathMatch | undefined {
  if (called && !token.includes('/') && !token.includes('\\')) return undefined;
  let body = token;
  let memberStart: number | undefined;
  const pytest = token.includes('::') ? PYTEST_SUFFIX.exec(token) : null;
  if (pytest !== null) {
    body = token.slice(0, pytest.index);
    memberStart = pytest.index + 2;
  } else if (token.includes(':')) {
    const line = LINE_SUFFIX.exec(token);
    if (line !== null) body = token.slice(0, line.index);
    else if (GREP_PREFIX.test(token)) body = token.slice(0, token.indexOf(':'));
  }
  if (!isPathBody(body)) return undefined;
  if (memberStart !== undefined && extensionOf(body) === undefined) return undefined;
  return memberStart === undefined ? { length: body.length } : { length: body.length, memberStart };
}
