/**
 * The line judge of one tool output (the kinds are told in `tool-lines.ts`). What a line is depends on the lines
 * around it, so the output is read as a document, cheaply and only as far as it is asked about:
 *
 * - one pass of cheap tests over every line carries the state that runs from line to line: a fenced block, a
 *   multi-line string of code (an odd number of backticks opens or closes one), the lines under an example lead or a
 *   proposal's heading, the few lines after an error, a ledger block read back, a unified diff after its first hunk
 *   header;
 * - a line's own kind (`lineKind`, a dozen patterns) is read only for the lines asked about, their neighbours (a
 *   comment next to a line of code is a comment on code) and a sample of at most {@link SAMPLE_LINES} lines that
 *   tells whether the document is a source file (a quarter of its lines code).
 */
import { LEDGER_MARKER, RECALL_HINT } from '../text/block-headings.js';
import { imitatesLabel } from '../text/role-labels.js';
import { PROPOSAL_HEAD, RULED_HEADING } from './sentence-lead.js';
import { ADMONITION, FENCE, gutterWidth, lineKind } from './tool-lines.js';
import type { LineKind, ToolLine, ToolLineJudge } from './tool-lines.js';

/** A unified diff's hunk header: from it on, `+`, `-`, ` ` and `\` lines are the diff's, never a document's prose. */
const HUNK = /^@@ .* @@/m;
const DIFF_LINE = /^[-+ \\]/;
/** An error, warning or exception line of a program (a capitalised "Warning:" in a document may lead a rule). */
const ERROR_LINE = new RegExp(
  [
    String.raw`^\s*(?:[\w.]*[A-Z]\w*(?:Error|Exception|Warning|Failure|Fault)\b[^:\n]{0,40}:`,
    String.raw`|[a-z_]\w*(?:\.\w+)+:\s`,
    String.raw`|(?:error|fatal|panic|warning|warn|hint|err|ERROR|FATAL|PANIC|WARNING|WARN|Error)\s*[:[]|npm ERR!`,
    String.raw`|Traceback \(|[Ee]xit(?:ed)? (?:code|status)\b`,
    // a compiler's or linter's finding at a place (`lib/a.ex:112:pattern_match`): its message follows
    String.raw`|[\w./-]+\.[A-Za-z]\w{0,7}:\d+(?::\d+)?:)`,
  ].join(''),
);
const LOG_LEVEL = /\blevel=(?:error|warn|warning|info|debug|fatal)\b/;
const EXAMPLE_LEAD = /\b(?:examples?|e\.g\.|for instance|sample|such as|like this|for example)\b[^:\n]{0,60}:\s*$/i;
const EXAMPLE_HEADING = /^\s*#{1,6}\s+(?:\w+\s+){0,2}examples?\b/i;
const HEADING = /^\s*#{1,6}\s/;
/** The first words of the block's closing line: a ledger block read back ends there. */
const RECALL_HINT_START = RECALL_HINT.slice(0, 40);
/**
 * Lines after an error line that still read as its message: its advice ("Please make sure you have the correct access
 * rights", "Ensure the database is running") or a line it wrapped onto (lower case).
 */
const ERROR_TAIL_LINES = 4;
const ERROR_ADVICE =
  /^\s*(?:please|ensure|make sure|check|try|verify|run|use|you|did you|see|hint|note|consider|maybe|perhaps)\b/i;
