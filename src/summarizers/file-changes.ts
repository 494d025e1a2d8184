import { hasControlCharacter } from '../text/control-characters.js';

/** Argument fields that name the file an edit or write tool changes. */
const PATH_FIELD = /"(file_path|path|notebook_path|filename|target_file|file)"\s*:\s*"((?:[^"\\]|\\.){1,400})"/g;
/** Argument shapes of tools that change a file (a read or a view names a path too, but changes nothing). */
const CHANGE_SHAPE = /"(old_string|new_string|content|edits|new_source|file_text|new_str|insert_line|patch|diff)"\s*:/;
const VIEW_COMMAND = /"command"\s*:\s*"view"/;
const SHELL_COMMAND = /"(command|cmd|script)"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const PATCH_FILE = /^\*\*\* (?:Update|Add) File: (\S+)$/gm;

/** A shell word that names a project file: no quotes, globs or variables, not a device or a temporary file. */
function isFilePath(word: string): boolean {
  return (
    /^[\w.~/-][\w./~+@-]*$/.test(word) &&
    /[/.]/.test(word) &&
    /[A-Za-z]/.test(word) &&
    !/^\/(dev|tmp|proc)\//.test(word) &&
    !/^-/.test(word)
  );
}

function decode(literal: string): string | undefined {
  try {
    return JSON.parse(`"${literal}"`) as string;
  } catch {
    return undefined;
  }
}

/** Files a shell command writes: `sed -i … FILE`, `> FILE`, `>> FILE`, `tee FILE`. */
function shellTargets(command: string): string[] {
  const targets: string[] = [];
  for (const statement of command.split(/&&|\|\||;|\n/)) {
    const words = statement.trim().split(/\s+/);
    if (words[0] === 'sed' && words.some((word) => /^-i/.test(word) || word === '--in-place')) {
      const last = words[words.length - 1];
      if (last !== undefined && isFilePath(last)) targets.push(last);
    }
    for (const match of statement.matchAll(/(?:^|[\s|])(?:>>?|\btee(?:\s+-a)?)\s*([^\s;&|<>'"]+)/g)) {
      const target = match[1];
      if (target !== undefined && isFilePath(target)) targets.push(target);
    }
  }
  return targets;
}

/**
 * The paths a tool call's arguments change: the path field of an edit/write-shaped call
 * (`old_string`, `content`, `edits`, … beside `file_path`/`path`; a `view` command is a
 * read), the files of an apply-patch body, and the files a shell command writes with
 * `sed -i`, `>`/`>>` or `tee`. Only paths that appear verbatim in `text` are returned, so
 * a summary line made of one cites its call span exactly.
 */
export function changedPaths(text: string): string[] {
  const paths: string[] = [];
  if (CHANGE_SHAPE.test(text) && !VIEW_COMMAND.test(text)) {
    for (const match of text.matchAll(PATH_FIELD)) {
      const path = decode(match[2] ?? '');
      if (path !== undefined && path.length > 0) paths.push(path);
    }
  }
  for (const match of text.matchAll(PATCH_FILE)) if (match[1] !== undefined) paths.push(match[1]);
  const shell = SHELL_COMMAND.exec(text);
  const command = shell ? decode(shell[2] ?? '') : undefined;
  if (command !== undefined) paths.push(...shellTargets(command));
  return [...new Set(paths)].filter(
    (path) => text.includes(path) && !hasControlCharacter(path) && !path.includes('\n') && !path.includes('\t'),
  );
}
