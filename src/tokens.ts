import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** Counts tokens. Pluggable; the default uses o200k_base. */
export interface TokenCounter {
  /** Name recorded with the session, e.g. `o200k_base`. */
  readonly name: string;
  /** Number of tokens in `text`. */
  count(text: string): number;
}

/** The default counter: OpenAI's o200k_base encoding via gpt-tokenizer. */
export function createO200kCounter(): TokenCounter {
  return { name: 'o200k_base', count: (text) => (text.length === 0 ? 0 : countTokens(text)) };
}

/** A fast approximate counter (about 4 characters per token); useful for huge benchmarks. */
export function createApproximateCounter(): TokenCounter {
  return { name: 'approx-4', count: (text) => Math.ceil(text.length / 4) };
}
