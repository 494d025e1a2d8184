/**
 * Which of several shown bindings of one label is current. The injected context lists what the agent's compaction
 * left out, and a session binds some labels more than once: `branch: agentv/results/v1` read in a test, then the
 * agent's own `Branch: fix/raf-5-sync`, `branch: 'results'` in a fixture read after it. Shown side by side with
 * nothing to tell them apart, they leave the model to guess which branch it is on. `supersededHandles` does not rebind
 * such a label (`branch: x` names a different thing in every file), so the hook says it where it shows them: of the
 * bindings of one label shown with two values or more, the one the session itself stated last (in the agent's text or
 * the person's words, outside a fenced code block: not a field of a file, of a command's output, of a file the agent
 * wrote or of an example it gave) is written with
 * {@link CURRENT_NOTE}. The others stay as they are, verbatim and recallable: a file's fields are facts of that file,
 * and an earlier statement of the agent's may be an item of a list rather than a value it replaced. With no statement
 * of the session's among them, or two of its values stated in one message (a list: `Session ID: a`, `Session ID: b`
 * in one report), nothing is marked (`type: composite` and `type: threshold` in two fixtures are two
 * objects). Generic keys ({@link GENERIC_LABELS}) and command options (`--format=x`) are never read this way.
 */
import { handleIdentity } from '../../handles/handle-sets.js';
import { normalizeLabel } from '../../handles/prose-labels.js';
import type { Handle, SourceKind } from '../../types.js';

/** What the current binding of a label shown with several values is written with. */
export const CURRENT_NOTE = ' (current)';

/** Labels that name a different object in every file or message: never one current value. */
const GENERIC_LABELS: ReadonlySet<string> = new Set(
  (
    'name value id type kind key host port path url image version status message title description file dir label tag ' +
    'mode level format source target default text data item items entry result code error reason role content prompt ' +
    'command cwd score threshold weight note notes example output input args options summary'
  ).split(' '),
);

/**
 * `label: value`. Not read: `key=value` (a log field or a keyword argument, `component=hooks`, `duration_ms=8`; an
 * environment-style `KEY=VALUE` is rebound by `supersededHandles` already), a label in Markdown emphasis (`**New
 * file:** a`, the heading of an item of a document), a quoted key (`"branch": "x"`, a field of a JSON answer) and an
 * option (`--branch x`).
 */
const LABELED = /^([A-Za-z][A-Za-z0-9_. -]{0,40}?)\s*:\s*(\S[\s\S]*)$/;

/** The label and value a binding states, normalised for comparison (label lower case, value unquoted), or undefined. */
export function labelledValue(handle: Pick<Handle, 'kind' | 'text'>): { label: string; value: string } | undefined {
  if (handle.kind !== 'assignment') return undefined;
  const match = LABELED.exec(handle.text.trim());
  if (match === null) return undefined;
  const label = normalizeLabel(match[1] ?? '');
  if (label === '' || GENERIC_LABELS.has(label) || label.split(' ').length > 4) return undefined;
  const value = (match[2] ?? '').replace(/^[`'"*]+|[`'"*,;]+$/g, '').trim();
  // A placeholder (`branch: ...`, `branch: <name>`) binds nothing.
  return /[A-Za-z0-9]/.test(value) && !/^<[^>]*>$/.test(value) ? { label, value } : undefined;
}

/**
 * Span kinds whose text is the session's own statement: the agent's text and what the person typed (a tool call's
 * arguments are code, a file's or a command's: `branch=$2` in a script, `remote: https://…` in a doc it edits).
 */
const STATING_KINDS: ReadonlySet<SourceKind> = new Set<SourceKind>(['assistant', 'user']);

/** Whether `offset` of `text` is inside a fenced code block (after an odd number of ``` fences). */
function insideFence(text: string, offset: number): boolean {
  return (text.slice(0, offset).match(/^\s*```/gm)?.length ?? 0) % 2 === 1;
}

/**
 * The texts among `shown` to write with {@link CURRENT_NOTE} (see the module comment). `occurrences`: every handle
 * occurrence before the compaction (one per span holding it), for who stated each binding and when last; `spans`: the
 * stored spans by id.
 */
export function currentBindings(
  shown: readonly Handle[],
  occurrences: readonly Handle[],
  spans: ReadonlyMap<string, { readonly kind: SourceKind; readonly text: string }>,
): Set<string> {
  const byLabel = new Map<string, { handle: Handle; value: string }[]>();
  for (const handle of shown) {
    const bound = labelledValue(handle);
    if (bound !== undefined)
      byLabel.set(bound.label, [...(byLabel.get(bound.label) ?? []), { handle, value: bound.value }]);
  }
  const rebound = [...byLabel.values()].filter((entries) => new Set(entries.map((entry) => entry.value)).size > 1);
  const wanted = new Set(rebound.flat().map((entry) => handleIdentity(entry.handle)));
  // When the session itself last stated each binding of a rebound label (absent: never, only files and output), and in
  // which spans it stated it.
  const lastStated = new Map<string, number>();
  const statedIn = new Map<string, Set<string>>();
  for (const occurrence of occurrences) {
    const identity = handleIdentity(occurrence);
    const span = spans.get(occurrence.spanId);
    if (!wanted.has(identity) || span === undefined || !STATING_KINDS.has(span.kind)) continue;
    if (insideFence(span.text, occurrence.start)) continue;
    lastStated.set(identity, Math.max(lastStated.get(identity) ?? -1, occurrence.seq));
    statedIn.set(identity, (statedIn.get(identity) ?? new Set()).add(occurrence.spanId));
  }
  const current = new Set<string>();
  for (const entries of rebound) {
    let latest: { handle: Handle; seq: number } | undefined;
    for (const { handle } of entries) {
      const seq = lastStated.get(handleIdentity(handle));
      if (seq !== undefined && (latest === undefined || seq > latest.seq)) latest = { handle, seq };
    }
    if (latest === undefined) continue;
    // One message giving the label two values lists two things ("session A: x", "session B: y"): none is current.
    const spansOf = (handle: Handle) => statedIn.get(handleIdentity(handle)) ?? new Set<string>();
    const own = spansOf(latest.handle);
    const listed = entries.some(
      ({ handle }) => handle !== latest.handle && [...spansOf(handle)].some((spanId) => own.has(spanId)),
    );
    if (!listed) current.add(latest.handle.text);
  }
  return current;
}
