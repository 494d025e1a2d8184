/**
 * Audit of an agent's own compactions (Claude Code compact_boundary + isCompactSummary, Codex
 * `compacted`): what each summary kept, what the agent needed later and lost, and what
 * context-ledger keeps for the same region at the same footprint.
 */
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord } from '../types.js';
import { compareAtFootprint } from './compare.js';
import type { FootprintComparison } from './compare.js';
import { containsEntry, countByKind, entriesOf } from './handle-sets.js';
import type { HandleEntry } from './handle-sets.js';
import { entriesBefore, futureNeeded, generationAudit, holder, judge, reachable, sourceOf } from './generation.js';
import type { Keeper, Verdict } from './generation.js';
import type { AgentBoundary, Timeline } from './timeline.js';
import type { CompactionAudit, ConstraintAudit, FutureNeededHandle, GenerationAudit } from './types.js';

/** What the agent-mode audit produces for one conversation. */
export interface AgentAudit {
  /** One entry per agent compaction (a compaction with nothing before it is left out). */
  readonly compactions: CompactionAudit[];
  /** Agent record and context-ledger counterpart, per compaction. */
  readonly generations: GenerationAudit[];
  /** Gaps of the context-ledger comparison sessions (the agent's own are the timeline's). */
  readonly comparisonGaps: ReturnType<Timeline['session']['gaps']>;
}

function recordOf(timeline: Timeline, id: string): CompactionRecord {
  const record = timeline.session.records().find((candidate) => candidate.id === id);
  if (!record) throw new Error(`audit: record ${id} missing from session ${timeline.session.id}`);
  return record;
}

/** One agent compaction judged twice: by the agent's own record and by context-ledger at the same footprint. */
interface JudgedBoundary {
  readonly boundary: AgentBoundary;
  /** Distinct handles before the boundary. */
  readonly before: Map<string, HandleEntry>;
  /** Handles of `before` the agent used before its next compaction. */
  readonly needed: HandleEntry[];
  readonly agentTokens: number;
  readonly agentKeeper: Keeper;
  readonly agentVerdicts: Verdict[];
  readonly comparison: FootprintComparison;
  readonly ledgerKeeper: Keeper;
  readonly ledgerVerdicts: Verdict[];
}

/** Judge the agent's record at boundary `index`, then compact the same region with context-ledger and judge that. */
async function judgeBoundary(
  timeline: Timeline,
  counter: TokenCounter,
  index: number,
  boundary: AgentBoundary,
): Promise<JudgedBoundary> {
  const nextSeq = timeline.boundaries[index + 1]?.seq ?? Number.POSITIVE_INFINITY;
  const before = entriesBefore(timeline, boundary.seq);
  const needed = futureNeeded(timeline, before, boundary.seq, nextSeq);
  const agentTokens = counter.count(boundary.summary);
  const agentKeeper: Keeper = { record: recordOf(timeline, boundary.recordId), summaryOnly: true };
  const agentVerdicts = await judge(agentKeeper, needed);

  const comparison = await compareAtFootprint(
    timeline.session.id,
    timeline.messages.slice(0, boundary.messageIndex),
    agentTokens,
    counter,
    timeline.session.config.maxSpanTokens,
  );
  const ledgerKeeper: Keeper = {
    record: comparison.record,
    checkpoint: comparison.checkpoint,
    recallFrom: comparison.session,
  };
  const ledgerVerdicts = await judge(ledgerKeeper, needed);
  return {
    boundary,
    before,
    needed,
    agentTokens,
    agentKeeper,
    agentVerdicts,
    comparison,
    ledgerKeeper,
    ledgerVerdicts,
  };
}

/** Each future-needed handle with where the agent and context-ledger kept it. */
function futureNeededList(timeline: Timeline, judged: JudgedBoundary): FutureNeededHandle[] {
  return judged.needed.map((entry, position) => {
    const ledger = judged.ledgerVerdicts[position];
    return {
      ...sourceOf(timeline, entry),
      keptByAgent: judged.agentVerdicts[position]?.inWindow ?? false,
      inLedgerWindow: ledger?.inWindow ?? false,
      inLedgerCheckpoint: ledger !== undefined && !ledger.inWindow && ledger.inCheckpoint,
      ledgerRecall: ledger?.recall ?? 'unverified',
    };
  });
}

