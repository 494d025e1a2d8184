/**
 * Markup masking. Before detection the text is turned into a *view* of the same length in
 * which markup is blanked out, so detectors never see it and every offset stays valid for
 * the verbatim text:
 *
 * - terminal escapes: ANSI CSI (`ESC[22m`), OSC (`ESC]0;title BEL`) and two-character
 *   escapes, written raw or as `\u001b` / `\x1b` / `\033` / `\e`;
 * - JSON string escapes: `\"`, `\\`, `\uXXXX`, and `\n` `\r` `\t` `\b` `\f` unless the line
 *   holds a Windows drive path (`C:\new\x` keeps its backslashes); a `\n` escape becomes a
 *   space and a line feed, so line-based detectors see the line break it encodes;
 * - markup tags: `<tag>`, `</tag>`, `<tag/>`, and the name and brackets of `<tag attr="…">`
 *   (attribute values stay visible); not a placeholder in a template, `logs/<build_ts>-<rand4>`: a
 *   lowercase `<name>` without attributes glued to a `/ - _ .` of the template, whose name no `</name>`
 *   closes and that is no void HTML tag (`<br>`), stays visible, so its name is read as a word;
 * - line-number gutters at line starts: `   101→` anywhere, `101\t`, `  12: ` and grep's
 *   `1157:` before a non-digit (`1157:.row {`) in tool output.
 *
 * A handle may never overlap a masked position (see {@link MarkupView.isMasked}).
 */

import { isAlphanumericCode, isLetterCode } from './char-classes.js';

/** Options of {@link maskMarkup}. */
export interface MarkupOptions {
  /** The text is tool output: `12\t` and `12: ` line starts are gutters too. */
  readonly toolOutput?: boolean | undefined;
}

/** The detection view of a text. */
export interface MarkupView {
  /** Same length as the input; markup replaced by spaces (a `\n` escape by a space and a line feed). */
  readonly view: string;
  /** Whether any position was masked. */
  readonly masked: boolean;
  /** Whether any position in `[start, end)` was masked. */
  isMasked(start: number, end: number): boolean;
  /** Start offsets (in the view) of lines that begin with a line-number gutter. */
  readonly gutterLines: ReadonlySet<number>;
}

/* eslint-disable no-control-regex -- terminal escapes are control characters */
const ESCAPE_START = /[\u001b\u009b\\]/g;
const INTRODUCER = /(?:\u001b|\\u001[bB]|\\x1[bB]|\\033|\\e)/y;
const CSI_BODY = /\[[0-?]*[ -/]*[@-~]/y;
const C1_CSI = /\u009b[0-?]*[ -/]*[@-~]/y;
const OSC_BODY = /\][^\u0007\u001b\n]{0,512}(?:\u0007|\u001b\\|\\u0007|\\a|\\u001[bB]\\\\)/y;
const OTHER_ESCAPE = /[@-Z^_]/y;
/* eslint-enable no-control-regex */
const DRIVE = /(?:^|[^A-Za-z0-9])[A-Za-z]:\\(?!\\)/;
/** A tag name has no dots: `<django.db.Field: a>` is a Python repr, whose dotted name is a handle. */
const TAG = /<(\/?)([A-Za-z][\w:-]*)(?=[\s>]|\/>)/g;
const ATTRIBUTES = /[^<>]{0,2000}?>/y;
/** The name of a template placeholder: lowercase letters, digits, `_` and `-`. */
const PLACEHOLDER_NAME = /^[a-z][a-z0-9_-]*$/;
/** HTML elements that have no closing tag, so a `<br>-` is markup even though no `</br>` follows. */
const VOID_TAGS: ReadonlySet<string> = new Set(
  'area base br col embed hr img input link meta param source track wbr'.split(' '),
);
const ARROW_GUTTER = /^[ \t]*\d{1,7}→/gm;
const TOOL_GUTTER = /^[ \t]*\d{1,7}(?:→|\t|: |:(?=[^\d\s:/]))/gm;
/** Longest stretch looked back over for a Windows drive before a control escape. */
const DRIVE_LOOKBACK = 260;

/** One masked range and what replaces it. */
interface Masked {
  readonly start: number;
  readonly end: number;
  /** Replacement of the same length. */
  readonly fill: string;
}

/** Blank strings of the short lengths escapes take. */
const BLANKS: readonly string[] = Array.from({ length: 17 }, (_, length) => ' '.repeat(length));

function blank(length: number): string {
  return BLANKS[length] ?? ' '.repeat(length);
}

function isDriveAt(text: string, at: number): boolean {
  return isLetterCode(text.charCodeAt(at)) && text.startsWith(':\\', at + 1);
}

