/**
 * Names a change states: "the migration from entire/sessions to entire/checkpoints/v1", "we renamed it from
 * store_v1 to store-v2". A slash-separated name with no conventional prefix (`entire/sessions`) cannot be told from
 * prose (`and/or`, `before/after`) on its own shape, so no detector takes it; a word that names a change of value
 * (`migration`, `renamed`, `upgrade`, … see `bindings.ts`) followed by `from X to Y` says both are names of what
 * changed. Each such name that no detector took is a value (`identifier`), so the change binds (`migration from X to
 * Y`) and supersedes X like any other.
 */
import type { Candidate } from './candidate.js';

/** A name: letters, digits and `/ _ . - @ :` inside, a letter or digit at each end. */
const NAME = String.raw`[A-Za-z0-9](?:[\w./@:-]*[A-Za-z0-9])?`;

/** A name is data, not a word: it holds a letter and a separator or a digit. */
const DATA_NAME = /^(?=.*[A-Za-z])(?=.*[/_.\d-])/;

/**
 * The names of every "CHANGE from X to Y" in `view` (`changes`: the change words, lower case), in backticks or not,
 * each only where no candidate in `taken` already starts.
 */
export function findChangeNames(view: string, changes: ReadonlySet<string>, taken: readonly Candidate[]): Candidate[] {
  const pattern = new RegExp(
    String.raw`\b([A-Za-z]+)\s+from\s+(\`?)(${NAME})\2\s+to\s+(\`?)(${NAME})\4(?![\w/-]|\.\w)`,
    'g',
  );
  const starts = new Set(taken.map((candidate) => candidate.start));
  const found: Candidate[] = [];
  for (let match = pattern.exec(view); match !== null; match = pattern.exec(view)) {
    if (!changes.has((match[1] ?? '').toLowerCase())) continue;
    const old = match[3] ?? '';
    const next = match[5] ?? '';
    const end = match.index + match[0].length - (match[4] ?? '').length;
    const nextStart = end - next.length;
    const oldStart = view.lastIndexOf(old, nextStart - 1);
    for (const [start, name] of [
      [oldStart, old],
      [nextStart, next],
    ] as const)
      if (DATA_NAME.test(name) && !starts.has(start))
        found.push({ kind: 'identifier', start, end: start + name.length });
  }
  return found;
}
