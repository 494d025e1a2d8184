/**
 * Handle extraction throughput vs a bare `/[A-Za-z0-9_]+/g` pass over the same texts
 * (target: extraction at least half as fast). Rounds alternate the two to share the noise. A first round with the
 * token memo emptied is reported too: later rounds find the corpus's last tokens remembered, which a single pass
 * over new text would not.
 */
import { extractHandles } from '../../src/handles/extract.js';
import { TokenMemo } from '../../src/handles/token-memo.js';
import { atLeast, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { loadCorpus } from './corpus.js';
import { speedResult } from './speed-result.js';
import { interleavedMedians, timeMs } from './timing.js';

/** Run the extraction benchmark. */
export async function runExtractionBench(context: BenchContext): Promise<BenchResult> {
  const corpus = await loadCorpus(context, context.quick ? 4e6 : 20e6);
  let sink = 0;
  const rounds = context.quick ? 3 : 5;
  context.log(`extraction: ${corpus.texts.length} texts, ${rounds} rounds`);
  // One memo for the whole run, as a session keeps one; empty for the first round.
  const memo = new TokenMemo();
  const coldMs = await timeMs(() => {
    for (const text of corpus.texts) sink += extractHandles(text, { memo }).length;
  });
  const times = await interleavedMedians(
    rounds,
    () => {
      for (const text of corpus.texts) sink += extractHandles(text, { memo }).length;
    },
    () => {
      const word = /[A-Za-z0-9_]+/g;
      for (const text of corpus.texts) {
        word.lastIndex = 0;
        while (word.exec(text) !== null) sink++;
      }
    },
  );
  const mb = corpus.bytes / 1e6;
  const extractRate = mb / (times.body / 1000);
  const regexRate = mb / (times.other / 1000);
  const ratio = extractRate / regexRate;
  const coldRate = mb / (coldMs / 1000);
  return speedResult(context, 'speed-extraction', 'Handle extraction throughput', {
    notes: [
      `Corpus: ${corpus.source}.`,
      `Median of ${rounds} interleaved rounds; checksum ${sink}.`,
      'First round: token memo emptied and code not yet optimised, before the timed rounds.',
    ],
    tables: [
      {
        title: 'Extraction throughput',
        columns: ['pass', 'MB/s', 'median ms'],
        rows: [
          ['extractHandles', round(extractRate, 2), round(times.body, 1)],
          ['extractHandles, first round', round(coldRate, 2), round(coldMs, 1)],
          ['bare /[A-Za-z0-9_]+/g', round(regexRate, 2), round(times.other, 1)],
          ['ratio', round(ratio, 3), null],
          ['ratio, first round', round(coldRate / regexRate, 3), null],
        ],
      },
    ],
    targets: [atLeast('extraction throughput / bare word regex', round(ratio, 3), 0.5)],
    data: { bytes: corpus.bytes, extractMs: times.body, regexMs: times.other, firstRoundMs: coldMs },
  });
}
