/**
 * Header and trailer names at a line start: `Co-Authored-By: Claude <…>`, `Content-Security-Policy: default-src …`,
 * `X-Request-Id: …`. The name is an identifier (a program reads it back by that exact spelling) even when its value is
 * prose that no config-line rule accepts; every part capitalised, two parts or more, so `Follow-up: …` and
 * `Re-run: …` stay words.
 */
import type { Candidate } from './candidate.js';
import { isUpperCode } from './char-classes.js';

const HEADER_KEY = /[ \t]*((?:X|[A-Z][a-z]+)(?:-[A-Z][a-z]*|-[A-Z]+)+):[ \t]+\S/y;

/** Pushes the header name of the line starting at `lineStart`, when it is one; returns whether it did. */
export function matchHeaderKey(text: string, lineStart: number, out: Candidate[]): boolean {
  // The name starts with a capital after the indentation.
  let first = lineStart;
  while (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9) first++;
  if (!isUpperCode(text.charCodeAt(first))) return false;
  HEADER_KEY.lastIndex = lineStart;
  const match = HEADER_KEY.exec(text);
  if (match === null) return false;
  const key = match[1] ?? '';
  const start = lineStart + match[0].indexOf(key);
  out.push({ kind: 'identifier', start, end: start + key.length });
  return true;
}
