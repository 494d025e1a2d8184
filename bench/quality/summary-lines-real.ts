/**
 * The Task and Decisions lines of the extractive summaries of real sessions (issue 36, part 5): each session is
 * replayed through the public API (`replayToCut`) up to its cut — Claude Code's own compaction for `claude-code/` and
 * `entire/`, 60% of a trajectory for `swe-agent/` — and every compaction record it wrote is read. A line is keyed by
 * its session and a hash of its text, so hand labels can be stored without the data set's text
 * (`summary-lines-labels.json`).
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TokenCounter } from '../../src/index.js';
import { SECTION_TITLES } from '../../src/summarizers/sections.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import type { DataSetFiles } from '../data-sets.js';
import { cutsOf } from './cut-quality.js';
import type { Cut } from './cut-quality.js';
import { replayToCut } from './public-replay.js';

/** One Task or Decisions line of a real summary. */
export interface RealSummaryLine {
  readonly set: string;
  readonly session: string;
  readonly budget: number;
  readonly section: 'task' | 'decisions';
  readonly text: string;
  /** `session:hash` — the key of its hand label. */
  readonly key: string;
}

/** The sentences of the region a summary covers, and the lines it shows, for the dropped-decision count. */
export interface RealSummary {
  readonly set: string;
  readonly session: string;
  readonly budget: number;
  readonly lines: readonly RealSummaryLine[];
  /** Text of the user and assistant messages the record covers. */
  readonly region: readonly string[];
}

/** The first 12 hex digits of the SHA-256 of a line's text (whitespace trimmed). */
export function lineHash(text: string): string {
  return createHash('sha256').update(text.trim()).digest('hex').slice(0, 12);
}

/** The `- ` lines under the Task and Decisions titles of a summary. */
export function taskAndDecisionLines(summary: string): { section: 'task' | 'decisions'; text: string }[] {
  const lines: { section: 'task' | 'decisions'; text: string }[] = [];
  let current: 'task' | 'decisions' | undefined;
  for (const line of summary.split('\n')) {
    if (line.startsWith('- ')) {
      if (current !== undefined) lines.push({ section: current, text: line.slice(2).trim() });
    } else if (line.trim() === SECTION_TITLES.task) current = 'task';
    else if (line.trim() === SECTION_TITLES.decisions) current = 'decisions';
    else if (line.trim().length > 0) current = undefined;
  }
  return lines;
}

/** The cuts of the three data sets (`entire/`: its Claude Code sessions, cut at their first compaction). */
export async function realCuts(dataDir: string, perSet: number): Promise<{ set: string; cuts: Cut[] }[]> {
  const sets: { set: string; cuts: Cut[] }[] = [];
  for (const name of ['claude-code', 'swe-agent'] as const) {
    const dataSet = await findDataSet(dataDir, name);
    if (dataSet.missing === undefined)
      sets.push({ set: name, cuts: cutsOf(name, await loadTranscripts(dataSet)).slice(0, perSet) });
  }
  const folder = join(dataDir, 'entire');
  const files = (await readdir(folder).catch(() => [] as string[]))
    .filter((file) => file.startsWith('entireio-cli__') && file.endsWith('.jsonl'))
    .sort()
    .map((file) => join(folder, file));
  if (files.length > 0) {
    const dataSet: DataSetFiles = { name: 'claude-code', folder, files };
    sets.push({ set: 'entire', cuts: cutsOf('claude-code', await loadTranscripts(dataSet)).slice(0, perSet) });
  }
  return sets;
}

/** Replay each cut at each budget and read the Task and Decisions lines of every record written. */
export async function realSummaries(
  sets: readonly { set: string; cuts: readonly Cut[] }[],
  budgets: readonly number[],
  counter: TokenCounter,
  log: (line: string) => void,
): Promise<RealSummary[]> {
  const summaries: RealSummary[] = [];
  for (const { set, cuts } of sets)
    for (const cut of cuts)
      for (const budget of budgets) {
        log(`summary lines: ${set} ${cut.id} @${budget}`);
        const messages = cut.messages.slice(0, cut.at);
        const replayed = await replayToCut(cut.id, messages, budget, counter);
        const seen = new Set<string>();
        for (const record of replayed.session.records()) {
          if (record.type !== 'summary' || seen.has(record.summary)) continue;
          seen.add(record.summary);
          const { fromSeq, toSeq } = record.droppedRange;
          const region = (await replayed.store.occurrences(cut.id, { fromSeq, toSeq }))
            .filter((occurrence) => occurrence.span.kind === 'user' || occurrence.span.kind === 'assistant')
            .map((occurrence) => occurrence.span.text);
          const lines = taskAndDecisionLines(record.summary).map((line) => ({
            set,
            session: cut.id,
            budget,
            ...line,
            key: `${cut.id}:${lineHash(line.text)}`,
          }));
          summaries.push({ set, session: cut.id, budget, lines, region });
        }
      }
  return summaries;
}