/**
 * A test of whether the look-back window before a backslash may hold a drive {@link DRIVE} matches (an
 * `X:\` whose letter follows no letter or digit, or starts the window), for backslashes visited left to
 * right; when it fails, the walk and the regex are skipped. The drives are found once per text.
 */
function driveLookup(text: string): (at: number) => boolean {
  const drives: number[] = [];
  for (let colon = text.indexOf(':\\', 1); colon !== -1; colon = text.indexOf(':\\', colon + 1)) {
    const drive = colon - 1;
    if (isLetterCode(text.charCodeAt(drive)) && (drive === 0 || !isAlphanumericCode(text.charCodeAt(drive - 1))))
      drives.push(drive);
  }
  if (drives.length === 0 && !text.includes(':\\')) return () => false;
  let next = 0;
  return (at) => {
    const lowest = at - DRIVE_LOOKBACK;
    while (next < drives.length && (drives[next] ?? 0) < lowest) next++;
    return (drives[next] ?? Infinity) <= at - 2 || (lowest >= 0 && isDriveAt(text, lowest));
  };
}

/** Whether the backslash at `at` sits in a line that holds a Windows drive path before it. */
function inWindowsPath(text: string, at: number): boolean {
  let from = at;
  while (from > 0 && at - from < DRIVE_LOOKBACK) {
    const code = text.charCodeAt(from - 1);
    if (code === 10 || code === 34) break;
    from--;
  }
  return DRIVE.test(text.slice(from, at + 1));
}

/** Length of a terminal escape at `at`, or 0. */
function terminalEscapeAt(text: string, at: number): number {
  if (text.charCodeAt(at) === 92) {
    // A written introducer is `\u001b`, `\x1b`, `\033` or `\e`.
    const next = text.charCodeAt(at + 1);
    if (next !== 117 && next !== 120 && next !== 48 && next !== 101) return 0;
  }
  C1_CSI.lastIndex = at;
  if (C1_CSI.test(text)) return C1_CSI.lastIndex - at;
  INTRODUCER.lastIndex = at;
  if (!INTRODUCER.test(text)) return 0;
  const body = INTRODUCER.lastIndex;
  for (const pattern of [CSI_BODY, OSC_BODY]) {
    pattern.lastIndex = body;
    if (pattern.test(text)) return pattern.lastIndex - at;
  }
  if (text.charCodeAt(at) !== 27) return 0;
  OTHER_ESCAPE.lastIndex = body;
  return OTHER_ESCAPE.test(text) ? body + 1 - at : 1;
}

function isControlLetter(code: number): boolean {
  return code === 110 || code === 114 || code === 116 || code === 98 || code === 102;
}

function isHexCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/**
 * Length of the JSON escape whose `\` is at `at`, or 0: `\\n` `\\r` `\\t` (a doubly escaped control),
 * `\"`, `\\`, `\uXXXX`, or a control `\n` `\r` `\t` `\b` `\f`.
 */
function jsonEscapeLength(text: string, at: number): number {
  if (text.charCodeAt(at) !== 92) return 0;
  const next = text.charCodeAt(at + 1);
  if (next === 92) {
    const control = text.charCodeAt(at + 2);
    return control === 110 || control === 114 || control === 116 ? 3 : 2;
  }
  if (next === 34) return 2;
  if (next === 117) {
    for (let index = at + 2; index < at + 6; index++) if (!isHexCode(text.charCodeAt(index))) return 0;
    return 6;
  }
  return isControlLetter(next) ? 2 : 0;
}

/** Offset of the next escape start (`ESC`, C1 CSI or `\\`) at or after `from`, or -1. */
function nextEscapeStart(text: string, from: number, raw: boolean): number {
  if (!raw) return text.indexOf('\\', from);
  ESCAPE_START.lastIndex = from;
  return ESCAPE_START.test(text) ? ESCAPE_START.lastIndex - 1 : -1;
}

/** Terminal and JSON escapes, left to right (a `\\` is consumed whole, so `\\n` is not a newline escape). */
function findEscapes(text: string, out: Masked[]): void {
  const mayHoldDrive = driveLookup(text);
  // Without raw control characters every escape starts at a backslash, which `indexOf` finds fastest.
  const raw = text.includes('\u001b') || text.includes('\u009b');
  for (let at = nextEscapeStart(text, 0, raw); at !== -1;) {
    const terminal = terminalEscapeAt(text, at);
    if (terminal > 0) {
      out.push({ start: at, end: at + terminal, fill: blank(terminal) });
      at = nextEscapeStart(text, at + terminal, raw);
      continue;
    }
    const length = jsonEscapeLength(text, at);
    // The control letter, when the escape is one: `\n`, or the `n` of a doubly escaped `\\n`.
    const last = text.charCodeAt(at + length - 1);
    const control = length === 3 || (length === 2 && isControlLetter(last));
    if (length === 0 || (control && mayHoldDrive(at) && inWindowsPath(text, at))) {
      at = nextEscapeStart(text, at + 1, raw);
      continue;
    }
    out.push({ start: at, end: at + length, fill: control && last === 110 ? blank(length - 1) + '\n' : blank(length) });
    at = nextEscapeStart(text, at + length, raw);
  }
}

