/**
 * The handle groups of the injected context, with the names read from a file that the context lists among its paths
 * grouped under that file: `from cmd/app/list.go: errors.New branchName maxScan = 50` says where each name lives,
 * which one list of `identifier:` names cannot. The file is written as the agent's tool call named it (verbatim: it
 * is the path handle itself, moved from the `path:` line to the head of its group), so a group costs its label's
 * few characters and no path twice. Names from a file the context does not list stay in their kind's group: a label
 * of 60 characters for two names would push other handles out of the budget.
 */
import type { IndexEntry, IndexGroup } from '../../handle-index/index-layout.js';
import type { Handle, HandleKind } from '../../types.js';

/** Kinds listed under the file they were read from (paths and error lines keep their own groups). */
const FILE_GROUPED: ReadonlySet<HandleKind> = new Set<HandleKind>([
  'identifier',
  'assignment',
  'url',
  'endpoint',
  'version',
  'email',
  'date',
]);

/** The label of the group of the names read from `file`. */
export function fileGroupLabel(file: string): string {
  return `from ${file}`;
}

/**
 * Regroup `groups` (laid out by kind, most useful first): each entry of a {@link FILE_GROUPED} kind whose handle
 * `fileOf` places in a file listed in the `path` group moves to that file's group, and the file leaves the `path`
 * group. Groups are ordered by their most useful entry, a file's group counting its file (`place`: a handle's place
 * in the ranking).
 */
export function groupByFile(
  groups: readonly IndexGroup[],
  fileOf: (handle: Handle) => string | undefined,
  place: (handle: Handle) => number,
): IndexGroup[] {
  const paths = new Map<string, Handle>();
  for (const group of groups)
    if (group.label === 'path') for (const entry of group.entries) paths.set(entry.handle.text, entry.handle);
  const byFile = new Map<string, IndexEntry[]>();
  const byKind: IndexGroup[] = [];
  for (const group of groups) {
    const rest: IndexEntry[] = [];
    for (const entry of group.entries) {
      const file = FILE_GROUPED.has(entry.handle.kind) ? fileOf(entry.handle) : undefined;
      if (file === undefined || !paths.has(file)) rest.push(entry);
      else byFile.set(file, [...(byFile.get(file) ?? []), entry]);
    }
    byKind.push({ label: group.label, entries: rest });
  }
  const ordered: { group: IndexGroup; first: number }[] = [];
  const firstOf = (entries: readonly IndexEntry[], extra: number) =>
    Math.min(extra, ...entries.map((entry) => place(entry.handle)));
  for (const group of byKind) {
    const entries =
      group.label === 'path' ? group.entries.filter((entry) => !byFile.has(entry.handle.text)) : group.entries;
    if (entries.length > 0) ordered.push({ group: { label: group.label, entries }, first: firstOf(entries, Infinity) });
  }
  for (const [file, entries] of byFile) {
    const path = paths.get(file);
    const first = firstOf(entries, path === undefined ? Infinity : place(path));
    ordered.push({ group: { label: fileGroupLabel(file), entries }, first });
  }
  return ordered.sort((a, b) => a.first - b.first).map((item) => item.group);
}
