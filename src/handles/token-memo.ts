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
 * {@link MEMO_LIMIT} entries. It is a {@link StretchTable}: keys are read in place, never sliced out of the text.
 */
import type { HandleKind } from '../types.js';
import { HANDLE_KINDS } from '../types.js';
import type { Candidate } from './candidate.js';
import { StretchTable } from './stretch-table.js';

/** Most classifications the memo holds. */
export const MEMO_LIMIT = 8192;

/** End of the memo key of a token ending at `end`: the character after it, two when that one is a `(`. */
export function memoKeyEnd(view: string, end: number): number {
  return view.charCodeAt(end) === 40 ? end + 2 : end + 1;
}

/**
 * Start of the memo key of the token `[start, end)` of `view` (whose verbatim text is `source`, same length): the
 * character before it (two when that one is a `"`, for a `\\"…\\"` escaped quote); the key runs to
 * {@link memoKeyEnd}. -1 when the token is too near an edge or the verbatim text differs from the view in the key
 * (masked markup next to the token). `source` is undefined when it is the view itself (comparing two long strings
 * for every token would cost a walk up to their first difference each time). The key's layout can be read back
 * from it: the token starts after a `"` second character, and ends before a `(` second-to-last one (a token holds
 * neither).
 */
export function memoKeyStart(view: string, source: string | undefined, start: number, end: number): number {
  if (start < 2 || end + 2 > view.length) return -1;
  const from = view.charCodeAt(start - 1) === 34 ? start - 2 : start - 1;
  if (source !== undefined) {
    const to = memoKeyEnd(view, end);
    for (let index = from; index < start; index++) if (source.charCodeAt(index) !== view.charCodeAt(index)) return -1;
    for (let index = end; index < to; index++) if (source.charCodeAt(index) !== view.charCodeAt(index)) return -1;
  }
  return from;
}

/** The memo key of the token `[start, end)` as a string (see {@link memoKeyStart}), or undefined when it has none. */
export function memoKey(view: string, source: string, start: number, end: number): string | undefined {
  const from = memoKeyStart(view, source === view ? undefined : source, start, end);
  return from === -1 ? undefined : view.slice(from, memoKeyEnd(view, end));
}

/** Longest token keyed by {@link wideMemoKey} (its length is one character of the key). */
export const MAX_WIDE_TOKEN = 0xffff;

/**
 * The key of a token that has no {@link memoKeyStart} (next to masked markup, or near an edge of the text): the
 * token with the two characters either side of it in the view, then those of the verbatim text, after a header of
 * the token's length and which of those four positions lie outside the text. It holds everything the stretch key
 * holds and more, so it is as exact; being a string built per token, it is kept in a table of its own. Undefined
 * for a token longer than {@link MAX_WIDE_TOKEN}.
 */
export function wideMemoKey(view: string, source: string, start: number, end: number): string | undefined {
  if (end - start > MAX_WIDE_TOKEN) return undefined;
  const length = view.length;
  const from = Math.max(0, start - 2);
  const to = Math.min(length, end + 2);
  const outside = (start < 2 ? 1 : 0) | (start < 1 ? 2 : 0) | (end + 1 >= length ? 4 : 0) | (end >= length ? 8 : 0);
  return (
    String.fromCharCode(end - start, outside) + view.slice(from, to) + source.slice(from, start) + source.slice(end, to)
  );
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
 * The memo's tables and the flag of the classification under way. Whoever extracts handles again and again keeps
 * one and passes it to `extractHandles` (`ExtractOptions.memo`): a session keeps one for its appends. Without one,
 * every token is classified afresh (the same handles, more slowly on repetitive text).
 */
export class TokenMemo {
  /** Remembered classifications: {@link NONE}, one packed candidate, or the candidates relative to the token start. */
  private readonly narrow = new StretchTable<number | readonly Candidate[]>(MEMO_LIMIT);
  /** The same for the tokens keyed by {@link wideMemoKey}: next to masked markup or to an edge of the text. */
  private readonly wide = new StretchTable<number | readonly Candidate[]>(MEMO_LIMIT / 2);
  /** Whether the classification under way read text beyond its memo key. */
  private contextual = false;

  /**
   * Pushes the remembered candidates of the key `text[from, to)`, placed at `start`, to `out`; returns false when
   * none are remembered. `wide`: the key is a {@link wideMemoKey}.
   */
  replay(text: string, from: number, to: number, start: number, out: Candidate[], wide = false): boolean {
    const found = (wide ? this.wide : this.narrow).get(text, from, to);
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

  /** Starts a classification whose result may be remembered with {@link TokenMemo.remember}. */
  begin(): void {
    this.contextual = false;
  }

  /** Marks the classification under way as depending on text beyond the memo key. */
  markContextual(): void {
    this.contextual = true;
  }

  /**
   * Remembers `out[first…]`, the candidates of the token at `start` classified since {@link TokenMemo.begin}, under
   * the key `text[from, to)`, unless the classification was marked contextual.
   */
  remember(
    text: string,
    from: number,
    to: number,
    start: number,
    out: readonly Candidate[],
    first: number,
    wide = false,
  ): void {
    if (this.contextual) return;
    (wide ? this.wide : this.narrow).set(text, from, to, entryOf(start, out, first));
  }

  /** Forgets every remembered classification. */
  clear(): void {
    this.narrow.clear();
    this.wide.clear();
  }
}
