import { countO200kTokens } from './o200k-count.js';
import { o200kSliceCounter, type SliceCounter } from './o200k-slice-counter.js';

export { COUNT_PIECE_CAP, COUNT_PIECE_TARGET, countingPieces, countO200kTokens } from './o200k-count.js';

/** Counts tokens. Pluggable; the default uses o200k_base. */
export interface TokenCounter {
  /** Name recorded with the session, e.g. `o200k_base`. */
  readonly name: string;
  /** Number of tokens in `text`. */
  count(text: string): number;
  /**
   * Optional: a counter of slices of one text, returning exactly `count(text.slice(start, end))` for every
   * range, faster when work is shared between ranges (chunking counts a large text, then its chunks).
   */
  slices?(text: string): SliceCounter;
}

/** The default counter: OpenAI's o200k_base encoding via gpt-tokenizer, in linear time (see `countO200kTokens`). */
export function createO200kCounter(): TokenCounter {
  return { name: 'o200k_base', count: countO200kTokens, slices: o200kSliceCounter };
}

/** A fast approximate counter (about 4 characters per token); useful for huge benchmarks. */
export function createApproximateCounter(): TokenCounter {
  return { name: 'approx-4', count: (text) => Math.ceil(text.length / 4) };
}
