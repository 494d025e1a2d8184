/**
 * Constraint detection: whole sentences that prohibit or restrict an action. A trigger
 * regex runs over the text; for each trigger the enclosing sentence is found (lines always
 * split; inside a line a `.`, `!` or `?` followed by whitespace and a non-lowercase
 * character, or by the closing quote of a JSON string (`.","`), ends a sentence, so `e.g. foo` and `v1.2.3` do not split) and judged by
 * {@link isRestriction}. The handle is the sentence without leading bullets, quote
 * markers, list numbers, checkboxes or comment markers, and without surrounding whitespace.
 * Constraints are prose: a trigger inside inline code (between backticks), on a line of a
 * line-numbered dump (a gutter line) or on a code-looking line is not one (see {@link isCodeLine}).
 */
import type { Candidate } from './candidate.js';
import { isRestriction } from './constraint-rules.js';

const TRIGGER = new RegExp(
  '\\b(?:' +
    [
      // negations and modal prohibitions
      'do not',
      "don['’]t",
      'never',
      "must(?:n['’]t| not| never)",
      "should(?:n['’]t| not| never)",
      'shall not',
      'cannot',
      "can['’]t",
      'can not',
      'may not',
      // restrictions and bans
      'read-?only',
      'only',
      'avoid',
      'forbidden',
      'prohibited',
      'disallowed',
      'not (?:allowed|permitted)',
      'under no circumstances',
      'no longer',
    ].join('|') +
    ')\\b' +
    // a compound such as `append-only`
    '|-only\\b',
  'gi',
);
const MARKER = /^\s*(?:(?:[-*+>•]|\d{1,3}[.)]|#{1,6}|\/{2,}|--|\[[ xX]\])\s+)*/;
/** Longer "sentences" (minified code, base64, logs without stops) are never constraints. */
const MAX_SENTENCE = 600;

function isStop(code: number): boolean {
  return code === 46 || code === 33 || code === 63;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/** Whether the stop at `index` ends a sentence in the line ending at `lineEnd`. */
function endsSentence(text: string, index: number, lineEnd: number): boolean {
  let next = index + 1;
  while (next < lineEnd && isStop(text.charCodeAt(next))) next++;
  if (next >= lineEnd) return true;
  if (text.charCodeAt(next) === 34 && /^"(?:[,:}\]]|\s*$)/.test(text.slice(next, next + 2))) return true;
  if (!isSpace(text.charCodeAt(next))) return false;
  while (next < lineEnd && isSpace(text.charCodeAt(next))) next++;
  const code = text.charCodeAt(next);
  return next >= lineEnd || !(code >= 97 && code <= 122);
}

/** The sentence `[start, end)` holding `at`, or undefined when longer than the limit. */
function sentenceAround(text: string, lineStart: number, lineEnd: number, at: number): [number, number] | undefined {
  let start = at;
  while (start > lineStart && !(isStop(text.charCodeAt(start - 1)) && endsSentence(text, start - 1, lineEnd))) {
    if (at - start > MAX_SENTENCE) return undefined;
    start--;
  }
  let end = at;
  while (end < lineEnd && !(isStop(text.charCodeAt(end)) && endsSentence(text, end, lineEnd))) {
    if (end - start > MAX_SENTENCE) return undefined;
    end++;
  }
  while (end < lineEnd && isStop(text.charCodeAt(end))) end++;
  return [start, end];
}

const CODE_END = /(?:[{;([]|\)\s*do|->|=>|:=)\s*$/;
const CODE_START = /^\s*(?:[{}\])]|%\{|\|>|#\{|<<|\w+\s*:=)/;
const CODE_OPERATORS = /=>|==|!=|&&|\|\||\|>|\+=|\);|\)\s*\{|\b[a-z_][\w.]*\s=\s[\w"'[{(]/;
const CODE_SYMBOLS = /[{}()[\];=<>|&$\\]/g;
const INLINE_CODE = /`[^`\n]*`/g;

/**
 * Whether a line looks like code rather than prose (inline code between backticks aside):
 * it ends like a statement or block opener (`{`, `;`, `) do`, `->`), starts like one (`}`,
 * `%{`, `|>`), holds code operators (`=>`, `==`, `&&`, `|>`, `x = y`), or more than one in
 * eight of its characters are code symbols.
 */
export function isCodeLine(line: string): boolean {
  const bare = line.includes('`') ? line.replace(INLINE_CODE, '``') : line;
  if (CODE_END.test(bare) || CODE_START.test(bare) || CODE_OPERATORS.test(bare)) return true;
  const symbols = bare.match(CODE_SYMBOLS)?.length ?? 0;
  return symbols >= 3 && symbols * 8 > bare.trim().length;
}

/** Whether `at` is inside inline code: an odd number of backticks between the line start and it. */
function inInlineCode(text: string, lineStart: number, at: number): boolean {
  let ticks = 0;
  for (let index = text.indexOf('`', lineStart); index !== -1 && index < at; index = text.indexOf('`', index + 1))
    ticks++;
  return ticks % 2 === 1;
}

/**
 * Finds constraint sentences in the whole text; lines starting at an offset in
 * `gutterLines` (line-numbered file dumps) are skipped.
 */
export function findConstraints(text: string, out: Candidate[], gutterLines: ReadonlySet<number> = new Set()): void {
  TRIGGER.lastIndex = 0;
  let lineStart = 0;
  let lineEnd = -1;
  let acceptedEnd = -1;
  let codeLine = false;
  for (let match = TRIGGER.exec(text); match !== null; match = TRIGGER.exec(text)) {
    const at = match.index;
    if (at < acceptedEnd || (match[0] === '-only' && !/[a-z]/i.test(text[at - 1] ?? ''))) continue;
    if (at > lineEnd) {
      lineStart = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
      lineEnd = text.indexOf('\n', at);
      if (lineEnd === -1) lineEnd = text.length;
      codeLine = gutterLines.has(lineStart) || isCodeLine(text.slice(lineStart, lineEnd));
    }
    if (codeLine || inInlineCode(text, lineStart, at)) continue;
    const span = sentenceAround(text, lineStart, lineEnd, at);
    if (span === undefined) continue;
    const raw = text.slice(span[0], span[1]);
    const lead = (MARKER.exec(raw)?.[0] ?? '').length;
    const sentence = raw.slice(lead).trimEnd();
    const offset = at - span[0] - lead;
    if (offset < 0 || !isRestriction(sentence, offset, match[0])) continue;
    acceptedEnd = span[1];
    out.push({ kind: 'constraint', start: span[0] + lead, end: span[0] + lead + sentence.length });
  }
}
