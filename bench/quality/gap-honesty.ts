/**
 * Metric 5, gap honesty: a session is resumed from an external summary whose originals are
 * not stored (`importExternalSummary({ toSeq: -1 })`), then the rest of the transcript is
 * appended. Every handle of the unstored part that is neither in the summary nor anywhere
 * in the stored part (by any lookup key) is unrecoverable; recalling it must say `gap`.
 *
 * Split point: the agent's own compaction boundary with its real summary when the
 * transcript has one (Claude Code), else the middle of the transcript with an extractive
 * summary of the first half. At most 400 dropped handles per transcript are recalled
 * (evenly sampled).
 */
import { createLedger } from '../../src/session/ledger.js';
import { lookupKeys } from '../../src/handles/normalize.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import type { SourceUnit } from '../../src/summarizers/summarizer.js';
import type { Role, SourceKind } from '../../src/types.js';
import { round, share } from '../bench-result.js';
import type { ResultTable } from '../bench-result.js';
import type { BenchTranscript } from '../data-sets.js';
import { handleTimeline, messageHandles } from './transcript-handles.js';

const SAMPLE = 400;
const KINDS: Record<Role, SourceKind> = { system: 'system', user: 'user', assistant: 'assistant', tool: 'tool-result' };

async function extractiveSummary(transcript: BenchTranscript, upTo: number, counter: TokenCounter): Promise<string> {
  const units = transcript.messages.slice(0, upTo).map((message, seq): SourceUnit => ({
    text: message.content,
    spanIds: [`pre-${seq}`],
    role: message.role,
    kind: KINDS[message.role],
    seq,
    origin: 'original',
  }));
  const result = await createExtractiveSummarizer().summarize({
    sessionId: transcript.id,
    units,
    budgetTokens: 800,
    handles: [],
    counter,
  });
  return result.summary;
}

/** Outcome of the gap-honesty measurement over a data set. */
export interface GapHonesty {
  /** Share of recalls of dropped handles reported as `gap` (null when there were none). */
  readonly share: number | null;
  /** Recalls made. */
  readonly total: number;
  /** The table for the results file. */
  readonly table: ResultTable;
}

/** Measure gap honesty over transcripts. */
export async function measureGapHonesty(
  transcripts: readonly BenchTranscript[],
  counter: TokenCounter,
): Promise<GapHonesty> {
  const counts = { gap: 0, verified: 0, unverified: 0, transcripts: 0 };
  for (const transcript of transcripts) {
    const own = transcript.compactions[0];
    const split = own?.atMessage ?? Math.floor(transcript.messages.length / 2);
    if (split < 1 || split >= transcript.messages.length) continue;
    const summary = own?.summary ?? (await extractiveSummary(transcript, split, counter));
    const store = createMemoryStore();
    const session = await createLedger({ store, tokenCounter: counter }).session(`${transcript.id}-resumed`, {
      window: { maxTokens: 1_000_000 },
    });
    await session.importExternalSummary({
      summary,
      summarizer: own?.summarizer ?? { name: 'bench-extractive', version: '1' },
      toSeq: -1,
    });
    await session.append(transcript.messages.slice(split));
    const storedKeys = new Set((await store.handles(session.id)).map((handle) => handle.key));
    const dropped = [...handleTimeline(messageHandles(transcript.messages)).handlesBetween(0, split)].filter(
      (text) => !summary.includes(text) && !lookupKeys(text).some((key) => storedKeys.has(key)),
    );
    const step = Math.max(1, Math.ceil(dropped.length / SAMPLE));
    counts.transcripts++;
    for (let index = 0; index < dropped.length; index += step) {
      const result = await session.recall(dropped[index] ?? '');
      counts[result.status]++;
    }
  }
  const total = counts.gap + counts.verified + counts.unverified;
  return {
    share: share(counts.gap, total),
    total,
    table: {
      title: 'Gap honesty: recalls of handles made unrecoverable on purpose',
      columns: ['transcripts', 'recalls', 'gap', 'verified', 'unverified', 'share reported as gap'],
      rows: [
        [counts.transcripts, total, counts.gap, counts.verified, counts.unverified, round(share(counts.gap, total))],
      ],
      notes: [
        'Resumed from an external summary with importExternalSummary({ toSeq: -1 }) (originals not stored); handles in the summary or in the stored remainder are excluded.',
      ],
    },
  };
}
