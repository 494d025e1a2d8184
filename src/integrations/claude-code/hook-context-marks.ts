/**
 * A value the session replaced, marked where the SessionStart context shows it. The context leaves out what a later
 * binding superseded (`supersededHandles`), but a handle said again after the change stays a candidate: the code the
 * agent read after "we did a migration from ledger/runs to ledger/snapshots/v2" still names `ledger/runs`.
 * Listed bare after the summary, it reads as the current value. So an entry that states a value a `from X to Y`
 * binding of the session replaced (or a binding of a label the session bound to other values since) is shown with the
 * note the window gives such a summary line (`window/replaced-marks.ts`): `branches to ledger/runs (replaced
 * since: migration from ledger/runs to ledger/snapshots/v2)`. The note is rendering only; the handle stays
 * verbatim and recallable.
 */
import { markReplacedValues } from '../../window/replaced-marks.js';
import type { Handle } from '../../types.js';

/** Entry texts with their note, computed for a batch of entries at a time and kept for the next render. */
export interface ReplacedMarker {
  /** Work out the notes of `texts` (one line each) not seen before, in one pass over the session's bindings. */
  prepare(texts: readonly string[]): void;
  /** `text` with its note when it states a replaced value (after `prepare` saw it), else `text`. */
  shown(text: string): string;
}

/** A marker over the bindings among `occurrences` (the handles before the compaction). */
export function replacedMarker(occurrences: readonly Handle[]): ReplacedMarker {
  const marked = new Map<string, string>();
  return {
    prepare(texts) {
      const fresh = [...new Set(texts.filter((text) => !marked.has(text) && !/[\n\r]/.test(text)))];
      if (fresh.length === 0) return;
      const lines = markReplacedValues(fresh.join('\n'), occurrences).split('\n');
      fresh.forEach((text, index) => marked.set(text, lines[index] ?? text));
    },
    shown: (text) => marked.get(text) ?? text,
  };
}
