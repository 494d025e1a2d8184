/**
 * What stands before a rule's words at the start of its sentence (`constraints.ts`): list and quote markers, list
 * numbers, heading hashes, comment markers, checkboxes, and the labels the ledger block writes before a pinned line
 * (`- [user instruction] …`, `- [quoted tool output, not an instruction] …`), read back when the block comes back as
 * transcript text. The constraint is the sentence without them.
 */
import { IMPERATIVE_VERBS } from './lexicon.js';

/** List and quote markers (a plan's `→` too), list numbers, heading hashes, comment markers, checkboxes. */
const LIST_MARKERS = String.raw`[-*+>•→]|\d{1,3}[.)]|#{1,6}|\/{2,}|\/\*+|--|;{1,2}|\[[ xX]\]`;

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
export const BULLET = /[-*+•→]|\d[.)]|\[[ xX]\]/;

/** Words that leave a sentence unfinished before its colon: a verb's object, a clause or a list is still to come. */
const OPEN_ENDINGS: ReadonlySet<string> = new Set(
  (
    'because since if when where while so that which to for of with by in on at as from into like than and or but ' +
    'then include includes including contain contains are is be was were following below'
  ).split(' '),
);
/** A word that points at what follows the colon: "this command", "the following files", "as follows". */
const POINTS_AHEAD = /\b(?:this|these|those|following|below|follows|here)\b/i;
/** Openers of an order besides imperative verbs ("Never …:", "Don't …:"). */
const ORDER_OPENERS: ReadonlySet<string> = new Set(['always', 'never', "don't", 'do', 'only']);

/**
 * Whether a sentence only introduces what follows ("Every reply should contain:", "You MUST run this exact script
 * to finish:", "Keep it for now since:", "Use X so all graders must pass:"): the rule is in the lines after it, so
 * pinned alone it tells the reader nothing and costs the window. An order complete before its colon ("Keep `create`
 * compatible with current callers:", "Use `NewLazyPanel()` instead of `kite.NewPanel()`:") is a rule of its own,
 * whatever list or code follows.
 */
export function isLeadIn(sentence: string): boolean {
  if (!sentence.endsWith(':')) return false;
  const words = sentence.toLowerCase().match(/[a-z]+(?:['’][a-z]+)?/g) ?? [];
  const first = (words[0] ?? '').replace('’', "'");
  const order = ORDER_OPENERS.has(first) || (IMPERATIVE_VERBS.has(first) && !/^(?:let|have|get)$/.test(first));
  if (!order || !/^[*_"'“‘\s]*[A-Za-z]/.test(sentence) || POINTS_AHEAD.test(sentence)) return true;
  // a how-to before its example: "Use a `threshold` aggregator so all graders must pass:"
  if (/\bso\s+(?:that\s+)?\w+/i.test(sentence)) return true;
  // a name in code closes it ("… instead of `huh.NewForm()`:"); a verb or a preposition leaves it open
  if (/`\s*:$/.test(sentence)) return false;
  const last = words[words.length - 1] ?? '';
  return OPEN_ENDINGS.has(last) || IMPERATIVE_VERBS.has(last);
}

/**
 * A heading or a label on a line of its own that names a proposal ("## Proposed Solution", "## The Fix", "=== Best
 * approach ===", a bare "Implementation:" or "Solution:" over its list): what follows says what a fix would do, not a
 * rule of the project, as "Proposed fix: …" on one line. A "## Solution" section of a ticket says what to build and
 * keeps its rules.
 */
export const PROPOSAL_HEAD = new RegExp(
  String.raw`^\s*(?:(?:#{1,6}\s+|={2,}\s*)?[*_]*(?:(?:proposed|suggested|possible|recommended|best)\s+` +
    String.raw`(?:solution|fix|approach|implementation)|the\s+(?:fix|solution|approach))[*_]*\s*(?::|={2,})?|` +
    String.raw`[*_]*(?:solution|fix|approach|implementation)[*_]*\s*:)[*_]*\s*$`,
  'i',
);
/** A heading written between runs of `=` ("=== Results ==="). */
export const RULED_HEADING = /^\s*={2,}\s.*\s={2,}\s*$/;
const HEADING_LINE = /^\s*#{1,6}\s/;

/** How far back {@link underProposal} looks for the heading of a section. */
const SECTION_LINES = 30;

/**
 * Whether the line starting at `lineStart` sits under a proposal's heading ({@link PROPOSAL_HEAD}) with no other heading
 * between (a label's list ends at a blank line).
 */
export function underProposal(text: string, lineStart: number): boolean {
  let end = lineStart - 1;
  let blank = false;
  for (let seen = 0; end > 0 && seen < SECTION_LINES; seen++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    if (line.length < 60 && PROPOSAL_HEAD.test(line)) return !blank || !line.trimEnd().endsWith(':');
    if (HEADING_LINE.test(line) || RULED_HEADING.test(line)) return false;
    if (line.trim() === '') blank = true;
    end = start - 1;
  }
  return false;
}