/** Distinct constraints the user said before `boundarySeq`. */
function userConstraintsBefore(timeline: Timeline, boundarySeq: number): HandleEntry[] {
  return [
    ...entriesOf(
      timeline.handles.filter(
        (handle) => handle.seq < boundarySeq && handle.kind === 'constraint' && handle.role === 'user',
      ),
    ).values(),
  ];
}

/** The audit line of one agent compaction. */
function compactionAudit(timeline: Timeline, judged: JudgedBoundary): CompactionAudit {
  const { boundary, comparison, ledgerVerdicts } = judged;
  const ledgerHolds = holder(judged.ledgerKeeper);
  const userConstraints = userConstraintsBefore(timeline, boundary.seq);
  const lostConstraints: ConstraintAudit[] = userConstraints
    .filter((entry) => !containsEntry(boundary.summary, entry))
    .map((entry) => ({ ...sourceOf(timeline, entry), inLedgerWindow: ledgerHolds.inWindow(entry) }));
  const beforeList = [...judged.before.values()];
  const windowEntries = beforeList.filter(ledgerHolds.inWindow);
  return {
    label: boundary.label,
    summarizer: boundary.summarizer,
    seqBoundary: boundary.seq,
    agentSummaryTokens: judged.agentTokens,
    handlesBefore: countByKind(beforeList),
    keptByAgent: countByKind(beforeList.filter((entry) => containsEntry(boundary.summary, entry))),
    futureNeeded: futureNeededList(timeline, judged),
    userConstraints: userConstraints.length,
    lostConstraints,
    ledger: {
      tokens: comparison.tokens,
      summaryTokens: comparison.record.summaryTokens,
      budgets: comparison.budgets,
      futureNeededInWindow: ledgerVerdicts.filter((verdict) => verdict.inWindow).length,
      futureNeededReachable: ledgerVerdicts.filter(reachable).length,
      constraintsKept: userConstraints.filter(ledgerHolds.inWindow).length,
      recordId: comparison.record.id,
      reversible: comparison.record.reversible,
      keptInWindow: countByKind(windowEntries),
      keptInCheckpoint: countByKind(
        beforeList.filter((entry) => !ledgerHolds.inWindow(entry) && ledgerHolds.inCheckpoint(entry)),
      ),
    },
  };
}

/** Generation `generation` as the agent wrote it, then as context-ledger wrote it. */
function generationPair(timeline: Timeline, judged: JudgedBoundary, generation: number): GenerationAudit[] {
  return [
    generationAudit(timeline, {
      generation,
      writer: 'agent',
      keeper: judged.agentKeeper,
      tokens: judged.agentTokens,
      before: judged.before,
      verdicts: judged.agentVerdicts,
    }),
    generationAudit(timeline, {
      generation,
      writer: 'context-ledger',
      keeper: judged.ledgerKeeper,
      tokens: judged.comparison.tokens,
      before: judged.before,
      verdicts: judged.ledgerVerdicts,
    }),
  ];
}

/** Audit every agent compaction of a timeline built in `agent` mode. */
export async function auditAgentCompactions(
  timeline: Timeline,
  counter: TokenCounter,
  onStep: (done: number, total: number) => void = () => undefined,
): Promise<AgentAudit> {
  const compactions: CompactionAudit[] = [];
  const generations: GenerationAudit[] = [];
  const comparisonGaps: AgentAudit['comparisonGaps'] = [];
  for (const [index, boundary] of timeline.boundaries.entries()) {
    onStep(index, timeline.boundaries.length);
    if (boundary.seq === 0) continue;
    const judged = await judgeBoundary(timeline, counter, index, boundary);
    comparisonGaps.push(...judged.comparison.session.gaps());
    compactions.push(compactionAudit(timeline, judged));
    generations.push(...generationPair(timeline, judged, compactions.length));
  }
  onStep(timeline.boundaries.length, timeline.boundaries.length);
  return { compactions, generations, comparisonGaps };
}
