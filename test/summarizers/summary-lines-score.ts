/**
 * Scores what the extractive summary's lines carry on the generated sessions of `summary-sessions.ts` (issue 36,
 * part 5): whether the Task shows what the user asked for, whether the locked decisions are kept, and how many lines
 * filler takes.
 */
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import { SECTION_TITLES } from '../../src/summarizers/sections.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import type { SummarySession } from './summary-sessions.js';

/** Pooled counts over sessions. */
export interface SummaryLinesScore {
  sessions: number;
  /** Sessions whose Task shows every planted ask (the first and, when there is one, the later). */
  asksShown: number;
  /** Task lines, and those that are a planted ask. */
  taskLines: number;
  taskAskLines: number;
  /** Task lines that are filler. */
  taskFillerLines: number;
  /** Planted decisions, and those on a Decisions line. */
  decisions: number;
  decisionsKept: number;
  /** Summary lines (all sections), and those that are filler. */
  lines: number;
  fillerLines: number;
  /** Sessions where a decision was left out while a filler line was kept. */
  droppedForFiller: number;
}

/** A score with every count at zero. */
export function emptySummaryScore(): SummaryLinesScore {
  return {
    sessions: 0,
    asksShown: 0,
    taskLines: 0,
    taskAskLines: 0,
    taskFillerLines: 0,
    decisions: 0,
    decisionsKept: 0,
    lines: 0,
    fillerLines: 0,
    droppedForFiller: 0,
  };
}

/** The `- ` lines of a summary by section title. */
function sectionLines(summary: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current = '';
  for (const line of summary.split('\n')) {
    if (line.startsWith('- ')) sections.set(current, [...(sections.get(current) ?? []), line.slice(2)]);
    else current = line.trim();
  }
  return sections;
}

/** Summarizes `session` within `budget` tokens and adds what its lines carry to `score`. */
export async function scoreSummaryLines(
  score: SummaryLinesScore,
  session: SummarySession,
  budget: number,
  counter: TokenCounter,
): Promise<void> {
  const summarizer = createExtractiveSummarizer();
  const result = await summarizer.summarize({
    sessionId: session.id,
    units: session.units,
    budgetTokens: budget,
    handles: [],
    counter,
  });
  const sections = sectionLines(result.summary);
  const task = sections.get(SECTION_TITLES.task) ?? [];
  const decisions = sections.get(SECTION_TITLES.decisions) ?? [];
  const all = [...sections.values()].flat();
  const isFiller = (line: string) => session.filler.includes(line);
  score.sessions++;
  if (session.asks.every((ask) => task.includes(ask))) score.asksShown++;
  score.taskLines += task.length;
  score.taskAskLines += task.filter((line) => session.asks.includes(line)).length;
  score.taskFillerLines += task.filter(isFiller).length;
  score.decisions += session.decisions.length;
  const kept = session.decisions.filter((decision) => decisions.includes(decision)).length;
  score.decisionsKept += kept;
  score.lines += all.length;
  score.fillerLines += all.filter(isFiller).length;
  if (kept < session.decisions.length && all.some(isFiller)) score.droppedForFiller++;
}

/** `part / whole`, 0 when there is no whole. */
export function shareOf(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
