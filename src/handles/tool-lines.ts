/**
 * Which lines of a tool's output can hold a rule quoted from it. A rule said in tool output (a config comment
 * "# never run migrations on prod", a README's "Do not commit secrets", a ticket's "No UI changes in this task") is
 * pinned as quoted tool output; everything else a tool prints is kept out, so a quoted rule is a rule:
 *
 * - `skip`: never a rule — a diff's lines (after its first hunk header, or `+`/`-` lines that are no list
 *   items), a command-line option's help, a test run's check marks and assertion diffs, an error or log line and the
 *   few lines after an error (`fatal: …` then "Check that the remote exists and that you may read it"), a grep hit
 *   (`src/a.py:  # …`), a string literal, a config value line, a fenced block, the lines under an example lead
 *   ("Examples:", an "Examples" heading), the lines under a proposal ("## Proposed Solution", "Implementation:"), a
 *   ledger block read back (from its `[context-ledger]` marker to its
 *   closing line), its labelled lines, its headings and the lines under them, a harness reminder addressed to the
 *   model (the malware notice, the todo-list nudge);
 * - `skip` too: a line of source code, a multi-line string of code, and an indented block (a docstring, a quoted
 *   commit message);
 * - `code`: a comment or prose line of a document that reads as a source file (a quarter of its lines code): it
 *   describes the code, so a rule is only taken from it when it is written loud (`DO NOT EDIT`, `NEVER`), see
 *   `tool-rules.ts`;
 * - `prose`: a line of a document (README, spec, ticket, config comment, help page).
 *
 * Line-number gutters (masked to blanks in the view) are read through: a file read with a gutter is judged by its
 * content, though its indentation is then unknown.
 */
import { imitatesLabel } from '../text/role-labels.js';

/** How a line of tool output is read. */
export type ToolLine = 'prose' | 'code' | 'skip';

/** The judge of one tool output: the kind of the line starting at an offset of the view (see `tool-document.ts`). */
export type ToolLineJudge = (lineStart: number) => ToolLine;

