/**
 * Numbered references (`#512`): a pull request, an issue or a merge request is named by the word before its number
 * ("PR #512", "issue #40"), and two of one kind by whose they are ("our PR #512", "Maria's PR #513"). `bindings.ts`
 * binds them to that word, as it binds a tracker key to its tracker ("linear KAP-342").
 */
import { lastWordIn } from './words-in.js';
import type { Word } from './words-in.js';

/** A numbered reference (`#512`): a pull request, an issue or a merge request, named by the word before it. */
export const NUMBERED_REFERENCE = /^#\d{1,7}$/;
/** Words that say what a numbered reference is ("PR #512", "issue #40"): a tracker word for a `#` number. */
export const REFERENCE_WORDS: ReadonlySet<string> = new Set('pr prs mr issue ticket bug pull request'.split(' '));
/**
 * Words that say whose an item is, before its tracker word ("our PR #512", "Maria's PR #513"): two items of one
 * kind are told apart by them, so they are the label's.
 */
const OWNERS: ReadonlySet<string> = new Set('our my your their his her'.split(' '));
const POSSESSIVE = /^[A-Za-z][\w-]*['’]s$/;

/** Whether the word right before `start` names a numbered reference ("PR #512", see {@link REFERENCE_WORDS}). */
export function referenceBefore(view: string, start: number): boolean {
  return REFERENCE_WORDS.has(lastWordIn(view, Math.max(0, start - 16), start));
}

/**
 * Where the label of a numbered reference starts: at its tracker word, or at the word before it that says whose the
 * item is (see {@link OWNERS}: "our PR #512", "Maria's PR #513").
 */
export function referenceLabelStart(words: readonly Word[], trackerWord: Word | undefined): number {
  if (trackerWord === undefined) return -1;
  let at = words.findIndex((word) => word.start === trackerWord.start);
  // "pull request #512", "merge request #7": the kind is two words.
  if (/^requests?$/i.test(trackerWord.text) && /^(?:pull|merge)$/i.test(words[at - 1]?.text ?? '')) at--;
  const owner = words[at - 1];
  const owned = owner !== undefined && (OWNERS.has(owner.text.toLowerCase()) || POSSESSIVE.test(owner.text));
  return owned ? owner.start : (words[at]?.start ?? -1);
}
