import { ContextBudgetError } from '../errors.js';
import { verifySpan } from '../model/span.js';
import { fitSummary } from '../summarizers/sections.js';
import type { SourceUnit } from '../summarizers/summarizer.js';
import type { Finding } from '../types.js';
import { checkCarriedHandles, fitHandleBudget } from './guards.js';
import { checkStoredInstructions } from './pinned-check.js';
import { mergeHandles } from '../handles/handle-sets.js';
import { identityOf } from '../model/identities.js';
import { RankHistory } from '../ranking/rank-history.js';
import { verifySummary } from './verify.js';
import { ancestorUnits, originalUnit } from './ancestor-units.js';
import type { CompactionInput, CompactionOutput } from './compaction-input.js';
import { droppedRangeOf, supersededValues, writeCompaction } from './compaction-records.js';
import { rankAndFit } from './rank-and-fit.js';
import type { Gathered } from './rank-and-fit.js';

export type { CompactionInput, CompactionOutput } from './compaction-input.js';

/**
 * Gather what the compaction works from: the region's handles, the absorbed summary re-derived from its stored
 * originals when it must be, the units to summarize, and the handles carried (pinned instructions re-checked
 * against their spans: a row that no longer matches is not carried, and the record says so).
 */
async function gather(
  input: CompactionInput,
  overDepth: boolean,
): Promise<{ gathered: Gathered; units: SourceUnit[]; findings: Finding[] }> {
  const { store, sessionId, active, region } = input;
  const history = input.history ?? new RankHistory(store, sessionId);
  const regionHandles = await history.handles(region[0]?.seq ?? 0, region[region.length - 1]?.seq ?? 0);
  const ancestorHandles = active ? [...active.handles] : [];
  const fromAncestor = active
    ? await ancestorUnits(input, active, overDepth || !active.reversible)
    : { units: [], originals: [], handles: [] };
  const units: SourceUnit[] = [...fromAncestor.units, ...region.map(originalUnit)];
  const checked = await checkStoredInstructions(
    store,
    sessionId,
    mergeHandles(ancestorHandles, fromAncestor.handles, regionHandles),
  );
  const carried = checked.kept;
  if (active) checkCarriedHandles(active, ancestorHandles, carried, { sessionId });
  return {
    gathered: { history, regionHandles, ancestorHandles, fromAncestor, carried },
    units,
    findings: checked.findings,
  };
}

/**
 * Compact `region` (plus the summary already in the window) into a new record, in phases: gather, summarize,
 * rank and fit the handle index, judge reversibility, write. Every handle of the region and of the ancestor ends up
 * in the record or in its spill checkpoint; nothing is truncated.
 */
export async function compactRegion(input: CompactionInput): Promise<CompactionOutput> {
  const { sessionId, config, counter, active, region } = input;
  const first = region[0];
  const last = region[region.length - 1];
  if (first === undefined || last === undefined) {
    throw new ContextBudgetError(
      `Session ${sessionId}: nothing left to compact, yet the context does not fit ${config.maxTokens} tokens. Raise maxTokens.`,
      { sessionId },
    );
  }
  const overDepth = active !== undefined && active.type !== 'external' && active.depth + 1 > config.maxDepth;
  const { gathered, units, findings: checkedFindings } = await gather(input, overDepth);
  const { carried, fromAncestor } = gathered;
  if (config.onHandleOverflow === 'throw')
    fitHandleBudget(carried, config.handleBudgetTokens, 'throw', { sessionId }, { ranked: carried });

  const result = await input.summarizer.summarize({
    sessionId,
    units,
    budgetTokens: config.summaryBudgetTokens,
    handles: carried,
    counter,
  });
  const fitted = fitSummary(result.summary, result.claims, config.summaryBudgetTokens, counter);
  const {
    kept,
    spilled,
    findings: returningFindings,
    placement,
    replacedBy,
  } = await rankAndFit(input, gathered, fitted.summary);
  const findings: Finding[] = [
    ...verifySummary(
      fitted,
      units,
      carried,
      fromAncestor.originals.map((span) => ({ id: span.id, text: span.text })),
      input.tokenMemo,
    ),
    ...checkedFindings,
    ...returningFindings,
  ];
  const rederived = active !== undefined && (overDepth || !active.reversible || active.type === 'external');
  // A record re-derived from stored originals compacts those originals, not the ancestor's prose,
  // so it does not inherit the ancestor's lossiness (invariant 5); only a lossy ancestor whose
  // prose was summarized again, or whose originals no longer verify, makes this record lossy.
  const fromIntactOriginals = rederived && fromAncestor.originals.every(verifySpan);
  if (active && !active.reversible && !fromIntactOriginals)
    findings.push({
      code: 'lossy-ancestor',
      message: `compacts lossy record ${active.id} without intact stored originals`,
    });
  const allVerified = region.every((occurrence) => verifySpan(occurrence.span));
  const accounted = new Set([...kept, ...spilled].map(identityOf));
  const allHandlesCarried = gathered.regionHandles.every((handle) => accounted.has(identityOf(handle)));
  const reversible = findings.length === 0 && allVerified && allHandlesCarried;
  const superseded = supersededValues(spilled, replacedBy);
  const outcome = { summary: fitted, kept, spilled, findings, reversible, rederived, superseded };
  return { ...(await writeCompaction(input, outcome, droppedRangeOf(active, first, last))), placement };
}
