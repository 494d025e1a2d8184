/**
 * The file headers of an `apply_patch` body (Codex's edit tool): `*** Update File: src/a.ts`, `*** Add File: …`,
 * `*** Delete File: …`, `*** Move to: …`. The header names the file the patch edits: it is a path, whatever its shape
 * (`Makefile` has no separator a path detector would see), and no `label: value` binding (an `Update File:` label
 * would bind every edited file of a session to one label, each one "replacing" the one before).
 */
import type { Candidate } from './candidate.js';

/** A header: `***`, a blank, the header's words and `:`, blanks, then the file up to the next blank. */
const HEADER = /\*\*\* (?:(?:Add|Update|Delete) File|Move to):[ \t]+/y;

/** The text a header puts right before its file (what {@link isPatchHeaderValue} looks for). */
const HEADER_BEFORE = /(?:^|[\s"'`])\*\*\* (?:(?:Add|Update|Delete) File|Move to):[ \t]+$/;

/** A JSON string escape the view left as it is: the file ends before it. */
const ESCAPE = /^\\[nrt"]/;

/** Longest header before its file: `*** Delete File:` and a few blanks. */
const MAX_HEADER = 24;

/** Whether a header line (`*** Update File: `) stands right before `start`: the value there is the header's file. */
export function isPatchHeaderValue(view: string, start: number): boolean {
  // Every header ends in `: ` (or a tab): most values fail on this one character.
  const before = view.charCodeAt(start - 1);
  if (before !== 32 && before !== 9) return false;
  return HEADER_BEFORE.test(view.slice(Math.max(0, start - MAX_HEADER), start));
}

/** Adds a `path` candidate for the file of every `apply_patch` header in `view`. */
export function findPatchHeaders(view: string, out: Candidate[]): void {
  for (let at = view.indexOf('*** '); at !== -1; at = view.indexOf('*** ', at + 4)) {
    // A header opens its line (or what the view blanked before it: a JSON string's `\n`, a quote).
    if (at > 0 && !/[\s"'`]/.test(view.charAt(at - 1))) continue;
    HEADER.lastIndex = at;
    if (!HEADER.test(view)) continue;
    const start = HEADER.lastIndex;
    let end = start;
    while (end < view.length && !/[\s"'`]/.test(view.charAt(end)) && !ESCAPE.test(view.slice(end, end + 2))) end++;
    if (end > start) out.push({ kind: 'path', start, end });
  }
}
