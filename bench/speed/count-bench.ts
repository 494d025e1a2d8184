/**
 * o200k counting throughput: the project's counter (`countO200kTokens`: `src/tokens/o200k-bpe.ts`, ranks by bytes, and
 * `src/tokens/o200k-pretokens.ts`) against gpt-tokenizer's `countTokens` over the same message texts, which must give the
 * same total. Two ways: with every cache emptied before each round (text neither has seen: an append of new text)
 * and with the caches kept (text counted again). Rounds alternate the two counters to share the noise.
 */
import { clearMergeCache } from 'gpt-tokenizer/encoding/o200k_base';
import { clearMergedCounts } from '../../src/tokens/o200k-merge-memo.js';
import { countO200kTokens } from '../../src/tokens/o200k-count.js';
import { atLeast, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { loadCorpus } from './corpus.js';
import { referenceCount } from './reference-count.js';
import { speedResult } from './speed-result.js';
import { interleavedMedians } from './timing.js';

/** Run the counting benchmark. */
export async function runCountBench(context: BenchContext): Promise<BenchResult> {
  const corpus = await loadCorpus(context, context.quick ? 4e6 : 14e6);
  const rounds = context.quick ? 3 : 5;
  context.log(`count: ${corpus.texts.length} texts, ${rounds} rounds each way`);
  let ours = 0;
  let theirs = 0;
  const countOurs = (): void => {
    for (const text of corpus.texts) ours += countO200kTokens(text);
  };
  const countTheirs = (): void => {
    for (const text of corpus.texts) theirs += referenceCount(text);
  };
  countOurs();
  countTheirs();
  if (ours !== theirs) throw new Error(`count: the counters disagree on the corpus (${ours} against ${theirs} tokens)`);
  const tokens = ours;
  const cold = await interleavedMedians(
    rounds,
    () => {
      clearMergedCounts();
      countOurs();
    },
    () => {
      clearMergeCache();
      countTheirs();
    },
  );
  const warm = await interleavedMedians(rounds, countOurs, countTheirs);
  const mb = corpus.bytes / 1e6;
  const rate = (ms: number): number => mb / (ms / 1000);
  const coldRatio = rate(cold.body) / rate(cold.other);
  return speedResult(context, 'speed-count', 'o200k counting throughput', {
    notes: [
      `Corpus: ${corpus.source}; ${tokens} tokens, equal for both counters.`,
      `Median of ${rounds} interleaved rounds each way. "Caches emptied": gpt-tokenizer's merge cache and the project's`,
      'merged-count memo are cleared before every round; the code is compiled by then.',
    ],
    tables: [
      {
        title: 'Counting throughput (MB/s)',
        columns: ['counter', 'caches emptied', 'caches kept'],
        rows: [
          ['countO200kTokens (project)', round(rate(cold.body), 2), round(rate(warm.body), 2)],
          ['gpt-tokenizer countTokens', round(rate(cold.other), 2), round(rate(warm.other), 2)],
          ['ratio', round(coldRatio, 3), round(rate(warm.body) / rate(warm.other), 3)],
        ],
      },
    ],
    targets: [atLeast('project counter / gpt-tokenizer, caches emptied (same counts)', round(coldRatio, 3), 1)],
    data: { bytes: corpus.bytes, tokens, cold, warm },
  });
}
