/**
 * A package named with its version where a package manager or a runtime prints the pair: a line of a dependency
 * listing (`  yaml_elixir 2.12.0` under `mix deps.get`, `requests    2.31.0` in `pip list`) or the application of a
 * stack frame (`(phoenix_live_view 1.1.22) lib/phoenix_live_view/static.ex:158: …`). The name is what the version is
 * the version of, so the pair is bound as one handle (`phoenix 1.8.3`), beside the version's own handle: the index
 * shows which package each version is, not a bare list (`version: 0.1.0 | 1.8.3 | 1.1.22`).
 */

/** A listing line up to its version: indentation, a list marker, the package name, blanks. */
const LISTED = /^([ \t]*(?:[-*+•][ \t]+)?)([a-z][a-z0-9_.-]*[a-z0-9])[ \t]+$/;
/** A stack frame's application up to its version: indentation, `(`, the application's name, blanks. */
const FRAME = /^([ \t]*\()([a-z][a-z0-9_.-]*[a-z0-9])[ \t]+$/;

/** Words that open a listing line but name no package: the version's own labels and a listing's verbs. */
const NOT_PACKAGES: ReadonlySet<string> = new Set(
  'version v ver release tag build from to at and or is was now upgraded upgrading updated installed using'.split(' '),
);

/** A version a package manager prints: three or four numbers, maybe a pre-release (`1.1.22`, `2.0.0-rc.1`). */
const PRINTED_VERSION = /^v?\d+\.\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?$/;

/**
 * Where the binding of the version at `[start, end)` to the package printed before it starts, or -1: the package name
 * and the version are the whole line (after its indentation and a list marker), or the whole of a parenthesis that
 * opens its line.
 */
export function packageVersionStart(view: string, start: number, end: number): number {
  if (!PRINTED_VERSION.test(view.slice(start, end))) return -1;
  const lineStart = view.lastIndexOf('\n', start - 1) + 1;
  if (start - lineStart > 80) return -1;
  const before = view.slice(lineStart, start);
  const frame = FRAME.exec(before);
  const pair = frame ?? LISTED.exec(before);
  if (pair === null || NOT_PACKAGES.has(pair[2] ?? '')) return -1;
  const closes = frame !== null ? view.charAt(end) === ')' : /^[ \t]*(?:\r?\n|\r|$)/.test(view.slice(end, end + 8));
  return closes ? lineStart + (pair[1] ?? '').length : -1;
}
