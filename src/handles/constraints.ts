/**
 * Constraint detection: whole sentences that prohibit or restrict an action. A trigger
 * regex runs over the text; for each trigger the enclosing sentence is found (lines always
 * split; inside a line a `.`, `!` or `?` followed by whitespace and a non-lowercase
 * character, or by the closing quote of a JSON string (`.","`), ends a sentence, so `e.g. foo` and `v1.2.3` do not split) and judged by
 * {@link isRestriction}. The handle is the sentence without leading bullets, quote
 * markers, list numbers, checkboxes or comment markers, and without surrounding whitespace.
 * Constraints are prose: a trigger inside inline code (between backticks), on a line of a
 * line-numbered dump (a gutter line) or on a code-looking line is not one (see {@link isCodeLine}).
 * Tool output is read its own way (option `toolOutput`): a rule a tool printed (a README, a
 * config comment, a ticket, read through a line-number gutter too) is found, to be shown quoted,
 * and only a document's prose can hold one (`tool-lines.ts`, `tool-rules.ts`).
 */
import type { Candidate } from './candidate.js';
import { isRestriction } from './constraint-rules.js';
import { isLedgerText } from './ledger-text.js';
import { isDirective } from './rule-directives.js';
import { toolLineJudge } from './tool-document.js';
import { isSourceLine } from './tool-lines.js';
import type { ToolLine, ToolLineJudge } from './tool-lines.js';
import { inParentheses, isLoud, isQuotedRule } from './tool-rules.js';
import { triggerWordAt } from './trigger-words.js';

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
  'i',
);
/**
 * Words that can anchor a rule without a negation (see `rule-directives.ts`): rule verbs, ask and approval
 * verbs, modals, universal and budget words, bans opening with "No".
 */
const DIRECTIVE_TRIGGER = new RegExp(
  '\\b(?:' +
    [
      'always',
      'sure',
      'ensure',
      'remember',
      'must',
      'needs?',
      'requires?',
      'required',
      'mandatory',
      'off[- ]limits',
      'keep',
      'stay',
      'stick',
      'refrain',
      'limit',
      'restrict',
      'confine',
      'cap',
      'prefer',
      'leave',
      'continue',
      'go on',
      'carry on',
      'ask',
      'check with',
      'confirm',
      'talk to',
      'ping',
      'consult',
      'run (?:it|this|that|them|the)',
      'get \\w+ to',
      'have \\w+ (?:sign|review|approve|check)',
      'have to',
      'should at least',
      'wait for',
      'stop and',
      'pause and',
      'let \\w+ know',
      'seek',
      'approvals?',
      'sign-?off',
      'go-ahead',
      'reviewers?',
      'permission',
      'may',
      'you can',
      'allowed',
      'permitted',
      'feel free',
      '(?:is|are) fine',
      'every',
      'whenever',
      'each',
      'all new',
      'all future',
      'for all',
      'from now on',
      'going forward',
      'at most',
      'more than',
      'up to',
      'rather than',
      'instead of',
      'not',
      'no',
      'nothing',
      'hands off',
      'told',
      'said',
      'asked',
      'feedback',
      'match',
      'follow',
      'mirror',
      'adhere',
      'conform',
    ].join('|') +
    ')\\b',
  'i',
);
const ANY_TRIGGER = new RegExp(`(${TRIGGER.source})|${DIRECTIVE_TRIGGER.source}`, 'gi');

/** `ANY_TRIGGER.exec(text)`, run only when a word that may start a trigger is left (see `trigger-words.ts`). */
function nextTrigger(text: string): RegExpExecArray | null {
  const from = ANY_TRIGGER.lastIndex;
  const word = triggerWordAt(text, from);
  if (word === -1) {
    ANY_TRIGGER.lastIndex = 0;
    return null;
  }
  // `-only` starts one character before its word
  ANY_TRIGGER.lastIndex = Math.max(from, word - 1);
  return ANY_TRIGGER.exec(text);
}
const MARKER =
  /^\s*(?:(?:[-*+>•]|\d{1,3}[.)]|#{1,6}|\/{2,}|\/\*+|--|;{1,2}|\[[ xX]\]|\[(?:user|system) instruction\])\s+)*/;
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
  if (next >= lineEnd || !(code >= 97 && code <= 122)) return true;
  // People often start a sentence in lower case ("Rename it. keep the old key too."); an abbreviation's stop
  // ("e.g. foo", "vs. bar") or a single letter's ("J. doe") does not end one.
  return text.charCodeAt(index) === 46 && !ABBREVIATION.test(text.slice(Math.max(0, index - 8), index));
}

