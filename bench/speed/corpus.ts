/**
 * Text for the throughput benchmarks: every message text (content and tool-call arguments)
 * of the data sets found under `--data`, or synthetic agent lines when none is present.
 */
import type { BenchContext } from '../bench-context.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import { syntheticLine } from './synthetic-spans.js';

/** Texts and where they came from. */
export interface Corpus {
  readonly texts: readonly string[];
  readonly source: string;
  readonly bytes: number;
}

/** Load up to `maxBytes` of message texts. */
export async function loadCorpus(context: BenchContext, maxBytes: number): Promise<Corpus> {
  const texts: string[] = [];
  let bytes = 0;
  const used: string[] = [];
  for (const name of ['claude-code', 'swe-agent', 'locomo'] as const) {
    const dataSet = await findDataSet(context.dataDir, name);
    if (dataSet.missing) continue;
    used.push(name);
    for (const transcript of await loadTranscripts(dataSet)) {
      for (const message of transcript.messages) {
        for (const text of [message.content, ...(message.toolCalls ?? []).map((call) => call.arguments)]) {
          if (text.length === 0 || bytes >= maxBytes) continue;
          texts.push(text);
          bytes += Buffer.byteLength(text);
        }
      }
    }
  }
  if (texts.length > 0)
    return { texts, bytes, source: `message texts of ${used.join(', ')} (${(bytes / 1e6).toFixed(1)} MB)` };
  for (let index = 0; bytes < maxBytes; index++) {
    const { text } = syntheticLine(index);
    texts.push(text);
    bytes += Buffer.byteLength(text);
  }
  return {
    texts,
    bytes,
    source: `synthetic agent lines (${(bytes / 1e6).toFixed(1)} MB; no data set found under ${context.dataDir})`,
  };
}
