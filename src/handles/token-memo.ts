/**
 * A bounded memo of token classifications. Agent transcripts repeat their tokens (`self.foo`, `src/a.ts`, the same
 * ids in every tool result): about three in four tokens the token pass classifies were classified a few thousand
 * tokens before. The classifiers read the token, its two characters after (a `()` call, a `}` format field, a closing
 * quote) and, in the verbatim text, its two characters before and after (a quote around it); the memo key is exactly
 * that stretch, so a remembered classification is the one the classifiers would compute again. A classifier that looks
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
 * The memo key of the token `[start, end)` of `view` (whose verbatim text is `source`, same length): two characters
 * either side and the token, or undefined when the token is too near an edge or the verbatim text differs from the
 * view in that stretch (masked markup next to the token).
 */
export function memoKey(view: string, source: string, start: number, end: number): string | undefined {
  if (start < 2 || end + 2 > view.length) return undefined;
  if (
    source !== view &&
    (source.charCodeAt(start - 2) !== view.charCodeAt(start - 2) ||
      source.charCodeAt(start - 1) !== view.charCodeAt(start - 1) ||
      source.charCodeAt(end) !== view.charCodeAt(end) ||
      source.charCodeAt(end + 1) !== view.charCodeAt(end + 1))
  )
    return undefined;
  return view.slice(start - 2, end + 2);
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
