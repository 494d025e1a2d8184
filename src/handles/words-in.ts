/**
 * The words of a stretch of text, split on blanks (what the class `\s` matches) by char code, with their offsets: the
 * words before a value that a label or a placement is read from (`bindings.ts`).
 */
import { isBlankCode } from '../text/blank-codes.js';

/** A word and its offset in the text. */
export interface Word {
  readonly text: string;
  readonly start: number;
}

/** The words of `text[from, to)`, split on blanks (`\s`), with their offsets. */
export function wordsIn(text: string, from: number, to: number): Word[] {
  const words: Word[] = [];
  let index = from;
  while (index < to) {
    while (index < to && isBlankCode(text.charCodeAt(index))) index++;
    if (index === to) break;
    const start = index;
    while (index < to && !isBlankCode(text.charCodeAt(index))) index++;
    words.push({ text: text.slice(start, index), start });
  }
  return words;
}

/** The last word of `text[from, to)` (as {@link wordsIn} splits it), lower case, or '' when there is none. */
export function lastWordIn(text: string, from: number, to: number): string {
  let end = to;
  while (end > from && isBlankCode(text.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > from && !isBlankCode(text.charCodeAt(start - 1))) start--;
  return text.slice(start, end).toLowerCase();
}
