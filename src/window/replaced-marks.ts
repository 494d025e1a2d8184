/**
 * A summary written before a value changed can still state the old value ("The client is configured with API key
 * key_a."), and the summary is shown after the index that holds the change: read in order, the old value would look
 * current (ARCHITECTURE invariant 12). When the block is rendered, a summary line that states a value the record's
 * current bindings replaced gets a note naming the binding that replaced it. The summary itself is not changed (the
 * record keeps it verbatim); the note is rendering only, like the neutralised labels.
 */
import { extractHandles } from '../handles/extract.js';
import { bindingOf, isCodeAssignment } from '../handles/supersession.js';
import type { CompactionRecord, Handle } from '../types.js';

/** What a record's kept bindings say is current: per label the bindings shown, and per replaced value its successor. */
interface CurrentBindings {
  readonly byLabel: Map<string, { readonly values: Set<string>; readonly text: string }>;
  readonly replaced: Map<string, string>;
}

function currentBindings(handles: readonly Handle[]): CurrentBindings {
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

/** Whether `line` holds `value` as a whole token. */
function holdsToken(line: string, value: string): boolean {
  for (let at = line.indexOf(value); at !== -1; at = line.indexOf(value, at + 1)) {
    const before = line.charAt(at - 1);
    const after = line.charAt(at + value.length);
    if (!/[\w./-]/.test(before) && !/[\w/]/.test(after)) return true;
  }
  return false;
}

/** The current binding that replaced what `line` states, if it states a replaced value. */
function replacement(line: string, current: CurrentBindings): string | undefined {
  for (const [value, text] of current.replaced) if (holdsToken(line, value) && !line.includes(text)) return text;
  for (const handle of extractHandles(line, { kinds: ['assignment'] })) {
    if (isCodeAssignment(handle)) continue;
    const binding = bindingOf(handle);
    const now = binding === undefined ? undefined : current.byLabel.get(binding.label);
    if (binding !== undefined && now !== undefined && !now.values.has(binding.value) && !line.includes(now.text))
      return now.text;
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
    .map((line) => {
      const text = replacement(line, current);
      return text === undefined ? line : `${line} (replaced since: ${text})`;
    })
    .join('\n');
}

/** Each record's summary as the block shows it (records are immutable: computed once per record object). */
const shownSummaries = new WeakMap<CompactionRecord, string>();

/** A record's summary with its replaced values marked (`markReplacedValues` over the record's kept handles). */
export function shownSummary(record: CompactionRecord): string {
  let shown = shownSummaries.get(record);
  if (shown === undefined) {
    shown = markReplacedValues(record.summary, record.handles);
    shownSummaries.set(record, shown);
  }
  return shown;
}
