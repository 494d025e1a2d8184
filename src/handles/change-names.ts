/**
 * Names a change states: "the migration from ledger/drafts to ledger/archive/v2", "we renamed it from
 * store_v1 to store-v2". A slash-separated name with no conventional prefix (`ledger/drafts`) cannot be told from
 * prose (`and/or`, `before/after`) on its own shape, so no detector takes it; a word that names a change of value
 * (`migration`, `renamed`, `upgrade`, … see `bindings.ts`) followed by `from X to Y` says both are names of what
 * changed. Each such name that no detector took is a value (`identifier`), so the change binds (`migration from X to
 * Y`) and supersedes X like any other.
 */
import type { Candidate } from './candidate.js';
import { isBlankCode } from '../text/blank-codes.js';
import { isLetterCode } from './char-classes.js';

/** A name: letters, digits and `/ _ . - @ :` inside, a letter or digit at each end. */
const NAME = String.raw`[A-Za-z0-9](?:[\w./@:-]*[A-Za-z0-9])?`;

/** A name is data, not a word: it holds a letter and a separator or a digit. */
const DATA_NAME = /^(?=.*[A-Za-z])(?=.*[/_.\d-])/;

/** "WORD from X to Y", tried only where a "from" stands (see {@link changeMatches}). */
const CHANGE = new RegExp(
  String.raw`\b([A-Za-z]+)\s+from\s+(\`?)(${NAME})\2\s+to\s+(\`?)(${NAME})\4(?![\w/-]|\.\w)`,
  'y',
);

/**
 * The matches of {@link CHANGE} a global scan of `view` would find, in order and without overlap. A match opens with
 * the letters before the blanks before a "from", so the pattern runs only there, not at every word of the text.
 */
function changeMatches(view: string): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  let floor = 0;
  for (let from = view.indexOf('from', 1); from !== -1; from = view.indexOf('from', from + 1)) {
    let start = from;
    while (start > 0 && isBlankCode(view.charCodeAt(start - 1))) start--;
    const wordEnd = start;
    while (start > 0 && isLetterCode(view.charCodeAt(start - 1))) start--;
    if (wordEnd === from || start === wordEnd || start < floor) continue;
    CHANGE.lastIndex = start;
    const match = CHANGE.exec(view);
    if (match === null) continue;
    matches.push(match);
    floor = match.index + match[0].length;
  }
  return matches;
}

/**
 * The names of every "CHANGE from X to Y" in `view` (`changes`: the change words, lower case), in backticks or not,
 * each only where no candidate in `taken` already starts.
 */
export function findChangeNames(view: string, changes: ReadonlySet<string>, taken: readonly Candidate[]): Candidate[] {
  const found: Candidate[] = [];
  let starts: ReadonlySet<number> | undefined;
  for (const match of changeMatches(view)) {
    if (!changes.has((match[1] ?? '').toLowerCase())) continue;
    const old = match[3] ?? '';
    const next = match[5] ?? '';
    const end = match.index + match[0].length - (match[4] ?? '').length;
    const nextStart = end - next.length;
    const oldStart = view.lastIndexOf(old, nextStart - 1);
    starts ??= new Set(taken.map((candidate) => candidate.start));
    for (const [start, name] of [
      [oldStart, old],
      [nextStart, next],
    ] as const)
      if (DATA_NAME.test(name) && !starts.has(start))
        found.push({ kind: 'identifier', start, end: start + name.length });
  }
  return found;
}