const ERROR_WRAP = /^\s*[a-z(]/;
/** A document is source code when this share of its lines (and {@link CODE_DOCUMENT_MIN} at least) are code. */
const CODE_DOCUMENT_SHARE = 0.25;
const CODE_DOCUMENT_MIN = 4;
/** Lines read to tell whether a document is a source file (evenly spread over a longer one). */
const SAMPLE_LINES = 80;
/** How far a comment run is followed to the line of code it sits next to. */
const NEIGHBOUR_LINES = 40;

function isBlank(line: string): boolean {
  for (let at = 0; at < line.length; at++) {
    const code = line.charCodeAt(at);
    if (code !== 32 && code !== 9 && code !== 13) return false;
  }
  return true;
}

/** A cheap first test for {@link ERROR_LINE}: its first non-blank character is a letter, `.`, `/` or `_`. */
function mayBeError(line: string): boolean {
  let at = 0;
  while (at < line.length && (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9)) at++;
  const code = line.charCodeAt(at) | 32;
  return (code >= 97 && code <= 122) || code === 46 || code === 47 || code === 127;
}

/** Whether a line ends in a colon (trailing blanks aside). */
function endsWithColon(line: string): boolean {
  let at = line.length - 1;
  while (at >= 0 && (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9 || line.charCodeAt(at) === 13)) at--;
  return at >= 0 && line.charCodeAt(at) === 58;
}

/** The index of the line starting at `start` in the sorted line starts, or -1. */
function lineIndex(starts: readonly number[], start: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = starts[middle] ?? 0;
    if (value === start) return middle;
    if (value < start) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

function backticks(line: string): number {
  let count = 0;
  for (let at = line.indexOf('`'); at !== -1; at = line.indexOf('`', at + 1)) count++;
  return count;
}

/** The index after an example block that starts below line `index` (a list under a lead, a section under a heading). */
function exampleEnd(lines: readonly string[], index: number, heading: boolean): number {
  let end = index + 1;
  let seen = false;
  for (; end < lines.length; end++) {
    const line = lines[end] ?? '';
    const nextHeading =
      heading && ((line.includes('#') && HEADING.test(line)) || (line.includes('==') && RULED_HEADING.test(line)));
    if (heading ? nextHeading : isBlank(line) && seen) break;
    if (!isBlank(line)) seen = true;
  }
  return end;
}

/**
 * Marks the lines the running state rules out: fences, strings of code, examples, error tails, ledger blocks. The
 * state runs forward from line to line, so the pass is taken only as far as a line asked about ({@link advance}): a
 * judge asked about the first lines of a long output never reads the rest. Whether a line is an error's message
 * depends only on it and the {@link ERROR_TAIL_LINES} lines before it, so it is read only for the lines asked about
 * and the example leads the pass meets.
 */
export class BlockedLines {
  /** Lines the running state rules out (error messages aside). */
  private readonly blocked: Uint8Array;
  /** Per line: 0 not read yet, 1 no error line, 2 an error line. */
  private readonly errors: Uint8Array;
  /** The next line the pass reads. */
  private next = 0;
  private fenced = false;
  private rawString = false;
  private exampleUntil = -1;
  private ledgerBlock = false;

  constructor(
    private readonly lines: readonly string[],
    private readonly starts: readonly number[],
    private readonly hunk: number,
  ) {
    this.blocked = new Uint8Array(lines.length);
    this.errors = new Uint8Array(lines.length);
  }

  /** How many lines the pass has read, and how many lines were tested as error lines (for the tests). */
  get reads(): { readonly lines: number; readonly errorTests: number } {
    let errorTests = 0;
    for (const known of this.errors) if (known !== 0) errorTests++;
    return { lines: this.next, errorTests };
  }

  /** Whether line `index` is ruled out (the pass read up to it first). */
  has(index: number): boolean {
    if (index >= this.next) this.advance(index);
    return this.blocked[index] === 1 || this.isErrorMessage(index);
  }

  /** Whether line `index` is an error, warning or exception line of a program. */
  private isErrorLine(index: number): boolean {
    let known = this.errors[index] ?? 1;
    if (known === 0) {
      const line = this.lines[index] ?? '';
      const error =
        !isBlank(line) &&
        mayBeError(line) &&
        (ERROR_LINE.test(line) || (line.includes('level=') && LOG_LEVEL.test(line))) &&
        !ADMONITION.test(line);
      known = error ? 2 : 1;
      this.errors[index] = known;
    }
    return known === 2;
  }

  /** An error line, or its message going on below it: its advice ("Please make sure …") or a wrapped line. */
  private isErrorMessage(index: number): boolean {
    const line = this.lines[index] ?? '';
    if (isBlank(line)) return false;
    if (this.isErrorLine(index)) return true;
    if (!ERROR_WRAP.test(line) && !ERROR_ADVICE.test(line)) return false;
    for (let before = Math.max(0, index - ERROR_TAIL_LINES); before < index; before++)
      if (this.isErrorLine(before)) return true;
    return false;
  }

  /** Reads the lines up to `last` (inclusive). */
  private advance(last: number): void {
    const { lines, starts, hunk, blocked } = this;
    const to = Math.min(last + 1, lines.length);
    for (let index = this.next; index < to; index++) {
      const line = lines[index] ?? '';
      if (isBlank(line)) continue;
      const fence = line.includes('`') || line.includes('~') ? FENCE.test(line) : false;
      if (fence) this.fenced = !this.fenced;
      // a multi-line string of code (a Go or JS template between backticks) holds no document's prose
      const opensString = !fence && line.includes('`') && backticks(line) % 2 === 1;
      const inString = this.rawString || opensString;
      if (opensString) this.rawString = !this.rawString;
      if (line.includes(LEDGER_MARKER) && line.trim() === LEDGER_MARKER) this.ledgerBlock = true;
      const inDiff = hunk !== -1 && (starts[index] ?? 0) >= hunk && (DIFF_LINE.test(line) || line.startsWith('@@'));
      const ruledOut = fence || this.fenced || inString || inDiff || this.ledgerBlock || index < this.exampleUntil;
      if (ruledOut) blocked[index] = 1;
      if (this.ledgerBlock && line.startsWith(RECALL_HINT_START)) this.ledgerBlock = false;
      // under one of the block's own headings or labels its lines follow until a blank line (`constraint: Never …`)
      if (imitatesLabel(line)) {
        blocked[index] = 1;
        this.exampleUntil = Math.max(this.exampleUntil, exampleEnd(lines, index, false));
      } else if (
        ((endsWithColon(line) && EXAMPLE_LEAD.test(line)) || (line.includes('#') && EXAMPLE_HEADING.test(line))) &&
        !ruledOut &&
        !this.isErrorMessage(index)
      ) {
        this.exampleUntil = exampleEnd(lines, index, HEADING.test(line));
      } else if (line.length < 60 && !ruledOut && PROPOSAL_HEAD.test(line)) {
        // a proposal's heading holds its section, its label the list under it (see `sentence-lead.ts`)
        this.exampleUntil = exampleEnd(lines, index, !endsWithColon(line));
      }
    }
    this.next = Math.max(this.next, to);
  }
}

/** A tool output's lines, read lazily (see the module notes). */
interface Reading {
  readonly lines: readonly string[];
  readonly starts: readonly number[];
  readonly blocked: BlockedLines;
  readonly kinds: (LineKind | undefined)[];
  readonly kindOf: (index: number) => LineKind;
  codeDocument: boolean | undefined;
}

function read(view: string, gutterLines: ReadonlySet<number>): Reading {
  const lines = view.split('\n');
  const starts: number[] = new Array<number>(lines.length);
  let start = 0;
  for (let index = 0; index < lines.length; index++) {
    starts[index] = start;
    start += (lines[index] ?? '').length + 1;
  }
  const width = gutterLines.size === 0 ? 0 : gutterWidth(lines, starts, gutterLines);
  const kinds: (LineKind | undefined)[] = new Array<LineKind | undefined>(lines.length);
  const kindOf = (index: number): LineKind => {
    let kind = kinds[index];
    if (kind === undefined) {
      const line = lines[index] ?? '';
      const gutter = gutterLines.has(starts[index] ?? -1);
      const own = gutter ? line.slice(Math.min(width, line.length)) : line;
      kind = lineKind(line, gutter, /^(?: {4}|\t)/.test(own));
      kinds[index] = kind;
    }
    return kind;
  };
  const hunk = view.startsWith('@@ ') || view.includes('\n@@ ') ? (HUNK.exec(view)?.index ?? -1) : -1;
  const blocked = new BlockedLines(lines, starts, hunk);
  return { lines, starts, blocked, kinds, kindOf, codeDocument: undefined };
}

/** Whether the document reads as a source file: a quarter of its (sampled) lines that may hold text are code. */
function isCodeDocument(reading: Reading): boolean {
  const { lines, blocked, kindOf } = reading;
  const step = Math.max(1, Math.floor(lines.length / SAMPLE_LINES));
  let code = 0;
  let counted = 0;
  for (let index = 0; index < lines.length; index += step) {
    if (blocked.has(index)) continue;
    const kind = kindOf(index);
    if (kind === 'blank' || kind === 'skip' || kind === 'fence') continue;
    counted++;
    if (kind === 'code') code++;
  }
  return code >= CODE_DOCUMENT_MIN / step && code >= counted * CODE_DOCUMENT_SHARE;
}

/** The kind of the nearest line before (`step` -1) or after (+1) `from` that is neither a comment nor blank. */
function neighbourKind(reading: Reading, from: number, step: number): LineKind | undefined {
  for (
    let index = from, seen = 0;
    index >= 0 && index < reading.lines.length && seen < NEIGHBOUR_LINES;
    index += step
  ) {
    seen++;
    const kind = reading.kindOf(index);
    if (kind !== 'comment' && kind !== 'blank') return kind;
  }
  return undefined;
}

/**
 * The line judge of one tool output's detection view (see the module notes and `tool-lines.ts`); `gutterLines` are
 * the offsets of lines that start with a (masked) line-number gutter.
 */
export function toolLineJudge(view: string, gutterLines: ReadonlySet<number>): ToolLineJudge {
  let reading: Reading | undefined;
  return (lineStart): ToolLine => {
    reading ??= read(view, gutterLines);
    const index = lineIndex(reading.starts, lineStart);
    if (index === -1) return 'skip';
    // the line's own kind first: a line that is no comment or prose is passed over without running the pass to it
    const kind = reading.kindOf(index);
    if ((kind !== 'note' && kind !== 'comment' && kind !== 'prose') || reading.blocked.has(index)) return 'skip';
    if (kind === 'note') return 'code';
    // a comment next to a line of code (a doc comment above a function, a comment in its body) is a note on code
    if (
      kind === 'comment' &&
      (neighbourKind(reading, index - 1, -1) === 'code' || neighbourKind(reading, index + 1, 1) === 'code')
    )
      return 'code';
    reading.codeDocument ??= isCodeDocument(reading);
    // a comment or a docstring of a source file describes its code
    return reading.codeDocument ? 'code' : 'prose';
  };
}
