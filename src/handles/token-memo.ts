/**
 * A bounded memo of token classifications. Agent transcripts repeat their tokens (`self.foo`, `src/a.ts`, the same
 * ids in every tool result): about seven in ten tokens the token pass classifies were classified a few thousand
 * tokens before. The classifiers read the token, the character after it (a `(` call, a `}` format field, a closing
 * quote) and the one after a `(` (an empty `()` call), and in the verbatim text the character before it and the one
 * before a `"` (an escaped quote around it); the memo key is exactly that stretch ({@link memoKey}), so a remembered
 * classification is the one the classifiers would compute again. A classifier that looks
 * further (a URL's `(…)` group, an ssh command before an email, a selector's rest of line, a time after a date, a
 * quoted or listed assignment value, the words before a version) marks the classification contextual
 * ({@link markContextual}) and it is not remembered. The memo starts over when full, so it never holds more than
 * {@link MEMO_LIMIT} entries.
 */
import { BoundedMemo } from '../bounded-memo.js';
import type { HandleKind } from '../types.js';
import { HANDLE_KINDS } from '../types.js';
import type { Candidate } from './candidate.js';

/** Most classifications the memo holds. */
export const MEMO_LIMIT = 8192;

/** Remembered classifications: {@link NONE}, one packed candidate, or the candidates relative to the token start. */
const memo = new BoundedMemo<string, number | readonly Candidate[]>(MEMO_LIMIT);
let contextual = false;

/** Marks the classification under way as depending on text beyond the memo key. */
export function markContextual(): void {
  contextual = true;
}

/**
 * The memo key of the token `[start, end)` of `view` (whose verbatim text is `source`, same length): the token with
 * the character before it (two when that one is a `"`, for a `\\"…\\"` escaped quote) and the one after it (two when
 * that one is a `(`, for a `()` call), or undefined when the token is too near an edge or the verbatim text differs
 * from the view there (masked markup next to the token). The key's layout can be read back from it: the token starts
 * after a `"` second character, and ends before a `(` second-to-last one (a token holds neither).
 */
export function memoKey(view: string, source: string, start: number, end: number): string | undefined {
  if (start < 2 || end + 2 > view.length) return undefined;
  const from = view.charCodeAt(start - 1) === 34 ? start - 2 : start - 1;
  const to = view.charCodeAt(end) === 40 ? end + 2 : end + 1;
  if (source !== view) {
    for (let index = from; index < start; index++)
      if (source.charCodeAt(index) !== view.charCodeAt(index)) return undefined;
    for (let index = end; index < to; index++)
      if (source.charCodeAt(index) !== view.charCodeAt(index)) return undefined;
  }
  return view.slice(from, to);
}

/** A remembered classification with no candidates. */
const NONE = -1;
const START_BITS = 11;
const END_BITS = 15;

/**
 * One candidate at `start`…`end` from the token start as a small integer (kind, start, end), so that most memo
 * entries hold no object for the garbage collector to copy; -1 when it does not fit (a candidate starting before the
 * token, or too far from it, is kept as an object).
 */
function packed(kind: number, start: number, end: number): number {
  if (kind < 0 || start < 0 || end < start || start >= 1 << START_BITS || end >= 1 << END_BITS) return NONE;
  return (kind << (START_BITS + END_BITS)) | (start << END_BITS) | end;
}

/** Pushes the remembered candidates of `key`, placed at `start`, to `out`; returns false when none are remembered. */
export function replay(key: string, start: number, out: Candidate[]): boolean {
  const found = memo.get(key);
  if (found === undefined) return false;
  if (typeof found === 'number') {
    if (found === NONE) return true;
    const kind = HANDLE_KINDS[found >>> (START_BITS + END_BITS)] as HandleKind;
    const from = start + ((found >>> END_BITS) & ((1 << START_BITS) - 1));
    out.push({ kind, start: from, end: start + (found & ((1 << END_BITS) - 1)) });
    return true;
  }
  for (const candidate of found)
    out.push({ kind: candidate.kind, start: start + candidate.start, end: start + candidate.end });
  return true;
}

/** Starts a classification whose result may be remembered with {@link remember}. */
export function beginClassification(): void {
  contextual = false;
}

/** The memo entry of `out[from…]`, placed relative to `start`. */
function entryOf(start: number, out: readonly Candidate[], from: number): number | readonly Candidate[] {
  if (out.length === from) return NONE;
  const only = out[from] as Candidate;
  if (out.length === from + 1) {
    const value = packed(HANDLE_KINDS.indexOf(only.kind), only.start - start, only.end - start);
    if (value !== NONE) return value;
  }
  const found: Candidate[] = [];
  for (let index = from; index < out.length; index++) {
    const candidate = out[index] as Candidate;
    found.push({ kind: candidate.kind, start: candidate.start - start, end: candidate.end - start });
  }
  return found;
}

/**
 * Remembers `out[from…]`, the candidates of the token at `start` classified since {@link beginClassification}, under
 * `key`, unless the classification was marked contextual.
 */
export function remember(key: string, start: number, out: readonly Candidate[], from: number): void {
  if (contextual) return;
  memo.set(key, entryOf(start, out, from));
}

/** Forgets every remembered classification (for tests). */
export function clearTokenMemo(): void {
  memo.clear();
}
