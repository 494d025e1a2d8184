/**
 * Chunking: a large text becomes spans of at most `maxSpanTokens` tokens, cut at whitespace and never inside
 * a protected range (a handle).
 */
import { firstIndexWhere } from '../collections/sorted-search.js';
import type { SliceCounter } from '../tokens/o200k-slice-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** One chunk of a text: its slice, token count and offset in the whole text. */
export interface TextChunk {
  /** The chunk's text, verbatim. */
  readonly text: string;
  /** Its token count. */
  readonly tokens: number;
  /** Offset of the chunk in the whole text (UTF-16 code units). */
  readonly start: number;
}

/** A range a chunk boundary must not cut (a handle): a cut at `c` is refused when `start < c < end`. */
export interface ProtectedRange {
  /** Start offset. */
  readonly start: number;
  /** End offset (exclusive). */
  readonly end: number;
}

function isBreak(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 11;
}

/** Answers whether a cut falls strictly inside one of the protected ranges. */
type CutCheck = (cut: number) => boolean;

/** Builds a {@link CutCheck} over `ranges`: binary search on the starts, then a running maximum of the ends. */
function cutCheck(ranges: readonly ProtectedRange[]): CutCheck {
  if (ranges.length === 0) return () => false;
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const starts = sorted.map((range) => range.start);
  const maxEnd: number[] = [];
  let running = -1;
  for (const range of sorted) maxEnd.push((running = Math.max(running, range.end)));
  return (cut) => {
    const low = firstIndexWhere(starts.length, (index) => (starts[index] ?? 0) >= cut);
    return low > 0 && (maxEnd[low - 1] ?? 0) > cut;
  };
}

/**
 * Where to end a chunk that starts at `start` and should end near `target`: after the last
 * newline in the second half, else after the last whitespace there that cuts no protected
 * range, else after the first such whitespace up to half a chunk further, else at `target`
 * (a hard split inside a token longer than a chunk).
 */
function cutPoint(text: string, start: number, target: number, to: number, cuts: CutCheck): number {
  const half = Math.ceil((target - start) / 2);
  const newline = text.lastIndexOf('\n', target - 1);
  if (newline >= start + half && !cuts(newline + 1)) return newline + 1;
  for (let index = target - 1; index >= start + half; index--) {
    if (isBreak(text.charCodeAt(index)) && !cuts(index + 1)) return index + 1;
  }
  const limit = Math.min(to - 1, target + half);
  for (let index = target; index < limit; index++) {
    if (isBreak(text.charCodeAt(index)) && !cuts(index + 1)) return index + 1;
  }
  const high = text.charCodeAt(target - 1);
  return high >= 0xd800 && high <= 0xdbff && target + 1 < to ? target + 1 : target;
}

function chunkRange(
  text: string,
  from: number,
  to: number,
  maxTokens: number,
  count: SliceCounter,
  cuts: CutCheck,
  out: TextChunk[],
): void {
  const piece = text.slice(from, to);
  const tokens = count(from, to);
  if (tokens <= maxTokens || to - from <= 1) {
    out.push({ text: piece, tokens, start: from });
    return;
  }
  const parts = Math.ceil(tokens / maxTokens) + 1;
  const target = Math.ceil((to - from) / parts);
  let start = from;
  while (start < to) {
    let end = Math.min(to, start + target);
    if (end < to) end = cutPoint(text, start, end, to, cuts);
    chunkRange(text, start, end, maxTokens, count, cuts, out);
    start = end;
  }
}

/**
 * Split text into chunks of at most `maxTokens` tokens. Chunks end at a line break where
 * possible, else at whitespace, never inside a `protect`ed range (the
 * handles of the text, in any order) unless a single token is longer than a chunk, which is then split hard.
 */
export function chunkText(
  text: string,
  maxTokens: number,
  counter: TokenCounter,
  protect: readonly ProtectedRange[] = [],
): TextChunk[] {
  const out: TextChunk[] = [];
  const count = counter.slices?.(text) ?? ((start: number, end: number) => counter.count(text.slice(start, end)));
  // The protected ranges are sorted only when the text turns out to need a cut.
  let cuts: CutCheck | undefined;
  chunkRange(text, 0, text.length, maxTokens, count, (cut) => (cuts ??= cutCheck(protect))(cut), out);
  return out;
}
