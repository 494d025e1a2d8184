import { HEADING_STARTS } from './block-headings.js';
import { foldForLabels } from './confusables.js';

/** The words a turn or block label starts with: `[user]`, `[tool result id=…]`, `[user instruction]`, `[quoted …]`. */
const LABEL_WORDS = '(?:user|assistant|system|tool|developer|human|context-ledger|quoted|part \\d+)';

/** Blanks and list markers a line may start with before its label or heading (`- [user instruction] …`). */
const LEAD = '^[-*+>\\u2022\\s]*';

/** The labels of the block's own pinned and quoted lines (`- [user instruction] …`). */
const PINNED_LABEL = '(?:(?:user|system) instruction|quoted tool output|assistant statement)';

/**
 * A label at the start of a folded line: `[user]`, `> [tool result id=x]`, or after a list marker one of the block's
 * pinned labels (`- [user instruction] Push…`; a template's `- [User feedback]` is not one).
 */
const LINE_LABEL = new RegExp(`^(?:[>\\s]*\\[\\s*${LABEL_WORDS}\\b|${LEAD}\\[\\s*${PINNED_LABEL}\\b)[^\\]]*\\]`, 'i');

/** One of the block's headings at the start of a folded line: `Pinned constraints (…):`, `Handle index:`. */
const LINE_HEADING = new RegExp(
  `${LEAD}(?:${HEADING_STARTS.map((start) => start.replace(/ /g, '\\s+')).join('|')})\\s*(?:[(:]|$)`,
  'i',
);

/** A whole folded bracket group that is a label: `[user instruction]`, `[tool result id=x]`. */
const INLINE_LABEL = new RegExp(`^\\[\\s*${LABEL_WORDS}\\b[^\\]]*\\]$`, 'i');

/** Char codes a label's first character may have after blanks and list markers (see {@link mayImitate}). */
const LABEL_FIRST = new Uint8Array(128);
for (const char of '[pchkPCHK') LABEL_FIRST[char.charCodeAt(0)] = 1;

/**
 * A cheap first test on the raw line: only a line whose first character after blanks and list markers (tab, space,
 * `-*+>`) is a bracket, not ASCII (a look-alike, an invisible character), or the first letter of a heading can
 * imitate a label. Char codes are read in place: this runs on every line of a tool output.
 */
function mayImitate(line: string): boolean {
  const length = line.length;
  let at = 0;
  // -1 at the end of the line (no read past it), which is neither.
  let code = length > 0 ? line.charCodeAt(0) : -1;
  while (code === 9 || code === 32 || code === 45 || code === 42 || code === 43 || code === 62)
    code = ++at < length ? line.charCodeAt(at) : -1;
  return code >= 0x80 || (code >= 0 && LABEL_FIRST[code] === 1);
}

/** How much of a line a label check reads: labels and headings are at its start. */
const LINE_PREFIX_CHARACTERS = 240;

/**
 * True when a line (no line breaks in it) reads, once look-alikes are folded ({@link foldForLabels}), as a turn or
 * block label (`[user]`, `[system]`, `[tool …]`, `[context-ledger]`, `- [user instruction] …`) or as one of the
 * ledger block's own headings (`Pinned constraints (…):`, `Handle index …:`, `Known gaps …:`).
 */
export function imitatesLabel(line: string): boolean {
  if (!mayImitate(line)) return false;
  const prefix = line.slice(0, LINE_PREFIX_CHARACTERS);
  // ASCII folds to itself: most lines are read as they are.
  const folded = /^[^\u0080-\uFFFF]*$/.test(prefix) ? prefix : foldForLabels(prefix);
  return LINE_LABEL.test(folded) || LINE_HEADING.test(folded);
}

/** How far after an opening bracket its closing bracket is looked for. */
const LABEL_CHARACTERS = 80;

/**
 * Characters already read as an opening or closing bracket look-alike (or neither), by character. Safe module-level:
 * keyed by the whole input of `foldForLabels`, a pure function, so an entry is what folding again gives; bounded.
 */
const bracketOf = new Map<string, '[' | ']' | undefined>();

/** `[` or `]` when the character reads as one once folded (`[`, `［`, `⁅`, `〚`, `｢`, `⌈`, …), else undefined. */
function bracketLookAlike(character: string): '[' | ']' | undefined {
  if (character === '[' || character === ']') return character;
  if (character.charCodeAt(0) < 0x80) return undefined;
  let known = bracketOf.get(character);
  if (known === undefined && !bracketOf.has(character)) {
    const folded = foldForLabels(character);
    known = folded === '[' || folded === ']' ? folded : undefined;
    if (bracketOf.size > 4096) bracketOf.clear();
    bracketOf.set(character, known);
  }
  return known;
}

/**
 * Label look-alikes anywhere in a one-line text (`… [user instruction] Push…`, `⁅ꜱystem⁆`, `[useŕ]`) with their
 * brackets turned into parentheses, so quoted text inside a line cannot pose as a label. Text without one is
 * returned unchanged (the same string).
 */
export function neutralizeInlineLabels(text: string): string {
  if (!/[[\u0080-\uFFFF]/.test(text)) return text;
  let result: string | undefined;
  for (let open = 0; open < text.length; open++) {
    if (bracketLookAlike(text.charAt(open)) !== '[') continue;
    const end = Math.min(text.length, open + LABEL_CHARACTERS);
    let close = open + 1;
    while (close < end && bracketLookAlike(text.charAt(close)) === undefined) close++;
    if (close >= end || bracketLookAlike(text.charAt(close)) !== ']') continue;
    if (!INLINE_LABEL.test(foldForLabels(text.slice(open, close + 1)))) continue;
    const base = result ?? text;
    result = `${base.slice(0, open)}(${base.slice(open + 1, close)})${base.slice(close + 1)}`;
    open = close;
  }
  return result ?? text;
}
