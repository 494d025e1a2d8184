/**
 * Where a letter-only hyphenated word (`get-url`, `set-window-status`) is code rather than an English compound
 * (`read-only`, `as-is`): the author marked it as code. Two marks count besides a quote around the word alone
 * (`identifiers.ts`): an inline code span of prose holding it among other words (`` `git remote get-url origin` ``),
 * and a subcommand of a tool call's shell command (`{"command":"git remote get-url origin"}`, Codex's
 * `{"cmd":"…"}`): the word follows one to three plain words (the program and its subcommands, no option, quote or
 * assignment) at the start of the command or after `&&`, `||`, `;`, `|`, `$(` or an escaped line break, outside a
 * here-document and a quoted argument. Both read the text around the word, so the caller marks its classification
 * contextual in the token memo.
 */

const LETTER_KEBAB = /^[A-Za-z]+(?:-[A-Za-z]+)+$/;
/** Farthest a code span's backticks are looked for from the word, either side. */
const SPAN_REACH = 160;
/** Longest stretch of a line before the word that is read for backticks. */
const LINE_REACH = 2000;
/** A tool call's arguments whose first field is a shell command. */
const COMMAND_HEAD = /^\{\s*"(?:command|cmd)"\s*:\s*"/;
/** Farthest into the command a subcommand is looked for. */
const COMMAND_REACH = 2000;
/** The command words before the word, after the command start or a separator. */
const COMMAND_WORDS = /(?:^|&&|\|\|?|;|\\n|\$\()\s*((?:[a-z][\w.-]*\s+){1,3})$/;
/** Programs whose arguments are prose. */
const PROSE_PROGRAMS: ReadonlySet<string> = new Set(['echo', 'printf']);

/** Whether the token is a hyphenated word of letters only. */
export function isLetterKebab(token: string): boolean {
  return LETTER_KEBAB.test(token);
}

/** Whether a line of `source` starts at `index`: the text start, or after a line break, real or JSON-escaped. */
function isLineStart(source: string, index: number): boolean {
  if (index === 0) return true;
  const code = source.charCodeAt(index - 1);
  return code === 10 || (code === 110 && source.charCodeAt(index - 2) === 92 && source.charCodeAt(index - 3) !== 92);
}

/**
 * Whether `[start, end)` of `source` lies inside a one-line inline code span with other text (`` `a b-c d` ``): an odd
 * number of single backticks from the line start to it (a line longer than {@link LINE_REACH} is not read), a closing
 * one within {@link SPAN_REACH} on the same line, and no `${` template placeholder (a template literal's text).
 */
export function isInCodeSpan(source: string, start: number, end: number): boolean {
  let ticks = 0;
  let open = -1;
  let index = start;
  for (; index > 0 && !isLineStart(source, index); index--) {
    if (start - index > LINE_REACH) return false;
    if (source.charCodeAt(index - 1) !== 96) continue;
    // A run of backticks is a fence or a double-tick span: not read.
    if (source.charCodeAt(index - 2) === 96 || source.charCodeAt(index) === 96) return false;
    if (ticks++ === 0) open = index - 1;
  }
  if (ticks % 2 === 0 || start - open > SPAN_REACH) return false;
  const to = Math.min(source.length, end + SPAN_REACH);
  for (let at = end; at < to; at++) {
    const code = source.charCodeAt(at);
    if (code === 10 || (code === 92 && source.charCodeAt(at + 1) === 110)) return false;
    if (code !== 96) continue;
    if (source.charCodeAt(at + 1) === 96 || source.charCodeAt(at - 1) === 96) return false;
    return !source.slice(open, at).includes('${');
  }
  return false;
}

/** Whether `[start, end)` of `source`, a tool call's arguments, is a subcommand word of its shell command. */
export function isCommandWord(source: string, start: number): boolean {
  if (source.charCodeAt(0) !== 123) return false;
  const head = COMMAND_HEAD.exec(source.slice(0, 40));
  if (head === null) return false;
  const from = head[0].length;
  if (start < from || start - from > COMMAND_REACH) return false;
  const before = source.slice(from, start);
  // An unescaped quote before the word closes the command string.
  for (let index = before.indexOf('"'); index !== -1; index = before.indexOf('"', index + 1))
    if (before.charCodeAt(index - 1) !== 92) return false;
  // Inside a here-document or a quoted argument (`-m \"…\"`, `-c \"…\"`) the words are text or code, not commands.
  if (before.includes('<<') || before.split('\\"').length % 2 === 0) return false;
  const words = COMMAND_WORDS.exec(before);
  if (words === null) return false;
  const program = (words[1] ?? '').trim().split(/\s+/)[0] ?? '';
  return !PROSE_PROGRAMS.has(program);
}
