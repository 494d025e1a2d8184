/**
 * Error-line detection. The handle is the whole line, trimmed: exception lines
 * (`TypeError: …`, `java.lang.X: …`, a bare `RuntimeError`, the last line of a Python
 * traceback), `Error:`/`error[E0382]:`/`FATAL:`/`fatal:`/`panic:` prefixes, `npm ERR!`,
 * pytest `E   …` and `FAILED …`, compiler diagnostics (`src/a.ts(4,21): error TS2307`),
 * eslint rows, log lines at level ERROR/FATAL/CRITICAL or `level=error`, `curl: (7) …`,
 * `HTTP/1.1 5xx`, `Caused by:`, Rust panics and shell failures (`command not found`,
 * `No such file or directory`, `Permission denied`). Prose that mentions an error does not count.
 */
import type { Candidate } from './candidate.js';

const ERROR_LINE = new RegExp(
  '^[ \\t]*(?:' +
    [
      '(?:Uncaught |Unhandled )?(?:[A-Za-z_$][\\w$]*\\.)*[A-Z][\\w$]*(?:Error|Exception|Fault)(?:[ \\t]*$|:|[ \\t]*\\[)',
      '(?:[a-z_]\\w*\\.)+[A-Z]\\w*: ',
      'Exception: ',
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
      '(?:\\[[^\\]\\n]{1,40}\\] *|\\d{4}-\\d\\d-\\d\\d[T ][\\d:.,]+(?:Z|[+-]\\d\\d:?\\d\\d)? +){0,3}(?:(?:ERROR|FATAL|CRITICAL)\\b|\\[(?:ERROR|FATAL|CRITICAL|error|fatal)\\])',
      '(?=[^\\n]*: (?:command not found|No such file or directory|Permission denied)[ \\t\\r]*$)[\\w.-]+: ',
      '(?=[^\\n]*\\blevel=(?:error|fatal|ERROR|FATAL)\\b)',
    ].join('|') +
    ')',
  'gm',
);

/** Finds error lines in the whole text; each candidate spans the trimmed line. */
export function findErrorLines(text: string, out: Candidate[]): void {
  ERROR_LINE.lastIndex = 0;
  for (let match = ERROR_LINE.exec(text); match !== null; match = ERROR_LINE.exec(text)) {
    let start = match.index;
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    ERROR_LINE.lastIndex = end + 1;
    while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
    while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
    if (end > start) out.push({ kind: 'error', start, end });
    if (end >= text.length) break;
  }
}
