/** gpt-tokenizer's o200k count, the reference the project's counter is measured against (`speed-count`, `speed-replay-scale`). */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { countingPieces } from '../../src/tokens/o200k-count.js';

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** gpt-tokenizer over the same pieces `countO200kTokens` counts (its merge is quadratic on one long pre-token). */
export function referenceCount(text: string): number {
  let total = 0;
  for (const piece of countingPieces(text)) total += countTokens(piece, PLAIN_TEXT);
  return total;
}
