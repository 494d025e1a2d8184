/**
 * Which file a stored tool result shows, so the injected context can say where the symbols it lists come from
 * (`identifier in cmd/app/list.go: errors.New branchName …`) instead of one list of names with no home.
 *
 * A tool result shows a file when its tool call read exactly one file: a read tool (`Read`, `read_file`, `view` …)
 * with a path argument, or a shell command whose first step prints one file (`cat`, `nl -ba`, `head`, `tail`,
 * `sed -n '1,200p'`), after an optional `cd DIR &&` and before an optional pipe. The file is named as the call wrote
 * it, verbatim. Nothing else is guessed: a grep over a tree or a test run shows no one file.
 */
import { shellCommand } from '../../ranking/changed-paths.js';
import { handleIdentity } from '../../handles/handle-sets.js';
import type { Handle, SourceKind } from '../../types.js';

/** The part of a span this module reads. */
export interface SourceSpan {
  readonly kind: SourceKind;
  readonly text: string;
  readonly toolName?: string | undefined;
  readonly toolCallId?: string | undefined;
}

/** Tool names (lower case) of tools that read a file and return its text. */
const READ_TOOLS: ReadonlySet<string> = new Set(['read', 'read_file', 'view', 'view_file', 'open_file', 'cat']);

/** JSON argument fields that name the file a read tool reads. */
const PATH_FIELDS = ['file_path', 'path', 'notebook_path', 'filename', 'file', 'target_file'] as const;

/** `cd DIR && ` before the command proper. */
const CD_PREFIX = /^\s*cd\s+(?:'[^']*'|"[^"]*"|\S+)\s*&&\s*/;

/** One step that prints one file (its last word), e.g. `sed -n '1,200p' a.ts`, `nl -ba a.ts`, `head -n 40 a.ts`. */
const PRINT_ONE_FILE =
  /^(?:cat|nl(?:\s+-\w+)*|head(?:\s+-n\s*\d+|\s+-\d+)?|tail(?:\s+-n\s*\+?\d+|\s+-\d+)?|sed\s+-n\s+(?:'[^']*'|"[^"]*"))\s+([^\s|;&<>'"]+)$/;

/** A path as a read names it: no spaces, not an option, holding a letter. */
const FILE_LIKE = /^[^\s-][^\s]*$/;

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The file a shell command prints, when its first step prints exactly one file. */
export function printedFile(command: string): string | undefined {
  const first = command.replace(CD_PREFIX, '').split('|')[0]?.trim() ?? '';
  if (/[;&<>]|\$\(/.test(first)) return undefined;
  const file = PRINT_ONE_FILE.exec(first)?.[1];
  return file !== undefined && FILE_LIKE.test(file) && /[A-Za-z]/.test(file) ? file : undefined;
}

/** The one file a tool call reads, verbatim as the call names it, or undefined. */
export function fileReadBy(span: SourceSpan): string | undefined {
  if (span.kind !== 'tool-call') return undefined;
  const name = span.toolName?.toLowerCase();
  const args = parsed(span.text);
  const viewing = name === 'str_replace_based_edit_tool' || name === 'str_replace_editor';
  if ((name !== undefined && READ_TOOLS.has(name)) || (viewing && args?.command === 'view')) {
    for (const field of PATH_FIELDS) {
      const value = args?.[field];
      if (typeof value === 'string' && FILE_LIKE.test(value)) return value;
    }
    return undefined;
  }
  const command = shellCommand(span);
  return command === undefined ? undefined : printedFile(command);
}

/** For each tool result (by span id) that shows one file, that file as its tool call named it. */
export function resultFiles(spans: ReadonlyMap<string, SourceSpan>): Map<string, string> {
  const byCall = new Map<string, string>();
  for (const span of spans.values()) {
    if (span.toolCallId === undefined) continue;
    const file = fileReadBy(span);
    if (file !== undefined) byCall.set(span.toolCallId, file);
  }
  const files = new Map<string, string>();
  for (const [id, span] of spans) {
    if (span.kind !== 'tool-result' || span.toolCallId === undefined) continue;
    const file = byCall.get(span.toolCallId);
    if (file !== undefined) files.set(id, file);
  }
  return files;
}

/**
 * The file each handle was last read from: of the occurrences in `occurrences` (one per span that holds a handle),
 * the latest one inside a tool result that shows one file ({@link resultFiles}) names it.
 */
export function fileOfHandles(
  occurrences: readonly Handle[],
  spans: ReadonlyMap<string, SourceSpan>,
): (handle: Pick<Handle, 'kind' | 'text'>) => string | undefined {
  const files = resultFiles(spans);
  const latest = new Map<string, { file: string; seq: number }>();
  for (const occurrence of occurrences) {
    const file = files.get(occurrence.spanId);
    if (file === undefined) continue;
    const identity = handleIdentity(occurrence);
    const known = latest.get(identity);
    if (known === undefined || occurrence.seq > known.seq) latest.set(identity, { file, seq: occurrence.seq });
  }
  return (handle) => latest.get(handleIdentity(handle))?.file;
}
