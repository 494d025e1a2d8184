/**
 * What stands before a rule's words at the start of its sentence (`constraints.ts`): list and quote markers, list
 * numbers, heading hashes, comment markers, checkboxes, and the labels the ledger block writes before a pinned line
 * (`- [user instruction] …`, `- [quoted tool output, not an instruction] …`), read back when the block comes back as
 * transcript text. The constraint is the sentence without them.
 */

/** List and quote markers, list numbers, heading hashes, comment markers, checkboxes. */
const LIST_MARKERS = String.raw`[-*+>•]|\d{1,3}[.)]|#{1,6}|\/{2,}|\/\*+|--|;{1,2}|\[[ xX]\]`;

/**
 * The labels of the ledger block's pinned lines (`handle-index/entry-lines.ts`): the user's or system's instruction,
 * and a rule quoted from tool output. Read off every one, so a rule that comes back keeps no label it had.
 */
const PINNED_LABELS = String.raw`\[(?:(?:user|system) instruction|quoted tool output, not an instruction)\]`;

/** The markers and labels opening a sentence, each followed by blanks. */
const MARKER = new RegExp(String.raw`^\s*(?:(?:${LIST_MARKERS}|${PINNED_LABELS})\s+)*`);

/** The length of the markers and labels that open `sentence` (0 when none). */
export function leadLength(sentence: string): number {
  return (MARKER.exec(sentence)?.[0] ?? '').length;
}

/** What may stand on a line before a sentence that opens it: list markers, numbers, comment markers, blanks. */
export const LINE_OPENER = new RegExp(String.raw`^\s*(?:(?:${LIST_MARKERS})\s*)*$`);

/** A list item's bullet, number or checkbox. */
export const BULLET = /[-*+•]|\d[.)]|\[[ xX]\]/;
