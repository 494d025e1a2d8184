import type { Span } from '../types.js';

/** Tool names (lower case) of tools that write files. */
const EDIT_TOOLS: ReadonlySet<string> = new Set([
  'edit',
  'multiedit',
  'multi_edit',
  'write',
  'notebookedit',
  'str_replace_editor',
  'str_replace_based_edit_tool',
  'apply_patch',
  'create_file',
  'write_file',
  'edit_file',
  'replace_in_file',
]);

/** Tool names (lower case) of tools that run a shell command. */
const SHELL_TOOL =
  /^(bash|shell|sh|zsh|terminal|exec|exec_command|run|run_command|run_shell_command|execute_command|local_shell|container\.exec)$/;

/** JSON argument fields that name the file a tool call writes. */
const PATH_FIELDS = ['file_path', 'path', 'notebook_path', 'filename', 'file', 'target_file'];

/** Whether a tool name writes files, e.g. `Edit`, `Write`, `MultiEdit`, `str_replace_editor`, `apply_patch`, `edit_file`. */
export function isEditTool(toolName: string | undefined): boolean {
  if (toolName === undefined) return false;
  const name = toolName.toLowerCase();
  return EDIT_TOOLS.has(name) || /(^|[_.-])(edit|write)([_.-]|$)/.test(name);
}

/** Whether a tool name runs shell commands (`Bash`, `shell`, `exec_command` …). */
export function isShellTool(toolName: string | undefined): boolean {
  return toolName !== undefined && SHELL_TOOL.test(toolName.toLowerCase());
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The shell command of a tool call: its `command`/`cmd` argument, or the whole text when it is not JSON. */
export function shellCommand(span: Pick<Span, 'kind' | 'toolName' | 'text'>): string | undefined {
  if (span.kind !== 'tool-call') return undefined;
  const args = parseArguments(span.text);
  const command = args?.command ?? args?.cmd;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) return command.join(' ');
  return isShellTool(span.toolName) && args === undefined ? span.text : undefined;
}

const UNQUOTE = (word: string) => word.replace(/^['"]|['"]$/g, '');

/** Files a shell command writes: `sed -i … FILE`, `> FILE`, `>> FILE`, `tee [-a] FILE`, `str_replace_editor create FILE`. */
export function shellWriteTargets(command: string): string[] {
  const targets: string[] = [];
  for (const match of command.matchAll(/(?:^|[^0-9&>])>>?\s*([^\s;&|<>()]+)/g)) {
    const target = UNQUOTE(match[1] ?? '');
    if (target.length > 0 && !target.startsWith('&') && target !== '/dev/null') targets.push(target);
  }
  for (const match of command.matchAll(/\btee\s+(?:-a\s+)?([^\s;&|<>]+)/g)) targets.push(UNQUOTE(match[1] ?? ''));
  for (const match of command.matchAll(/\bstr_replace_editor\s+(?:create|str_replace|insert|undo_edit)\s+([^\s;&|]+)/g))
    targets.push(UNQUOTE(match[1] ?? ''));
  for (const segment of command.split(/&&|\|\||;|\n|\|/)) {
    const sed = /\bsed\s+(?:-[A-Za-z]*\s+)*-i\S*\s+(.*)$/.exec(segment);
    if (!sed) continue;
    const words = (sed[1] ?? '').match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
    const files = words.filter((word) => !word.startsWith('-') && !/^['"]/.test(word));
    targets.push(...(files.length > 1 || words.length > 1 ? files.slice(words[0] === files[0] ? 1 : 0) : []));
  }
  return targets.filter((target) => target.length > 0);
}

/**
 * What a span changes: the files an edit/write-like tool call names (its `file_path`,
 * `path` … argument, or the files of an `apply_patch` body), or the files a shell command
 * writes. Empty for every other span.
 */
export function changedTargets(span: Pick<Span, 'kind' | 'toolName' | 'text'>): string[] {
  if (span.kind !== 'tool-call') return [];
  const targets: string[] = [];
  if (isEditTool(span.toolName)) {
    const args = parseArguments(span.text);
    for (const field of PATH_FIELDS) {
      const value = args?.[field];
      if (typeof value === 'string') targets.push(value);
    }
    for (const match of span.text.matchAll(/\*\*\* (?:Update|Add|Delete) File: ([^\s"\\]+)|^\+\+\+ b\/(\S+)/gm))
      targets.push(match[1] ?? match[2] ?? '');
  }
  const command = shellCommand(span);
  if (command !== undefined) targets.push(...shellWriteTargets(command));
  return targets.filter((target) => target.length > 0);
}
