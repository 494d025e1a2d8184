/**
 * A file header of Codex's `apply_patch` body (`*** Update File: src/a.ts`, `*** Add File: …`, `*** Delete File: …`,
 * `*** Move to: …`) read back as the file it names. The extractor reads such a header line as a prose binding
 * (`Update File: src/a.ts`, kind `assignment`), so after a Codex session the same edited file came as two candidates:
 * the binding, ranked apart and costing its label's 13 characters each time it was shown, and the path itself with
 * half the evidence. As a path it merges with the other mentions of the file and is shown once, in its own words.
 * A git diff's sides (`a/src/a.ts`, `b/src/a.ts`, from `diff --git`, `---` and `+++` lines) are read back as the file
 * too, when the diff shows both sides or the file is named plainly elsewhere: the list showed all three before.
 */
import { handleKey } from '../../handles/normalize.js';
import type { Handle } from '../../types.js';

/** An `apply_patch` file header as the extractor's binding text holds it: the label, `: `, one path. */
const PATCH_HEADER = /^(?:(?:Add|Update|Delete) File|Move to):\s+(\S+)$/;

/**
 * The path a handle that is an `apply_patch` file header names, as a path handle of the same span (its start moved
 * past the label, so the span text at `start`–`end` is the path verbatim); any other handle as it is.
 */
export function withoutPatchHeader(handle: Handle, count: (text: string) => number): Handle {
  if (handle.kind !== 'assignment') return handle;
  const file = PATCH_HEADER.exec(handle.text)?.[1];
  if (file === undefined) return handle;
  const start = handle.start + handle.text.length - file.length;
  return {
    ...handle,
    kind: 'path',
    text: file,
    key: handleKey('path', file),
    start,
    end: start + file.length,
    tokens: count(file),
  };
}

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

/** `handles` with `apply_patch` headers ({@link withoutPatchHeader}) and git diff sides ({@link withoutDiffSides}) read as files. */
export function patchedFilesRead(handles: readonly Handle[], count: (text: string) => number): Handle[] {
  return withoutDiffSides(
    handles.map((handle) => withoutPatchHeader(handle, count)),
    count,
  );
}