/** Whether the code is one of `/ - _ .`, which join a placeholder to the rest of a template. */
function isTemplateJoint(code: number): boolean {
  return code === 47 || code === 45 || code === 95 || code === 46;
}

/** Whether the text closes a `<name>` somewhere: `</name>` or `</name …>`. */
function isClosed(view: string, name: string): boolean {
  const closing = `</${name}`;
  for (let at = view.indexOf(closing); at !== -1; at = view.indexOf(closing, at + 1)) {
    const after = view.charCodeAt(at + closing.length);
    if (after === 62 || after === 32 || after === 9 || after === 10) return true;
  }
  return false;
}

/**
 * Whether the bare `<name>` over `[at, close)` is a placeholder of a template (`logs/<build_ts>-<rand4>`,
 * `YYYY-MM-DD-<worker-run-uuid>`): a lowercase name glued to a `/ - _ .` on either side, no void tag, never closed,
 * not a regular expression's named group.
 */
function isPlaceholder(view: string, at: number, close: number, name: string): boolean {
  if (!isTemplateJoint(view.charCodeAt(at - 1)) && !isTemplateJoint(view.charCodeAt(close)))
    return PLACEHOLDER_NAME.test(name) && !isClosed(view, name) && isCommandPlaceholder(view, at, close, name);
  // A regular expression's named group, `(?P<path>.+)` or `(?<id>\d+)`, names no template part.
  if (view.charCodeAt(at - 1) === 63 || (view.charCodeAt(at - 1) === 80 && view.charCodeAt(at - 2) === 63))
    return false;
  return PLACEHOLDER_NAME.test(name) && !VOID_TAGS.has(name) && !isClosed(view, name);
}

/** A fence that opens a shell block (```bash, ~~~sh …) at a line start. */
const SHELL_FENCE = /^[ \t]*```[ \t]*(?:bash|sh|shell|zsh|console|shell-session|terminal)\b/;
/** A shell command line: a `$ ` prompt, or a program word then its arguments, one of them an option (`-b`, `--status`). */
const PROMPT_LINE = /^[ \t]*\$[ \t]+[a-z]/;
const COMMAND_LINE = /^[ \t]*[a-z][\w.-]*[ \t]/;
const OPTION = /[ \t]--?[A-Za-z]/;
/** How far back a shell fence is looked for, in characters and in fence lines. */
const FENCE_REACH = 20_000;
const FENCE_LINES = 64;

/** Whether the line starting at `lineStart` lies inside a fenced block opened as shell (```bash … ```). */
function inShellFence(view: string, lineStart: number): boolean {
  let inside = false;
  let opening = '';
  let seen = 0;
  const from = Math.max(0, lineStart - FENCE_REACH);
  // fence lines before the line, read back to front: the nearest one says whether the line is inside a block
  for (let at = view.lastIndexOf('```', lineStart - 1); at >= from && seen < FENCE_LINES; seen++) {
    const start = view.lastIndexOf('\n', at - 1) + 1;
    if (/^[ \t]*$/.test(view.slice(start, at))) {
      if (opening === '')
        opening = view.slice(start, view.indexOf('\n', at) === -1 ? view.length : view.indexOf('\n', at));
      inside = !inside;
    }
    at = start > 0 ? view.lastIndexOf('```', start - 1) : -1;
  }
  // an odd count of fences before the line is unknown past the reach: only an opening fence that says shell counts
  return inside && SHELL_FENCE.test(opening);
}

/**
 * Whether the bare `<name>` over `[at, close)` is a placeholder standing alone as an argument of a shell command
 * (`deploy-tool attach <worker-slot> --follow`): a lowercase name of several words (`-` or `_`) between blanks on a
 * line that is a command (a `$ ` prompt, options, or a line of a shell block).
 */
function isCommandPlaceholder(view: string, at: number, close: number, name: string): boolean {
  if (!/[-_]/.test(name) || !/[ \t]/.test(view[at - 1] ?? '') || !/^(?:[ \t\n]|$)/.test(view[close] ?? ''))
    return false;
  const lineStart = view.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = view.indexOf('\n', close);
  const line = view.slice(lineStart, lineEnd === -1 ? view.length : lineEnd);
  if (PROMPT_LINE.test(line)) return true;
  if (!COMMAND_LINE.test(line)) return false;
  return OPTION.test(line) || inShellFence(view, lineStart);
}

