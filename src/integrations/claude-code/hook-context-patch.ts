/**
 * A git diff's sides (`a/src/a.ts`, `b/src/a.ts`, from `diff --git`, `---` and `+++` lines) read back as the file, when
 * the diff shows both sides or the file is named plainly elsewhere: the list showed all three before. (An `apply_patch`
 * file header, `*** Update File: src/a.ts`, is read as the path it names by the extractor itself: `handles/patch-headers.ts`.)
 */
import { handleKey } from '../../handles/normalize.js';
import type { Handle } from '../../types.js';

/** A git diff side of a path: `a/` or `b/`, then the file. */
const DIFF_SIDE = /^[ab]\/(.+)$/;

/**
 * `handles` with each path that is a git diff side (`a/src/a.ts`) read as its file (`src/a.ts`, its start moved past
 * the side), when both sides of the file are among them or the file itself is; any other handle as it is.
 */
export function withoutDiffSides(handles: readonly Handle[], count: (text: string) => number): Handle[] {
  const files = new Set<string>();
  const sides = new Map<string, Set<string>>();
  for (const handle of handles) {
    if (handle.kind !== 'path') continue;
    files.add(handle.text);
    const file = DIFF_SIDE.exec(handle.text)?.[1];
    if (file !== undefined) sides.set(file, (sides.get(file) ?? new Set()).add(handle.text.charAt(0)));
  }
  return handles.map((handle) => {
    const file = handle.kind === 'path' ? DIFF_SIDE.exec(handle.text)?.[1] : undefined;
    if (file === undefined || !(files.has(file) || sides.get(file)?.size === 2)) return handle;
    const start = handle.start + 2;
    return {
      ...handle,
      text: file,
      key: handleKey('path', file),
      start,
      end: start + file.length,
      tokens: count(file),
    };
  });
}

/** `handles` with git diff sides ({@link withoutDiffSides}) read as files. */
export function patchedFilesRead(handles: readonly Handle[], count: (text: string) => number): Handle[] {
  return withoutDiffSides(handles, count);
}