/** Words whose stop is an abbreviation's, before a lower-case word: "e.g.", "i.e.", "etc.", "vs.", a single letter. */
const ABBREVIATION = /(?:^|[^\w.])(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|esp|fig|eq|no|ca|al|[A-Za-z])$|\.[A-Za-z]$/i;

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

/**
 * Lines of logs and listings rather than prose: a leading timestamp or date, a `grep -C` context line number
 * (`426-  …`), a `grep -n` hit (`src/a.go:39:`, `src/a.go-39-`), a commit hash (`git log --oneline`) or a log level.
 */
const LOG_LINE =
  /^\s*(?:\[?\d{2,4}[-/:.]\d{2}[-/:.]\d{2}|\d+-\s|[\w./-]+\.\w+[-:]\d+[-:]|[0-9a-f]{7,40}\s|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b)/;
const CODE_END = /(?:[{;([]|\)\s*do|->|=>|:=)\s*$/;
const CODE_START = /^\s*(?:[{}\])]|%\{|\|>|#\{|<<|\w+\s*:=|(?:return|raise)\s+[\w.]+\(|throw new\b)/;
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

/** Options of {@link findConstraints}. */
export interface ConstraintOptions {
  /**
   * The text is a tool's output: a rule found in it is quoted, so it is taken only from a document's prose (see
   * `tool-lines.ts`: never from code, logs, diffs, examples or the ledger's own lines) and only when it reads as a
   * rule of the project (`tool-rules.ts`). Line-numbered dumps are read through their gutters.
   */
  readonly toolOutput?: boolean;
  /**
   * `false`: only rules with a negation ("do not", "never", "read-only"), not the directives of `rule-directives.ts`
   * (ignored for tool output, which reads both its own stricter way).
   */
  readonly directives?: boolean;
}

/** Where a trigger's line stands: skipped, or read as prose or (in tool output) as a comment of source code. */
interface LineState {
  start: number;
  end: number;
  kind: ToolLine;
}

function enterLine(
  text: string,
  at: number,
  state: LineState,
  gutterLines: ReadonlySet<number>,
  judge?: ToolLineJudge,
) {
  state.start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
  state.end = text.indexOf('\n', at);
  if (state.end === -1) state.end = text.length;
  if (judge !== undefined) {
    // a line of code holds no rule whatever its document: passed over before the document is read
    const line = text.slice(state.start, state.end);
    if (isSourceLine(line.trimStart())) {
      state.kind = 'skip';
      return;
    }
    state.kind = judge(state.start);
    // a comment on code holds a rule only when written loud: without a loud word the line is passed over
    if (state.kind === 'code' && !isLoud(line)) state.kind = 'skip';
    return;
  }
  const line = text.slice(state.start, state.end);
  // a `//` comment line in a message is pasted code: it holds a rule only when written loud ("// DO NOT EDIT")
  const comment = /^\s*\/[/*]/.test(line) && !isLoud(line);
  state.kind = comment || gutterLines.has(state.start) || isCodeLine(line) || LOG_LINE.test(line) ? 'skip' : 'prose';
}

/**
 * Whether the sentence `span` of tool output is cut by a line wrap: it reaches the end of its line without closing
 * punctuation and the next line goes on in lower case, or goes on as the same comment; or it opens its line in lower
 * case after a line left without closing punctuation.
 */
function isWrapped(text: string, span: readonly [number, number], line: LineState): boolean {
  const sentence = text.slice(span[0], span[1]).trimEnd();
  if (span[0] + sentence.length < line.end - 1 || /[.!?:;]["'`)\]*]*$/.test(sentence)) return false;
  if (/^\s*[a-z]/.test(sentence) && text.slice(line.start, span[0]).replace(COMMENT_LEAD, '').trim() === '') {
    // opening its line in lower case after a line left unfinished: the line before holds its start
    const before = text.slice(Math.max(0, line.start - 160), Math.max(0, line.start - 1));
    const previous = before
      .slice(before.lastIndexOf('\n') + 1)
      .replace(COMMENT_LEAD, '')
      .trim();
    if (previous !== '' && !/[.!?:;]["'`)\]*]*$/.test(previous)) return true;
  }
  if (span[0] + sentence.length < line.end - 1 || /[.!?:;]["'`)\]*]*$/.test(sentence)) return false;
  const next = text.slice(line.end + 1, line.end + 120);
  if (/^[ \t]*[a-z(]/.test(next)) return true;
  // a comment that goes on in the next comment line ("# … will require a" / "# NAME and …")
  return COMMENT_LEAD.test(text.slice(line.start, span[0])) && COMMENT_WORD.test(next);
}

const COMMENT_LEAD = /^[ \t]*(?:#+|\/\/+|--|;+|\*)/;
const COMMENT_WORD = /^[ \t]*(?:#+|\/\/+|--|;+|\*)[ \t]*\w/;

/** What may stand on a line before a sentence that opens it: list markers, numbers, comment markers, blanks. */
const LINE_OPENER = /^\s*(?:(?:[-*+>•]|\d{1,3}[.)]|#{1,6}|\/{2,}|\/\*+|--|;{1,2}|\[[ xX]\])\s*)*$/;
const BULLET = /[-*+•]|\d[.)]|\[[ xX]\]/;

/** Whether the sentence `span` of tool output (its marker `lead` characters long) is a quoted rule (`tool-rules.ts`). */
function isQuoted(
  text: string,
  span: readonly [number, number],
  lead: number,
  line: LineState,
  negation: string | undefined,
): boolean {
  if (line.kind === 'skip') return false;
  const sentence = text.slice(span[0] + lead, span[1]).trimEnd();
  // the markers before it on its line (the sentence splitter may have cut "1." off as a sentence of its own)
  const prefix = text.slice(line.start, span[0] + lead);
  const opensLine = LINE_OPENER.test(prefix);
  const place = {
    line: line.kind,
    listItem: opensLine && /\S/.test(prefix),
    bullet: opensLine && BULLET.test(prefix),
    ownLine: opensLine && text.slice(span[0] + lead + sentence.length, line.end).trim() === '',
    wrapped: isWrapped(text, span, line),
  };
  return isQuotedRule(sentence, place, negation);
}

/**
 * A sentence that only introduces what follows ("Each response should include:", "You MUST use this EXACT command to
 * submit:"): the rule is in the lines after it, so pinned alone it tells the reader nothing and costs the window.
 */
function isLeadIn(sentence: string): boolean {
  return sentence.endsWith(':');
}

/**
 * Finds constraint sentences in the whole text; lines starting at an offset in `gutterLines` (line-numbered file
 * dumps) are skipped, except in tool output (see {@link ConstraintOptions}).
 */
export function findConstraints(
  text: string,
  out: Candidate[],
  gutterLines: ReadonlySet<number> = new Set(),
  options: ConstraintOptions = {},
): void {
  const toolOutput = options.toolOutput === true;
  const directives = toolOutput || options.directives !== false;
  const judge = toolOutput ? toolLineJudge(text, gutterLines) : undefined;
  ANY_TRIGGER.lastIndex = 0;
  const line: LineState = { start: 0, end: -1, kind: 'prose' };
  let acceptedEnd = -1;
  let judgedStart = -1;
  let judgedEnd = -1;
  for (let match = nextTrigger(text); match !== null; match = nextTrigger(text)) {
    const at = match.index;
    if (at < acceptedEnd || (match[0] === '-only' && !/[a-z]/i.test(text[at - 1] ?? ''))) continue;
    // an anchor word inside a sentence already judged as a whole adds nothing
    if (match[1] === undefined && at < judgedEnd) continue;
    if (at > line.end) enterLine(text, at, line, gutterLines, judge);
    if (line.kind === 'skip') {
      ANY_TRIGGER.lastIndex = Math.max(ANY_TRIGGER.lastIndex, line.end);
      continue;
    }
    if (inInlineCode(text, line.start, at)) continue;
    const span = sentenceAround(text, line.start, line.end, at);
    if (span === undefined) continue;
    const raw = text.slice(span[0], span[1]);
    const lead = (MARKER.exec(raw)?.[0] ?? '').length;
    const sentence = raw.slice(lead).trimEnd();
    const offset = at - span[0] - lead;
    if (offset < 0) continue;
    const aside = judge !== undefined && inParentheses(sentence, offset);
    const negation = match[1] !== undefined && !aside && isRestriction(sentence, offset, match[0]);
    // a sentence is judged as a whole once, however many anchor words it holds
    const rule =
      !negation && (span[0] === judgedStart || !directives)
        ? false
        : judge === undefined
          ? negation || isDirective(sentence)
          : isQuoted(text, span, lead, line, negation ? match[0] : undefined);
    if (!rule) {
      judgedStart = span[0];
      judgedEnd = span[1];
      continue;
    }
    acceptedEnd = span[1];
    if (isLedgerText(sentence) || isLeadIn(sentence)) continue;
    out.push({ kind: 'constraint', start: span[0] + lead, end: span[0] + lead + sentence.length });
  }
}
