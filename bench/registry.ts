import type { Benchmark } from './benchmark.js';
import { handlesQualityBench } from './handles-quality.js';
import { rulesQualityBench } from './rules-quality.js';
import { runAgentQuality } from './quality/agent-quality.js';
import { CUT_BUDGETS, runCutQuality } from './quality/cut-quality.js';
import { TURN_BUDGETS, runTurnQualityBench } from './quality/turn-quality-bench.js';
import { runHookContextBench } from './quality/hook-context.js';
import { runHookContextEntire } from './quality/hook-context-entire.js';
import { runFactFidelity } from './quality/fact-fidelity.js';
import { runFactReal } from './quality/fact-real.js';
import { runRankCv } from './quality/rank-cv-bench.js';
import { runLocomoQuality } from './quality/locomo-recall.js';
import { runSummaryLines } from './quality/summary-lines.js';
import { CACHE_WINDOWS, runPromptCacheBench } from './real/prompt-cache-bench.js';
import { runRealReplayBench } from './real/real-replay-bench.js';
import { runCountBench } from './speed/count-bench.js';
import { runCompactionCycleBench } from './speed/compaction-cycle-bench.js';
import { runAppendLatencyBench } from './speed/append-latency-bench.js';
import { runExtractionBench } from './speed/extraction-bench.js';
import { runFtsOptionsBench } from './speed/fts-options-bench.js';
import { runHookIngestBench } from './speed/hook-ingest-bench.js';
import { runUnfinishedLineBench } from './speed/unfinished-line-bench.js';
import { runIngestBench } from './speed/ingest-bench.js';
import { runMcpAnswersBench } from './speed/mcp-answers-bench.js';
import { runRecallLatencyBench } from './speed/recall-latency-bench.js';
import { runReplayScaleBench } from './speed/replay-scale-bench.js';
import { runHandleScaleBench } from './speed/handle-scale-bench.js';
import { runRssBench } from './speed/rss-bench.js';
import { storeBench } from './store-bench.js';

/** Every benchmark, in run order. */
export const BENCHMARKS: readonly Benchmark[] = [
  { name: 'quality-facts', run: runFactFidelity },
  { name: 'quality-facts-real', run: runFactReal },
  { name: 'real-replay', run: runRealReplayBench },
  { name: 'prompt-cache', run: runPromptCacheBench, windowBudgets: CACHE_WINDOWS },
  {
    name: 'quality-claude-code',
    run: (context) => runCutQuality(context, 'claude-code'),
    windowBudgets: CUT_BUDGETS,
  },
  { name: 'quality-swe-agent', run: (context) => runCutQuality(context, 'swe-agent'), windowBudgets: CUT_BUDGETS },
  { name: 'quality-turns', run: runTurnQualityBench, windowBudgets: TURN_BUDGETS },
  { name: 'quality-locomo', run: runLocomoQuality },
  { name: 'quality-summary-lines', run: runSummaryLines },
  { name: 'speed-extraction', run: runExtractionBench },
  { name: 'speed-count', run: runCountBench },
  { name: 'speed-ingest', run: runIngestBench },
  { name: 'speed-recall', run: runRecallLatencyBench },
  { name: 'speed-compaction', run: runCompactionCycleBench },
  { name: 'speed-fts', run: runFtsOptionsBench },
  { name: 'speed-append', run: runAppendLatencyBench },
  { name: 'speed-rss', run: runRssBench },
  { name: 'speed-hook', run: runHookIngestBench },
  { name: 'speed-unfinished-line', run: runUnfinishedLineBench },
  { name: 'speed-replay-scale', run: runReplayScaleBench },
  { name: 'speed-handle-scale', run: runHandleScaleBench },
  { name: 'mcp-answers', run: runMcpAnswersBench },
  storeBench,
  handlesQualityBench,
  rulesQualityBench,
  { name: 'survival-claude-code', run: (context) => runAgentQuality(context, 'claude-code') },
  { name: 'survival-swe-agent', run: (context) => runAgentQuality(context, 'swe-agent') },
  { name: 'rank-cv', run: runRankCv },
  { name: 'hook-context', run: runHookContextBench },
  { name: 'hook-context-entire', run: runHookContextEntire },
];

/**
 * The names `requested` selects among `names`, in run order: a requested name selects the
 * benchmark of that name and every `name-*` one (`quality` → `quality-claude-code`, …);
 * nothing requested selects all.
 */
export function selectBenchmarks(names: readonly string[], requested: readonly string[]): string[] {
  if (requested.length === 0) return [...names];
  return names.filter((name) => requested.some((wanted) => name === wanted || name.startsWith(`${wanted}-`)));
}
