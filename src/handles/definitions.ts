/**
 * Term-definition lines: a value that opens a line and is followed by what it is — a ticket list
 * (`4. [task] proj-12.1: Extract parser module`), a plan's file list (`` **`src/rewind.go`** — New struct returned
 * by … ``), a glossary (`- db-ro-3: Read replica of the orders database`). The label comes after the value here, so
 * the prose binder (`bindings.ts`, label then value) never sees it. The binding is the value with its markup, the separator and the
 * first words of the description (letters only, at most {@link MAX_WORDS}, at least two): the shortest verbatim text
 * that says what the value is. A line with words before the value (`modified: src/a.ts`, `see src/a.ts: …`) is prose
 * or a label of its own; a value followed by `:` and a digit (`a.go:12: msg`, a compiler's line reference) or by code
 * (a grep match line) is no definition.
 */
import type { Candidate } from './candidate.js';

/**
 * Words of the description a binding keeps at most: a title's head (`Extract parser module`, `New struct returned`,
 * `Move invoice rendering pipeline`). Four: a ticket's title often says what it is in its fourth word, and a
 * fifth costs room in a tight window.
 */
const MAX_WORDS = 4;

/** Characters that may stand before the value on its line. */
const MAX_OPENING = 48;

/** What may stand before the value on its line: blanks, a list marker, bracketed tags (`[P1] [task]`), opening markup. */
const LINE_OPENING = /^[ \t]*(?:(?:[-*+•]|\d{1,3}[.)])[ \t]+)?(?:\[[^\]\n]{0,24}\][ \t]*)*[`*_]*$/;

/**
 * Closing markup, then the separator: a colon or a spaced dash, one blank, and a capitalised word (a title or a
 * sentence). A grep line (`./a.py:    if not x`, `a.py: return s`) runs into code: blanks or a lower-case word.
 */
const SEPARATOR = /^[`*_]*(?::|[ \t]+[—–-]) (?=[A-Z]|`[A-Za-z_])/;

/**
 * One word of a description: letters, with inner apostrophes or dashes, or a name in backticks (`` `Fetcher`
 * interface ``).
 */
const WORD = /^(?:[A-Za-z][A-Za-z'’-]*|`[A-Za-z_][\w.()]*`)(?=[ \t\r\n]|[,.;:!?)]|$)/;

/** A location right after a description, with the blank before it: `(line 88)`, `(lines 79-122)`, `(~line 51)`. */
const LOCATION_AFTER = / ?\(~?lines? \d{1,6}(?:[-–]\d{1,6})?\)/y;

/**
 * Where a location that follows right at `at` ends ("— Constructor signature (line 88)": the description says
 * what is there, the location where), or `at` when none does. A location the parenthesis goes on past ("(~line 297,
 * before …)") is left out.
 */
function afterLocation(view: string, at: number): number {
  if (view.charCodeAt(at) !== 32 && view.charCodeAt(at) !== 40) return at;
  LOCATION_AFTER.lastIndex = at;
  return LOCATION_AFTER.test(view) ? LOCATION_AFTER.lastIndex : at;
}

/** Words a description does not end on: it would stop mid-phrase (`the read replica in`). */
const TRAILING: ReadonlySet<string> = new Set(
  (
    'a an the and or but nor so yet not in of to by for from with at on as into onto than before after until ' +
    'about over under between through during without within via per that which who whose is are was were be'
  ).split(' '),
);

/**
 * Where the description after a separator ends: after up to {@link MAX_WORDS} plain words, short of the function words
 * it would end on; -1 for fewer than two words.
 */
function descriptionEnd(view: string, from: number): number {
  let at = from;
  const ends: number[] = [];
  const trailing: boolean[] = [];
  while (ends.length < MAX_WORDS) {
    const match = WORD.exec(view.slice(at, at + 40));
    if (match === null) break;
    const end = at + match[0].length;
    ends.push(end);
    trailing.push(TRAILING.has(match[0].toLowerCase()));
    const blanks = /^[ \t]+/.exec(view.slice(end, end + 8));
    if (blanks === null) break;
    at = end + blanks[0].length;
  }
  while (trailing.length > 0 && trailing[trailing.length - 1] === true) {
    trailing.pop();
    ends.pop();
  }
  return ends.length >= 2 ? (ends[ends.length - 1] as number) : -1;
}

/**
 * Adds an `assignment` candidate for every value in `values` (sorted by start, worth binding) that opens its line and
 * is followed by a description (see the module comment).
 */
export function findDefinitions(view: string, values: readonly Candidate[], out: Candidate[]): void {
  for (const value of values) {
    // Only the few characters before the value are read (a long line's values are not walked back to its start).
    const from = Math.max(0, value.start - MAX_OPENING);
    const lineStart = from + view.slice(from, value.start).lastIndexOf('\n') + 1;
    if ((lineStart === from && from > 0) || !LINE_OPENING.test(view.slice(lineStart, value.start))) continue;
    const separator = SEPARATOR.exec(view.slice(value.end, value.end + 16));
    if (separator === null) continue;
    const end = descriptionEnd(view, value.end + separator[0].length);
    if (end === -1) continue;
    // The opening markup the value sits in (`**`, a backtick) belongs to the binding: it stays balanced text.
    let start = value.start;
    while (start > lineStart && /[`*_]/.test(view.charAt(start - 1))) start--;
    // A location after the description is what it describes too: "— Constructor signature (line 88)".
    out.push({ kind: 'assignment', start, end: afterLocation(view, end) });
  }
}

