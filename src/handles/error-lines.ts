/**
 * Error-line detection. The handle is the whole line, trimmed: exception lines
 * (`TypeError: …`, `java.lang.X: …`, a bare `RuntimeError`, the last line of a Python
 * traceback), `Error:`/`error[E0382]:`/`FATAL:`/`fatal:`/`panic:` prefixes, `npm ERR!`,
 * errno lines (`ENOENT: …`), pytest `E   …` and `FAILED …`, compiler diagnostics (`src/a.ts(4,21): error TS2307`),
 * eslint rows, log lines at level ERROR/FATAL/CRITICAL or `level=error`, `curl: (7) …`,
 * `HTTP/1.1 5xx`, `Caused by:`, Rust panics and shell failures (`command not found`,
 * `No such file or directory`, `Permission denied`). Prose that mentions an error does not count.
 */
import type { Candidate } from './candidate.js';
import { isAlphanumericCode } from './char-classes.js';

const ERROR_LINE = new RegExp(
  '[ \\t]*(?:' +
    [
      '(?:Uncaught |Unhandled )?(?:[A-Za-z_$][\\w$]*\\.)*[A-Z][\\w$]*(?:Error|Exception|Fault)(?:[ \\t]*$|:|[ \\t]*\\[)',
      '(?:[a-z_]\\w*\\.)+[A-Z]\\w*: ',
      'Exception: ',
      'E[A-Z]{3,}(?:_[A-Z]+)?: ',
      '(?:Error|ERROR|error|FATAL|Fatal|fatal|PANIC|panic|CRITICAL)(?:[ \\t]*\\[[^\\]\\n]*\\])?:',
      'Error response from daemon',
      'npm (?:ERR!|error) ',
      'E {2,}\\S',
      'FAILED ',
      'Exception in thread ',
      'Caused by: ',
      'Segmentation fault',
      "thread '[^'\\n]*' panicked",
      'curl: \\(\\d+\\)',
      'HTTP\\/[\\d.]+ [45]\\d\\d\\b',
      '[\\w.-]+: (?:error|fatal|ERROR|FATAL):',
      '[^\\s:()]+(?:\\(\\d+,\\d+\\)|:\\d+:\\d+)(?: -)?:? error\\b',
      '\\d+:\\d+ +error ',
      // up to three `[tag] ` or timestamp prefixes, then a level word or a bracketed level
      '(?:\\[[^\\]\\n]{1,40}\\] *|\\d{4}-\\d\\d-\\d\\d[T ][\\d:.,]+(?:Z|[+-]\\d\\d:?\\d\\d)? +){0,3}' +
        '(?:(?:ERROR|FATAL|CRITICAL)\\b|\\[(?:ERROR|FATAL|CRITICAL|error|fatal)\\])',
    ].join('|') +
    ')',
  'my',
);

/** Markers that make a whole line an error wherever they appear in it. */
const INLINE_MARKERS = [
  'level=error',
  'level=fatal',
  'level=ERROR',
  'level=FATAL',
  ': command not found',
  ': No such file or directory',
  ': Permission denied',
];
const INLINE_TAIL = /^(?:level=\w+\b|: [A-Za-z ]+[ \t\r]*$)/;
const SHELL_PREFIX = /^[ \t]*[\w.-]+: /;

/**
 * Marks the lines holding an inline error marker (`level=error`, `…: command not found`);
 * returns the set of their start offsets. Uses `indexOf`, not a per-line regex.
 */
export function findInlineErrorLines(text: string): Set<number> {
  const lines = new Set<number>();
  const levels = text.includes('level=');
  for (const marker of INLINE_MARKERS) {
    if (!levels && marker.startsWith('level')) continue;
    for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length)) {
      const lineStart = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
      let lineEnd = text.indexOf('\n', at);
      if (lineEnd === -1) lineEnd = text.length;
      const tail = text.slice(at, lineEnd);
      if (!INLINE_TAIL.test(tail)) continue;
      if (marker.startsWith(':') && !SHELL_PREFIX.test(text.slice(lineStart, at + 2))) continue;
      if (marker.startsWith('level') && /\w/.test(text[at - 1] ?? '')) continue;
      lines.add(lineStart);
    }
  }
  return lines;
}

function mayStartAlternative(code: number): boolean {
  return isAlphanumericCode(code) || code === 95 || code === 36 || code === 91 || code === 46 || code === 45;
}

/**
 * What every match of {@link ERROR_LINE} holds one of, in lower case (a match never leaves its line): an error, level or
 * exception word (`Error`, `FATAL`, `panicked`, `Fault`), `npm `, pytest's `E  `, `FAILED `, `HTTP/`, `Caused by: `,
 * `curl: `. The other alternatives hold `: ` after a dotted name (`java.io.X: `) or after an errno (`ENOENT: `).
 */
const ERROR_WORDS = /error|exception|fault|fatal|panic|critical|npm |e {2}|failed |http\/|caused by: |curl: /i;
const ERRNO = /E[A-Z]{3}/;

/**
 * Whether the line `[first, lineEnd)` holds what every match of {@link ERROR_LINE} holds (see {@link ERROR_WORDS}: a
 * short pattern of literals, cheap to compile, and faster on long tool output than lower-casing every line).
 */
function holdsErrorWords(line: string): boolean {
  return ERROR_WORDS.test(line) || (line.includes(': ') && (line.includes('.') || ERRNO.test(line)));
}

/**
 * Whether {@link ERROR_LINE} can match the line: every alternative but one starts with a letter, digit, `_`, `$`,
 * `[`, `.` or `-` after the indentation, and that one (a compiler diagnostic) holds ` error`; every one holds one of
 * {@link ERROR_WORDS} (compiling the pattern costs a short text more than reading it).
 */
function mayBeErrorLine(text: string, lineStart: number, lineEnd: number): boolean {
  let first = lineStart;
  while (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9) first++;
  const line = text.slice(first, lineEnd);
  return (mayStartAlternative(text.charCodeAt(first)) || line.includes(' error')) && holdsErrorWords(line);
}

/**
 * Matches the line `[lineStart, lineEnd)` as an error line (or accepts it because
 * `inline` holds it); the candidate spans the trimmed line.
 */
export function matchErrorLine(
  text: string,
  lineStart: number,
  lineEnd: number,
  inline: ReadonlySet<number>,
  out: Candidate[],
): boolean {
  ERROR_LINE.lastIndex = lineStart;
  const marked = inline.size > 0 && inline.has(lineStart);
  if (!marked && !(mayBeErrorLine(text, lineStart, lineEnd) && ERROR_LINE.test(text))) return false;
  let start = lineStart;
  let end = lineEnd;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
  if (end > start) out.push({ kind: 'error', start, end });
  return end > start;
}
