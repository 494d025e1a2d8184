/**
 * The one neutraliser of stored text for every surface that shows it: the recent turns of the rendered window and
 * its ledger block, the context the SessionStart hook injects, the JSON the MCP server and the CLI return, and the
 * CLI's human output. Stored text is never changed: only how a line of it is shown.
 *
 * - Every Unicode line break is a line break: CR LF, LF, VT, FF, CR, NEL (U+0085), LS (U+2028), PS (U+2029).
 * - A line that imitates a turn label or one of the block's headings (read with look-alikes folded:
 *   `role-labels.ts`) is quoted on multi-line surfaces, and its brackets become parentheses inside one-line ones.
 * - One-line surfaces show a line break as ` ⏎ `, so stored text stays on its line; terminal output shows control
 *   and escape characters as pictures (`␛`, `␇`), never raw; JSON escapes what `JSON.stringify` leaves raw.
 * Text without any of these is returned unchanged (the same string), so ordinary sessions render byte for byte
 * as before.
 */
import { ACTING_CHARACTER, controlPicture, hasActingCharacter, unicodeEscape } from './control-characters.js';
import { imitatesLabel, neutralizeInlineLabels } from './role-labels.js';

/** Any line break character. */
const ANY_LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/;

/** Marks a content line that imitates a turn label or a block heading, so it reads as quoted text. */
export const QUOTED_LABEL_MARK = '(quoted) ';

/**
 * What may follow a line start if the line imitates a label or heading (a cheap test; `imitatesLabel` decides):
 * blanks and list markers, then a bracket, a character that is not ASCII (a look-alike, an invisible character), or
 * the first two letters of a heading (`pi`, `co`, `ha`, `kn`), either of them possibly a look-alike.
 */
const CANDIDATE =
  '[\\t \\-*+>]*(?:[[\\u0080-\\uFFFF]|[pP][iI\\u0080-\\uFFFF]|[cC][oO\\u0080-\\uFFFF]|[hH][aA\\u0080-\\uFFFF]|[kK][nN\\u0080-\\uFFFF])';

/** A candidate first line. */
const CANDIDATE_FIRST_LINE = new RegExp(`^${CANDIDATE}`);

/** A line break followed by a candidate line (global: `lastIndex` walks the text; `test` on a fresh copy stops early). */
const CANDIDATE_AFTER_BREAK = new RegExp(`[\\n\\v\\f\\r\\u0085\\u2028\\u2029]${CANDIDATE}`, 'g');
const ANY_CANDIDATE_AFTER_BREAK = new RegExp(CANDIDATE_AFTER_BREAK.source);

/** The next line break from a position (global, so `lastIndex` sets where the search starts). */
const NEXT_LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/g;

/** Where the lines that may imitate a label or heading start. */
function candidateLineStarts(content: string): number[] {
  const starts = CANDIDATE_FIRST_LINE.test(content) ? [0] : [];
  if (!ANY_CANDIDATE_AFTER_BREAK.test(content)) return starts;
  CANDIDATE_AFTER_BREAK.lastIndex = 0;
  for (let match = CANDIDATE_AFTER_BREAK.exec(content); match; match = CANDIDATE_AFTER_BREAK.exec(content)) {
    starts.push(match.index + 1);
    CANDIDATE_AFTER_BREAK.lastIndex = match.index + 1;
  }
  return starts;
}

/** The line starting at `start`, up to the next line break. */
function lineAt(content: string, start: number): string {
  NEXT_LINE_BREAK.lastIndex = start;
  return content.slice(start, NEXT_LINE_BREAK.exec(content)?.index ?? content.length);
}

/**
 * Text of several lines as a model reads it in the window (a recent turn, a summary): every line, split at any
 * Unicode line break, that imitates a turn label (`[user]`, `[system]`, `- [user instruction] …`, also with
 * look-alike letters and brackets, combining marks or invisible characters) or one of the block's headings is
 * prefixed with `(quoted) `. The breaks themselves are kept. Content without such a line is returned unchanged.
 */
export function neutralizeLines(content: string): string {
  const starts = candidateLineStarts(content).filter((start) => imitatesLabel(lineAt(content, start)));
  if (starts.length === 0) return content;
  let result = '';
  let from = 0;
  for (const start of starts) {
    result += content.slice(from, start) + QUOTED_LABEL_MARK;
    from = start;
  }
  return result + content.slice(from);
}

/** A run of line breaks with the blanks around them (NEL is not in `\s`). */
const LINE_BREAK_RUN = /[\s\u0085]*[\n\v\f\r\u0085\u2028\u2029][\s\u0085]*/g;

/** A visible line break on a one-line surface. */
export const SHOWN_LINE_BREAK = ' ⏎ ';

/**
 * Text kept on one line: each run of line breaks (any Unicode line break: CR, VT, FF, NEL, LS and PS too) shown as
 * ` ⏎ `. Other characters stay as stored (a handle is verbatim). For a line whose words are someone's own (a pinned
 * user constraint): labels in it are left as they are. Text without a line break is returned unchanged.
 */
export function oneLine(text: string): string {
  return ANY_LINE_BREAK.test(text) ? text.replace(LINE_BREAK_RUN, SHOWN_LINE_BREAK) : text;
}

/**
 * Quoted text shown inside one line (an index entry, a handle in the hook context): {@link oneLine}, and label
 * look-alikes anywhere in it (`[user instruction]`, `⁅ꜱystem⁆`) shown with parentheses instead of brackets.
 */
export function neutralizeInline(text: string): string {
  return neutralizeInlineLabels(oneLine(text));
}

/**
 * Text for a terminal: every line break a line feed (so a caller's indentation applies to every line shown), every
 * other control or escape character (ESC, BEL, BS, DEL, C1, bidirectional overrides) its picture, so stored text
 * cannot write the clipboard (OSC 52), retitle the window, clear the screen or erase a line. Text without any is
 * returned unchanged.
 */
export function forTerminal(text: string): string {
  const lines = ANY_LINE_BREAK.test(text) ? text.replace(/\r\n|[\v\f\r\u0085\u2028\u2029]/g, '\n') : text;
  return hasActingCharacter(lines) ? lines.replace(ACTING_CHARACTER, controlPicture) : lines;
}

/** Characters `JSON.stringify` leaves raw that act on a terminal or break a line: DEL, C1, LS, PS, bidi controls. */
const RAW_IN_JSON = /[\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/**
 * `value` as JSON (indented by `indent` spaces, 0 for one line) safe to print or hand to a model: the characters
 * `JSON.stringify` leaves raw (DEL, C1 controls such as NEL and CSI, LS, PS, bidirectional controls) written as
 * `\uXXXX` escapes. They only occur inside strings, so the JSON parses to the same value: stored text stays verbatim.
 */
export function displayJson(value: unknown, indent = 2): string {
  const json = JSON.stringify(value, null, indent) ?? 'null';
  return json.replace(RAW_IN_JSON, unicodeEscape);
}