/**
 * What may stand before an annotated value on its line: blanks, the branches of a tree listing (`├── `, `│   └── `), a
 * list marker, opening markup.
 */
const TREE_OPENING = /^[ \t│├└─┬┼|`+-]*(?:[-*+•][ \t]+)?[`*_]*$/;

/**
 * Closing markup, then an annotation mark: an arrow (`←`, `<-`) after blanks, or a `#` comment after two blanks or
 * more; then one blank or more. A tree listing or a layout sketch says what an entry is this way, in lower case as
 * often as not (`full.log   ← main log`).
 */
const ANNOTATION = /^[`*_/]*(?:[ \t]+(?:←|<--?)|[ \t]{2,}#)[ \t]+(?=[A-Za-z`])/;

/**
 * Adds an `assignment` candidate for every value in `values` (any order) that opens its line, a tree listing's
 * branches and a list marker aside, and is annotated after it with what it is (see {@link ANNOTATION}): the value, the
 * blanks and the mark, and the first words of the annotation (two at least, as for a definition).
 */
export function findAnnotations(view: string, values: readonly Candidate[], out: Candidate[]): void {
  if (!view.includes('←') && !view.includes('<-') && !view.includes('  #')) return;
  for (const value of values) {
    const from = Math.max(0, value.start - MAX_OPENING);
    const lineStart = from + view.slice(from, value.start).lastIndexOf('\n') + 1;
    if ((lineStart === from && from > 0) || !TREE_OPENING.test(view.slice(lineStart, value.start))) continue;
    const mark = ANNOTATION.exec(view.slice(value.end, value.end + 48));
    if (mark === null) continue;
    const end = descriptionEnd(view, value.end + mark[0].length);
    if (end === -1) continue;
    let start = value.start;
    while (start > lineStart && /[`*_]/.test(view.charAt(start - 1))) start--;
    out.push({ kind: 'assignment', start, end });
  }
}

/**
 * A glossary line that defines a term with `==` (`shard == slice of rows kept on one node`): the term (one to three
 * words of letters opening its line, after a list marker: `old_name` and `SQL1` are code) and its definition in prose
 * (letters first, two words or more, no code punctuation), bound whole up to {@link MAX_GLOSSARY} characters. `x == y`
 * in code has code around it or no prose after.
 */
const GLOSSARY =
  /^[ \t]*(?:[-*+•][ \t]+)?([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,2}) == ([A-Za-z][^\n(){};<>|&=`'"[\]]*)$/gm;
/** Words that open a comparison in code (`assert total == expected sum`), not a term. */
const CODE_OPENERS: ReadonlySet<string> = new Set(
  'if elif while assert return and or not when unless until'.split(' '),
);
/** Longest glossary line bound, in characters. */
const MAX_GLOSSARY = 120;

/** Adds an `assignment` candidate for every glossary line of `view` (see {@link GLOSSARY}). */
export function findGlossary(view: string, out: Candidate[]): void {
  if (!view.includes(' == ')) return;
  GLOSSARY.lastIndex = 0;
  for (let match = GLOSSARY.exec(view); match !== null; match = GLOSSARY.exec(view)) {
    const definition = (match[2] ?? '').trimEnd();
    const opener = (match[1] ?? '').split(' ')[0]?.toLowerCase() ?? '';
    if (!/\s\S/.test(definition) || match[0].trim().length > MAX_GLOSSARY || CODE_OPENERS.has(opener)) continue;
    const start = match.index + match[0].indexOf(match[1] ?? '');
    out.push({ kind: 'assignment', start, end: start + (match[1] ?? '').length + 4 + definition.length });
  }
}
