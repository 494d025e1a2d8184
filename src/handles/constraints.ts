/**
 * Constraint detection: whole sentences that prohibit or restrict an action. A trigger
 * (`constraint-triggers.ts`) is searched for; for each one the enclosing sentence is found (`sentence-bounds.ts`) and
 * judged by {@link isRestriction} or `rule-directives.ts`. The handle is the sentence without what opens it (bullets, quote
 * markers, list numbers, checkboxes, comment markers, the block's labels: `sentence-lead.ts`) and surrounding whitespace.
 * Constraints are prose: a trigger inside inline code (between backticks), on a line of a
 * line-numbered dump (a gutter line) or on a code-looking line is not one (see {@link isCodeLine}).
 * Tool output is read its own way (option `toolOutput`): a rule a tool printed (a README, a
 * config comment, a ticket, read through a line-number gutter too) is found, to be shown quoted,
 * and only a document's prose can hold one (`tool-lines.ts`, `tool-rules.ts`).
 */
import type { Candidate } from './candidate.js';
import { nextTrigger, triggerScan } from './constraint-triggers.js';
import { isRestriction } from './constraint-rules.js';
import { isLedgerText } from './ledger-text.js';
import { isDirective } from './rule-directives.js';
import { sentenceAround } from './sentence-bounds.js';
import { BULLET, LINE_OPENER, isLeadIn, leadLength, underProposal } from './sentence-lead.js';
import { toolLineJudge } from './tool-document.js';
import { isSourceLine } from './tool-lines.js';
import type { ToolLine, ToolLineJudge } from './tool-lines.js';
import { inParentheses, isLoud, isQuotedRule } from './tool-rules.js';

/**
 * Lines of logs and listings rather than prose: a leading timestamp or date, a `grep -C` context line number
 * (`426-  …`), a `grep -n` hit (`src/a.go:39:`, `src/a.go-39-`), a commit hash (`git log --oneline`) or a log level.
 */
const LOG_LINE =
  /^\s*(?:\[?\d{2,4}[-/:.]\d{2}[-/:.]\d{2}|\d+-\s|[\w./-]+\.\w+[-:]\d+[-:]|[0-9a-f]{7,40}\s|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b)/;
/** A warning written to the reader, not logged: "WARNING: Do not use …", "NOTE: always run …". */
const ADMONITION = /^\s*(?:WARNING|NOTE|IMPORTANT|CAUTION):\s+(?:do not|don't|never|always|only|make sure|you must)\b/i;
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
  const log = LOG_LINE.test(line) && !ADMONITION.test(line);
  state.kind = comment || gutterLines.has(state.start) || isCodeLine(line) || log ? 'skip' : 'prose';
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
  triggerScan.lastIndex = 0;
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
      triggerScan.lastIndex = Math.max(triggerScan.lastIndex, line.end);
      continue;
    }
    if (inInlineCode(text, line.start, at)) continue;
    const span = sentenceAround(text, line.start, line.end, at);
    if (span === undefined) continue;
    const raw = text.slice(span[0], span[1]);
    const lead = leadLength(raw);
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
    // an order over its list or code under a proposal's heading ("## The Fix") is the fix's step (tool output reads
    // the whole document: `tool-document.ts`)
    if (judge === undefined && sentence.endsWith(':') && underProposal(text, line.start)) continue;
    out.push({ kind: 'constraint', start: span[0] + lead, end: span[0] + lead + sentence.length });
  }
}
