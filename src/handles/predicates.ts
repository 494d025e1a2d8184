/**
 * A value followed by what it is: "`build/cache-42/` is the shared folder", "OPS-17 is the only blocker",
 * "X and Y, this is the same nightly run". The label comes after the value here (a copula, an article and one to
 * three words), so the prose binder (`bindings.ts`, label then value) never sees it. The binding runs from the value
 * (with its backticks; from the first of two values joined by `and`) to the label's last word: the shortest verbatim
 * text that says what the value is. Only values worth binding (data: a digit, a slash, a dash, `@`) are read, and the
 * label must open with an article or a possessive, so "X is running" or "X is fine" binds nothing.
 */
import type { Candidate } from './candidate.js';

/** Words the label does not end on: it would stop mid-phrase ("the only way to"). */
const TRAILING: ReadonlySet<string> = new Set(
  (
    'a an the and or but nor so yet not in of to by for from with at on as into onto than before after until ' +
    'about over under between through during without within via per that which who whose is are was were be ' +
    'any some all each every this these those its their our my your i we you he she it they us them'
  ).split(' '),
);

/**
 * After the value: an optional closing backtick, an optional second value joined by `and` (its end given), then an
 * optional demonstrative, a copula, an article or possessive (`the same`, `the`, `a`, `an`, `our`, `its`, `their`) and
 * up to three words of letters.
 */
const PREDICATE = new RegExp(
  '`? (?:(?:this|these|that|which|both|they|it) )?(?:is|are|was|were) (?:the same|the|our|its|their|a|an) ' +
    '([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,2})',
  'y',
);

/** The words {@link PREDICATE} reads first after its space: a demonstrative or a copula. */
const OPENING_WORDS: ReadonlySet<string> = new Set('this these that which both they it is are was were'.split(' '));

/**
 * Whether {@link PREDICATE} may match at `at`: an optional backtick, a space, then one of {@link OPENING_WORDS} and a
 * space. Most values are followed by none, and then the pattern is neither run nor compiled.
 */
export function mayOpenPredicate(view: string, at: number): boolean {
  const space = view.charCodeAt(at) === 96 ? at + 1 : at;
  if (view.charCodeAt(space) !== 32) return false;
  // the longest of the words has five letters
  const after = view.slice(space + 1, space + 7);
  const wordEnd = after.indexOf(' ');
  return wordEnd !== -1 && OPENING_WORDS.has(after.slice(0, wordEnd));
}

/** Where the label of a predicate that starts at `at` ends, or -1 (see {@link PREDICATE}). */
function predicateEnd(view: string, at: number): number {
  if (!mayOpenPredicate(view, at)) return -1;
  PREDICATE.lastIndex = at;
  const match = PREDICATE.exec(view);
  if (match === null) return -1;
  const words = (match[1] ?? '').split(' ');
  while (words.length > 0 && TRAILING.has((words.at(-1) ?? '').toLowerCase())) words.pop();
  if (words.length === 0) return -1;
  const labelStart = at + match[0].length - (match[1] ?? '').length;
  return labelStart + words.join(' ').length;
}

/**
 * Adds an `assignment` candidate for every value of `values` (sorted by start, worth binding) followed by what it is
 * (see the module comment). A value joined to the next by `and` binds with it.
 */
export function findPredicates(view: string, values: readonly Candidate[], out: Candidate[]): void {
  for (let index = 0; index < values.length; index++) {
    const value = values[index] as Candidate;
    const start = view.charAt(value.start - 1) === '`' ? value.start - 1 : value.start;
    let end = predicateEnd(view, value.end);
    // "X and Y this is the same session": both values are what the predicate says.
    const next = values[index + 1];
    if (end === -1 && next !== undefined && /^`? and `?$/.test(view.slice(value.end, next.start))) {
      end = predicateEnd(view, next.end);
      if (end !== -1) index++;
    }
    if (end !== -1) out.push({ kind: 'assignment', start, end });
  }
}