/** A Markdown fence line (``` or ~~~). */
export const FENCE = /^\s*(?:```|~~~)/;
const DIFF_OR_OPTION = /^(?:[+-](?![+-]*\s)|\s*--?\[?[A-Za-z]|@@ )/;
const TEST_MARK =
  /^\s*(?:[✓✗✔✘×✅❌⚠]|(?:PASS|FAIL|FAILED|ERROR|OK|SKIP(?:PED)?)\b|(?:not )?ok \d|---\s*(?:PASS|FAIL)|={3,}|Test(?:\s+case)?\s*\d*\s*:)/;
const ASSERTION = /^\s*(?:left|right|expected|actual|got|want|received|diff)\s*:/i;
const LOG_LINE =
  /^\s*(?:\[?\d{2,4}[-/:.]\d{2}[-/:.]\d{2}|\d+-\s|[\w./-]+\.\w+[-:]\d+[-:]|[0-9a-f]{7,40}\s|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b)/;
/**
 * A warning written loud that opens with an order to the reader ("WARNING: Do not use …"): a document's admonition, not
 * a program's warning (a compiler's `warning: …` stays one).
 */
export const ADMONITION =
  /^\s*WARNING\s*:\s*(?:[Dd]o not|DO NOT|[Dd]on't|DON'T|[Nn]ever|NEVER|[Aa]lways|ALWAYS|[Mm]ust|MUST)\b/;
const GREP_HIT = /^\s*(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.[A-Za-z]\w{0,7}(?::(?:\d+:)?|-\d+-)/;
const STRING_LITERAL = /^\s*(?:[rbfuRBFU]{0,2}["'](?!\s*$)|_\(\s*["'])/;
/** A harness reminder addressed to the model, printed inside tool output (not a rule of the project). */
const BOILERPLATE_LINE = /\bmalware\b|\btodo list\b|\bsystem-reminder\b/i;
const NUMBERED_GUTTER = /^\s*\d{1,7}\s*(?:[:|│]|\t)/;
/** A config value line (`KEY=VALUE`, `key: value`, `[section]`, a YAML list item): no sentence, and not code. */
const CONFIG_LINE = /^\s*(?:(?:export\s+)?[A-Za-z_][\w.-]*\s*[=:]\s*\S*\s*$|\[[\w. "-]+\]\s*$|-\s+\S+\s*$)/;
const COMMENT = /^\s*(?:#|\/\/|\/\*|\*(?!\*)|--\s|;|<!--|%\s|"""|''')/;
const CODE_KEYWORD = new RegExp(
  String.raw`^\s*(?:(?:def|class|func|fn|pub|impl|struct|enum|interface|package|import|export|return|raise|assert|` +
    String.raw`throw|yield|await|async|elif|except|catch|finally|switch|var|let|const|defmodule|defp?)\s|` +
    String.raw`from\s+[\w.]+\s+import|else\b\s*[:{]|try\s*[:{]|case\s.*:$|if\s*\(|if\s.*[:{]\s*$|for\s*\(|` +
    String.raw`for\s.*[:{]\s*$|while\s.*[:{]\s*$|with\s.*:\s*$|(?:pass|break|continue|end|do)$|@\w+)`,
);
const CALL_START = /^\s*[\w.]+(?:<[^>]*>)?\([^)]*\)?\s*(?:[;{]|\/\/|#|$)|^\s*[\w.]+\(.*\)\s*\.\w+/;
const CODE_END = /(?:[{;([,]|\)\s*do|->|=>|:=)\s*$/;
const CODE_OPERATORS = /=>|==|!=|&&|\|\||\|>|\+=|\);|\)\s*\{|\s:=\s|\b[a-z_][\w.]*\s=\s[\w"'[{(]/;
/** A struct field with a tag (Go): `Name string \`json:"name"\``. */
const TAGGED_FIELD = /^\s*[A-Z]\w*\s+[[\]*\w.]+\s+`[^`]*`\s*$/;
/** The code symbols `{}()[];=<>|&$\\` a line of code is thick with, by char code. */
const CODE_SYMBOL = new Uint8Array(128);
for (const char of '{}()[];=<>|&$\\') CODE_SYMBOL[char.charCodeAt(0)] = 1;

/** How many code symbols `line` holds (counted in place: no array of matches). */
function codeSymbols(line: string): number {
  let count = 0;
  for (let at = 0; at < line.length; at++) {
    // Only ASCII codes index the table (a read past its end deoptimizes the loop).
    const code = line.charCodeAt(at);
    if (code < 128 && CODE_SYMBOL[code] === 1) count++;
  }
  return count;
}
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)])\s/;
const NON_BLANK = /\S/;
/** Whether a line's content (gutter blanked) is a line of source code. */
export function isSourceLine(content: string): boolean {
  const bare = content.includes('`') ? content.replace(/`[^`\n]*`/g, '``') : content;
  if (CODE_KEYWORD.test(bare) || CALL_START.test(bare) || CODE_END.test(bare) || CODE_OPERATORS.test(bare)) return true;
  if (TAGGED_FIELD.test(content)) return true;
  const symbols = codeSymbols(bare);
  return symbols >= 3 && symbols * 8 > bare.trim().length;
}

/** `note`: a comment on code (next to a line of code); `config`: a config value line. */
export type LineKind = ToolLine | 'comment' | 'note' | 'config' | 'blank' | 'fence';

/**
 * The kind of one line on its own (before the document's kind is known). `gutter`: the line starts with a masked
 * line-number gutter; `indented`: its own text is indented (four blanks or a tab past the gutter).
 */
export function lineKind(line: string, gutter: boolean, indented: boolean): LineKind {
  // `line.trim() === ''` without the trimmed copy
  if (!NON_BLANK.test(line)) return 'blank';
  if (FENCE.test(line)) return 'fence';
  if (!gutter && DIFF_OR_OPTION.test(line)) return 'skip';
  const content = gutter ? line.trimStart() : line;
  const log = LOG_LINE.test(content) && !ADMONITION.test(content);
  if (TEST_MARK.test(content) || ASSERTION.test(content) || log || GREP_HIT.test(content)) return 'skip';
  if (NUMBERED_GUTTER.test(content) || BOILERPLATE_LINE.test(content) || imitatesLabel(content.trim())) return 'skip';
  // an indented comment sits in a block of code
  if (COMMENT.test(content)) return indented ? 'note' : 'comment';
  if (CONFIG_LINE.test(content)) return 'config';
  if (STRING_LITERAL.test(content) || isSourceLine(content)) return 'code';
  // an indented block (a docstring, a quoted commit message, a Markdown code block) is not the document's prose
  if (indented && !LIST_ITEM.test(content)) return 'code';
  return 'prose';
}

/** The blanks a line-number gutter leaves before its line's text: the fewest before any gutter line's text. */
export function gutterWidth(
  lines: readonly string[],
  starts: readonly number[],
  gutterLines: ReadonlySet<number>,
): number {
  let width = Infinity;
  lines.forEach((line, index) => {
    if (!gutterLines.has(starts[index] ?? -1) || line.trim() === '') return;
    width = Math.min(width, line.length - line.trimStart().length);
  });
  return width;
}
