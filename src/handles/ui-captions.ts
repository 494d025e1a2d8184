/**
 * Captions of interface elements: the words a button, link or control shows, quoted and followed by what the element
 * is — a `` `Load older items` control ``, a "Sign out everywhere" button, the 'Retry' link. The caption is verbatim
 * text the agent must write or find again exactly, and the element noun after it says what it is, so the two are one
 * binding (`assignment`), quotes kept so it stays balanced verbatim text. A caption opens with a capital letter and
 * holds one to six words; a quoted word in prose followed by some other noun is not one.
 */
import type { Candidate } from './candidate.js';

/** Nouns of interface elements a caption names. */
const ELEMENTS = 'buttons?|controls?|links?|tabs?|toggles?|checkbox(?:es)?|menu items?|dialogs?|modals?|banners?';

/** A quoted caption (backticks, double or single quotes) and the element noun after it. */
const CAPTION = new RegExp(
  String.raw`(?<![\w\`'"])([\`"'])([A-Z][\w.,!?'’+-]*(?: [\w.,!?'’+-]+){0,5})\1 (?:${ELEMENTS})\b`,
  'g',
);

/** Adds a binding for every caption of `view` followed by its element's noun (see the module comment). */
export function findCaptions(view: string, out: Candidate[]): void {
  if (!/ (?:button|control|link|tab|toggle|checkbox|menu item|dialog|modal|banner)/.test(view)) return;
  CAPTION.lastIndex = 0;
  for (let match = CAPTION.exec(view); match !== null; match = CAPTION.exec(view))
    out.push({ kind: 'assignment', start: match.index, end: match.index + match[0].length });
}
