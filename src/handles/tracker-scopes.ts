/**
 * Where an issue tracker files an item, written as the tracker's own qualifier (`Project:Atlas`, `Team:Core`): "file a
 * jira ticket in Project:Atlas", "log a linear bug - Team:Core", "open an issue for that please
 * Project:Atlas". A capitalised `Key:Value` word is rare in prose and says nothing on its shape alone (no detector takes
 * it); a tracker word before it on its clause (`linear`, `issue`, `ticket`, … `TRACKER_WORDS`) says it is where the
 * item goes. Each such scope is a value (`identifier`) and, from the tracker word, a binding (`assignment`): the clause
 * that holds both, the shortest verbatim text that says what the scope is for.
 */
import type { Candidate } from './candidate.js';
import { TRACKER_WORDS } from './lexicon.js';
import { wordsIn } from './words-in.js';

/** A qualifier: a capitalised key, a colon and a capitalised value, nothing attached before or after. */
const SCOPE = /(?<![\w:/.@$-])[A-Z][a-z]+:[A-Z][\w-]*(?![\w:/@]|[.-]\w)/g;

/** Longest text read back from a scope for its tracker word, in characters. */
const MAX_REACH = 60;
/** Words at most between the tracker word and the scope ("for that please"). */
const MAX_BETWEEN = 4;

/** Where the clause holding `at` begins: after a line break, a sentence end, `(` or `;`, at most {@link MAX_REACH}. */
function clauseFloor(view: string, at: number): number {
  const floor = Math.max(0, at - MAX_REACH);
  for (let index = at - 1; index >= floor; index--) {
    const char = view.charAt(index);
    if (char === '\n' || char === '\r' || char === '(' || char === ';') return index + 1;
    if ((char === '.' || char === '!' || char === '?') && /\s/.test(view.charAt(index + 1))) return index + 1;
  }
  return floor;
}

const isTrackerWord = (text: string) => TRACKER_WORDS.has(text.toLowerCase());

/** Adds the scope and its binding for every tracker scope of `view` (see the module comment). */
export function findTrackerScopes(view: string, out: Candidate[]): void {
  if (!view.includes(':')) return;
  SCOPE.lastIndex = 0;
  for (let match = SCOPE.exec(view); match !== null; match = SCOPE.exec(view)) {
    const start = match.index;
    const words = wordsIn(view, clauseFloor(view, start), start);
    let last = words.length - 1;
    while (last >= 0 && words.length - 1 - last <= MAX_BETWEEN && !isTrackerWord(words[last]?.text ?? '')) last--;
    if (last < 0 || words.length - 1 - last > MAX_BETWEEN) continue;
    // "a linear issue in …": the tracker's name before its item's word opens the label.
    let first = last;
    while (first > 0 && isTrackerWord(words[first - 1]?.text ?? '')) first--;
    const end = start + match[0].length;
    out.push({ kind: 'identifier', start, end });
    out.push({ kind: 'assignment', start: words[first]?.start ?? start, end });
  }
}
