/**
 * The line pass: walks the text line by line, trying error lines and config lines (or, when the
 * value is not config-like, a header name: `Co-Authored-By:`) at each line start. Lines of a
 * line-numbered dump (gutter lines) are code or file content, not config or error output of
 * their own, and are skipped.
 */
import { matchConfigLine } from './assignments.js';
import type { Candidate } from './candidate.js';
import { findInlineErrorLines, matchErrorLine } from './error-lines.js';
import { matchHeaderKey } from './header-keys.js';

/** Which line detectors to run. */
export interface LineDetectors {
  /** Error lines. */
  readonly errors: boolean;
  /** Config-style assignment lines. */
  readonly config: boolean;
  /** Start offsets of gutter lines, which are skipped. */
  readonly gutterLines?: ReadonlySet<number> | undefined;
}

/** Runs the line detectors over every non-blank line of `text`. */
export function findLineHandles(text: string, detectors: LineDetectors, out: Candidate[]): void {
  const inline = detectors.errors ? findInlineErrorLines(text) : new Set<number>();
  const gutters = detectors.gutterLines?.size === 0 ? undefined : detectors.gutterLines;
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    let first = lineStart;
    while (first < lineEnd && (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9)) first++;
    if (first < lineEnd && (gutters === undefined || !gutters.has(lineStart))) {
      if (detectors.errors) matchErrorLine(text, lineStart, lineEnd, inline, out);
      if (detectors.config && !matchConfigLine(text, lineStart, out)) matchHeaderKey(text, lineStart, out);
    }
    lineStart = lineEnd + 1;
  }
}
