/**
 * A summary written before a value changed can still state the old value ("The client is configured with API key
 * key_a."), and the summary is shown after the index that holds the change: read in order, the old value would look
 * current (ARCHITECTURE invariant 12). When the block is rendered, a summary line that states a value the record's
 * current bindings replaced gets a note naming the binding that replaced it. The summary itself is not changed (the
 * record keeps it verbatim); the note is rendering only, like the neutralised labels.
 */
import { extractHandles } from '../handles/extract.js';
import { bindingOf, isCodeAssignment } from '../handles/supersession.js';
import type { Binding } from '../handles/supersession.js';
import { TextMemo } from '../collections/text-memo.js';
import type { CompactionRecord, Handle } from '../types.js';

/** What a record's kept bindings say is current: per label the bindings shown, and per replaced value its successor. */
interface CurrentBindings {
  readonly byLabel: Map<string, { readonly values: Set<string>; readonly text: string }>;
  readonly replaced: Map<string, string>;
}

function readBindings(handles: readonly Handle[]): CurrentBindings {
  const byLabel = new Map<string, { values: Set<string>; text: string }>();
  const replaced = new Map<string, string>();
  for (const handle of handles) {
    if (handle.kind !== 'assignment' && handle.kind !== 'number') continue;
    if (isCodeAssignment(handle)) continue;
    const binding = bindingOf(handle);
    if (binding === undefined || binding.removed) continue;
    const known = byLabel.get(binding.label);
    if (known === undefined) byLabel.set(binding.label, { values: new Set([binding.value]), text: handle.text });
    else known.values.add(binding.value);
    for (const value of binding.replaced) if (value.length >= 4) replaced.set(value, handle.text);
  }
  return { byLabel, replaced };
}

/** The current bindings of each handle list, read once per list (lists are read-only; weak keys). */
const bindingsOf = new WeakMap<readonly Handle[], CurrentBindings>();

function currentBindings(handles: readonly Handle[]): CurrentBindings {
  let current = bindingsOf.get(handles);
  if (current === undefined) {
    current = readBindings(handles);
    bindingsOf.set(handles, current);
  }
  return current;
}

/** Whether `line` holds `value` as a whole token (not inside a longer name: `a/b-archive`, `a/b.old` hold no `a/b`). */
function holdsToken(line: string, value: string): boolean {
  for (let at = line.indexOf(value); at !== -1; at = line.indexOf(value, at + 1)) {
    const before = line.charAt(at - 1);
    const after = line.slice(at + value.length, at + value.length + 2);
    if (!/[\w./-]/.test(before) && !/^(?:[\w/]|[.-]\w)/.test(after)) return true;
  }
  return false;
}

/** The `from X to Y` binding that replaced a value `line` states as a whole token, unless `line` already holds it. */
function replacedBy(line: string, replaced: ReadonlyMap<string, string>): string | undefined {
  for (const [value, text] of replaced) if (holdsToken(line, value) && !line.includes(text)) return text;
  return undefined;
}

/** `line` with the note naming the binding that replaced what it states. */
function withNote(line: string, text: string | undefined): string {
  return text === undefined ? line : `${line} (replaced since: ${text})`;
}

/**
 * The bindings of the assignments a summary line states (not code), in order, per line: a summary carries most lines
 * of the one before it, and every compaction's block marks them again. Safe module-level: a pure function of the
 * line, bounded by `TextMemo`.
 */
const lineBindings = new TextMemo<readonly Binding[]>();

/** The bindings `line` states (`extractHandles` of its assignments, code left out), remembered per line. */
function bindingsOfLine(line: string): readonly Binding[] {
  let found = lineBindings.get(line);
  if (found === undefined) {
    const bindings: Binding[] = [];
    for (const handle of extractHandles(line, { kinds: ['assignment'] })) {
      if (isCodeAssignment(handle)) continue;
      const binding = bindingOf(handle);
      if (binding !== undefined) bindings.push(binding);
    }
    found = bindings;
    lineBindings.set(line, found);
  }
  return found;
}

/** The current binding that replaced what `line` states, if it states a replaced value. */
function replacement(line: string, current: CurrentBindings): string | undefined {
  const by = replacedBy(line, current.replaced);
  if (by !== undefined) return by;
  for (const binding of bindingsOfLine(line)) {
    const now = current.byLabel.get(binding.label);
    if (now !== undefined && !now.values.has(binding.value) && !line.includes(now.text)) return now.text;
  }
  return undefined;
}

/**
 * `summary` with a note after each line that states a value the bindings among `handles` replaced:
 * `… key_a. (replaced since: API key from key_a to key_b)`. Lines that state nothing replaced are unchanged.
 */
export function markReplacedValues(summary: string, handles: readonly Handle[]): string {
  if (summary.length === 0) return summary;
  const current = currentBindings(handles);
  if (current.byLabel.size === 0 && current.replaced.size === 0) return summary;
  return summary
    .split('\n')
    .map((line) => withNote(line, replacement(line, current)))
    .join('\n');
}

/**
 * An index entry's text with the note a summary line gets when it states a value a `from X to Y` binding among
 * `handles` replaced: a handle said again after the change (the code the agent read later still names the old value)
 * stays in the index, and listed bare it would read as current. `handles`: the kept handles of the record whose
 * layout lists the entry, so a frozen layout is marked the same way each time it is shown.
 */
export function markReplacedEntry(text: string, handles: readonly Handle[]): string {
  const { replaced } = currentBindings(handles);
  if (replaced.size === 0 || /[\n\r]/.test(text)) return text;
  return withNote(text, replacedBy(text, replaced));
}

/** A record's summary as the block shows it, and the fields it was computed from. */
interface ShownSummary {
  readonly summary: string;
  readonly handles: readonly Handle[];
  readonly shown: string;
}

/**
 * Each record's summary as the block shows it, computed once per record object. Module-level on purpose: records are
 * immutable (their fields and handles are read-only), and an entry is used only while the record still holds the
 * very summary and handle list it was computed from (compared on each hit), so its answer is what
 * `markReplacedValues` gives again, whatever came before; weak keys bound it to the records alive.
 */
const shownSummaries = new WeakMap<CompactionRecord, ShownSummary>();

/** A record's summary with its replaced values marked (`markReplacedValues` over the record's kept handles). */
export function shownSummary(record: CompactionRecord): string {
  const { summary, handles } = record;
  const known = shownSummaries.get(record);
  if (known !== undefined && known.summary === summary && known.handles === handles) return known.shown;
  const shown = markReplacedValues(summary, handles);
  shownSummaries.set(record, { summary, handles, shown });
  return shown;
}
