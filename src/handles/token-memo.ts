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
import type { Candidate } from './candidate.js';

/** Most classifications the memo holds. */
export const MEMO_LIMIT = 8192;

let memo = new Map<string, readonly Candidate[]>();
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

/** Pushes the remembered candidates of `key`, placed at `start`, to `out`; returns false when none are remembered. */
export function replay(key: string, start: number, out: Candidate[]): boolean {
  const found = memo.get(key);
  if (found === undefined) return false;
  for (const candidate of found)
    out.push({ kind: candidate.kind, start: start + candidate.start, end: start + candidate.end });
  return true;
}

/** Starts a classification whose result may be remembered with {@link remember}. */
export function beginClassification(): void {
  contextual = false;
}

/**
 * Remembers `out[from…]`, the candidates of the token at `start` classified since {@link beginClassification}, under
 * `key`, unless the classification was marked contextual.
 */
export function remember(key: string, start: number, out: readonly Candidate[], from: number): void {
  if (contextual) return;
  const found: Candidate[] = [];
  for (let index = from; index < out.length; index++) {
    const candidate = out[index] as Candidate;
    found.push({ kind: candidate.kind, start: candidate.start - start, end: candidate.end - start });
  }
  if (memo.size >= MEMO_LIMIT) memo = new Map();
  memo.set(key, found);
}

/** Forgets every remembered classification (for tests). */
export function clearTokenMemo(): void {
  memo = new Map();
}