function findTags(view: string, out: Masked[]): void {
  TAG.lastIndex = 0;
  for (let match = TAG.exec(view); match !== null; match = TAG.exec(view)) {
    const at = match.index;
    const nameEnd = at + match[0].length;
    ATTRIBUTES.lastIndex = nameEnd;
    const rest = ATTRIBUTES.exec(view);
    if (rest === null) continue;
    const close = nameEnd + rest[0].length;
    const attributes = rest[0].slice(0, -1);
    if (attributes === '' && match[1] === '' && isPlaceholder(view, at, close, match[2] ?? '')) {
      TAG.lastIndex = close;
      continue;
    }
    if (match[1] === '/' || attributes.trim() === '' || attributes.trim() === '/') {
      out.push({ start: at, end: close, fill: blank(close - at) });
    } else {
      const selfClosing = attributes.trimEnd().endsWith('/');
      const bracket = selfClosing ? view.lastIndexOf('/', close - 1) : close - 1;
      out.push({ start: at, end: nameEnd, fill: blank(nameEnd - at) });
      out.push({ start: bracket, end: close, fill: blank(close - bracket) });
    }
    TAG.lastIndex = close;
  }
}

function findGutters(view: string, toolOutput: boolean, out: Masked[], lines: Set<number>): void {
  const pattern = toolOutput ? TOOL_GUTTER : ARROW_GUTTER;
  if (!view.includes('→') && !toolOutput) return;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(view); match !== null; match = pattern.exec(view)) {
    out.push({ start: match.index, end: match.index + match[0].length, fill: blank(match[0].length) });
    lines.add(match.index);
  }
}

function isSorted(ranges: readonly Masked[]): boolean {
  for (let index = 1; index < ranges.length; index++)
    if ((ranges[index] as Masked).start < (ranges[index - 1] as Masked).start) return false;
  return true;
}

/** Applies ranges to `text` (sorted by start; one overlapping an earlier one is skipped), pushing those applied to `applied`. */
function apply(text: string, ranges: readonly Masked[], applied: Masked[]): string {
  if (ranges.length === 0) return text;
  const parts: string[] = [];
  let last = 0;
  for (const range of isSorted(ranges) ? ranges : [...ranges].sort((a, b) => a.start - b.start)) {
    if (range.start < last) continue;
    parts.push(text.slice(last, range.start), range.fill);
    applied.push(range);
    last = range.end;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

/**
 * Whether any position in `[start, end)` is masked, over the applied ranges merged into sorted disjoint spans:
 * a binary search instead of a byte per position of the text (allocating that costs more than the searches).
 */
function maskTest(applied: readonly Masked[]): (start: number, end: number) => boolean {
  const sorted = isSorted(applied) ? applied : [...applied].sort((a, b) => a.start - b.start);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const range of sorted) {
    if (range.end <= range.start) continue;
    const last = ends.length - 1;
    if (last >= 0 && range.start <= (ends[last] ?? 0)) ends[last] = Math.max(ends[last] ?? 0, range.end);
    else {
      starts.push(range.start);
      ends.push(range.end);
    }
  }
  return (start, end) => {
    if (end <= start) return false;
    // The first span ending after `start`: the only one that may overlap without starting at or after `end`.
    let low = 0;
    let high = ends.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((ends[middle] ?? 0) <= start) low = middle + 1;
      else high = middle;
    }
    return low < starts.length && (starts[low] ?? 0) < end;
  };
}

const NOTHING: ReadonlySet<number> = new Set();

/** Builds the detection view of `text` (see the module notes). */
export function maskMarkup(text: string, options: MarkupOptions = {}): MarkupView {
  const toolOutput = options.toolOutput === true;
  const escapes = text.includes('\\') || text.includes('\u001b') || text.includes('\u009b');
  const tags = text.includes('<');
  const gutters = text.includes('→') || (toolOutput && /^[ \t]*\d/m.test(text));
  if (!escapes && !tags && !gutters) return { view: text, masked: false, isMasked: () => false, gutterLines: NOTHING };
  let view = text;
  const applied: Masked[] = [];
  let found = 0;
  if (escapes) {
    const ranges: Masked[] = [];
    findEscapes(view, ranges);
    view = apply(view, ranges, applied);
    found += ranges.length;
  }
  if (tags) {
    const ranges: Masked[] = [];
    findTags(view, ranges);
    view = apply(view, ranges, applied);
    found += ranges.length;
  }
  const lines = new Set<number>();
  if (gutters) {
    const ranges: Masked[] = [];
    findGutters(view, toolOutput, ranges, lines);
    view = apply(view, ranges, applied);
    found += ranges.length;
  }
  if (found === 0) return { view: text, masked: false, isMasked: () => false, gutterLines: NOTHING };
  return { view, masked: true, isMasked: maskTest(applied), gutterLines: lines };
}
