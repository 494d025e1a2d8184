import { HandleBudgetExceededError, InvalidInputError, LossyRecompactionError } from '../errors.js';
import { handleIdentity } from '../handles/handle-sets.js';
import type { CompactionRecord, Handle } from '../types.js';
import {
  entryCost,
  type PlacedCheck,
  GROUP_HEADER_TOKENS,
  groupLabel,
  type Placement,
  sectionOf,
  shownInside,
  SIMILAR_NOTE_TOKENS,
} from '../handle-index/index-layout.js';
import { collapseKey } from '../handle-index/near-duplicates.js';
import { LongTextPieces, ShownTexts } from '../handle-index/shown-texts.js';
import { ChargedHandles } from '../handle-index/charged-handles.js';
import { rankHandles } from '../ranking/rank-handles.js';

/** Token cost of showing one handle: its text plus a separator, or a labelled line for a pinned or quoted constraint. */
export function handleCost(handle: Handle): number {
  return entryCost(handle);
}

/** Token cost of showing a handle set in the index (near-identical lines once, handles inside longer ones free). */
export function handleSetCost(handles: readonly Handle[], visibleText = ''): number {
  return placeHandles(handles, Number.POSITIVE_INFINITY, visibleText).used;
}

/** A constraint said by the user or system: pinned, and ranked before every other handle. */
export function isInstruction(handle: Handle): boolean {
  return handle.kind === 'constraint' && (handle.role === 'user' || handle.role === 'system');
}

/** Options of `fitHandleBudget`. */
export interface FitHandleOptions {
  /** The handles in rank order, most useful first (default: `rankHandles` over the handles alone). */
  readonly ranked?: readonly Handle[] | undefined;
  /** Text shown beside the index (the summary): an index handle verbatim inside it costs nothing. */
  readonly visibleText?: string | undefined;
}

/** Share of the handle budget quoted tool constraints may take ahead of ordinary handles. */
export const QUOTED_CONSTRAINT_SHARE = 0.1;

/**
 * The placement order: instructions; then quoted tool constraints, in rank order, up to
 * `QUOTED_CONSTRAINT_SHARE` of the budget (so a page that plants an instruction is shown, as
 * quoted output, but a dump full of "must not" sentences cannot fill the index); then the rest
 * in rank order.
 */
function placementOrder(ranked: readonly Handle[], budgetTokens: number): readonly Handle[] {
  // Without constraints the order is the rank order (a pass over a whole lookback, not a copy of it).
  if (!ranked.some((handle) => handle.kind === 'constraint')) return ranked;
  // One pass: a handle's membership of the quoted share is decided at its first place in `ranked`.
  const instructions: Handle[] = [];
  const quotedFirst = new Set<Handle>();
  const rest: Handle[] = [];
  let quotedCost = 0;
  let quotedFull = false;
  for (const handle of ranked) {
    if (isInstruction(handle)) {
      instructions.push(handle);
      continue;
    }
    if (!quotedFull && handle.kind === 'constraint' && sectionOf(handle) === 'quoted') {
      if (quotedCost + entryCost(handle) > budgetTokens * QUOTED_CONSTRAINT_SHARE) quotedFull = true;
      else {
        quotedCost += entryCost(handle);
        quotedFirst.add(handle);
        continue;
      }
    }
    if (!quotedFirst.has(handle)) rest.push(handle);
  }
  return [...instructions, ...quotedFirst, ...rest];
}

/**
 * The cost of listing every handle of `order` (in placement order), near-identical copies once but a handle inside
 * another charged too: an upper bound of what `placeHandles` uses without a budget, in linear time.
 */
function costOfAll(order: readonly Handle[]): number {
  const collapsed = new Map<string, number>();
  const labels = new Set<string>();
  let used = 0;
  for (const handle of order) {
    const key = collapseKey(handle);
    const copies = key === undefined ? undefined : collapsed.get(key);
    if (key !== undefined && copies !== undefined) {
      // Near-identical to a listed handle: the first copy adds the note, the others nothing.
      used += copies === 0 ? SIMILAR_NOTE_TOKENS : 0;
      collapsed.set(key, copies + 1);
      continue;
    }
    const label = sectionOf(handle) === 'index' ? groupLabel(handle) : sectionOf(handle);
    used += entryCost(handle) + (labels.has(label) ? 0 : GROUP_HEADER_TOKENS);
    labels.add(label);
    if (key !== undefined) collapsed.set(key, 0);
  }
  return used;
}

/** What placing a handle gives back when nothing is inside it. */
const NO_REFUND: { readonly tokens: number; readonly handles: readonly Handle[] } = { tokens: 0, handles: [] };

/** After this many handles in a row that do not fit, the placement stops: the rest spills. */
const MAX_CONSECUTIVE_REJECTIONS = 200;

/**
 * Greedy placement in placement order: what fits, at what cost (a handle verbatim inside the summary or inside a
 * longer kept handle costs nothing).
 */
function placeHandles(
  ranked: readonly Handle[],
  budgetTokens: number,
  visibleText: string,
): { kept: Handle[]; used: number; shown: ShownTexts; checks: Map<Handle, PlacedCheck> } {
  const order = placementOrder(ranked, budgetTokens);
  // The summary's piece starts are found once for both lists.
  const pieces = new LongTextPieces();
  const kept: Handle[] = [];
  const keptTexts = new ShownTexts(visibleText.length > 0 ? [visibleText] : [], pieces);
  const visibleOnly = new ShownTexts(visibleText.length > 0 ? [visibleText] : [], pieces);
  const charged = new ChargedHandles();
  const collapsed = new Map<string, number>();
  const labels = new Set<string>();
  // What the containment check found for each kept handle it was asked for (the layout of these handles reuses it).
  const checks = new Map<Handle, PlacedCheck>();
  let used = 0;
  let rejected = 0;
  for (const handle of order) {
    // Once the budget is (nearly) full, only handles that cost nothing can still be kept; the
    // search for them stays cheap (near-identical copies, the summary), so the work is bounded.
    const full = budgetTokens - used < 3 || rejected >= MAX_CONSECUTIVE_REJECTIONS;
    const key = collapseKey(handle);
    const copies = key === undefined ? undefined : collapsed.get(key);
    let cost: number;
    let label: string | undefined;
    let check: PlacedCheck | undefined;
    if (key !== undefined && copies !== undefined) cost = copies === 0 ? SIMILAR_NOTE_TOKENS : 0;
    else if (key === undefined && shownInside(handle, full ? visibleOnly : keptTexts)) {
      // Inside the summary or a kept text: inside the texts of the final layout too (texts are only added).
      check = true;
      cost = 0;
    } else if (full) continue;
    else {
      label = sectionOf(handle) === 'index' ? groupLabel(handle) : sectionOf(handle);
      cost = entryCost(handle) + (labels.has(label) ? 0 : GROUP_HEADER_TOKENS);
    }
    // A kept handle verbatim inside this one is no longer listed on its own: its cost comes back.
    const refund = !full && copies === undefined ? charged.refund(handle) : NO_REFUND;
    if (used + cost - refund.tokens > budgetTokens) {
      rejected++;
      continue;
    }
    rejected = 0;
    // Not full, so not inside any text shown so far: the layout searches only the texts added from here on.
    if (key === undefined) checks.set(handle, check ?? keptTexts.mark());
    for (const inside of refund.handles) charged.set(inside, 0);
    used += cost - refund.tokens;
    kept.push(handle);
    if (key === undefined && label !== undefined) charged.set(handle, entryCost(handle));
    if (label !== undefined) labels.add(label);
    if (key !== undefined) collapsed.set(key, copies === undefined ? 0 : copies + 1);
    if (copies === undefined) keptTexts.add(handle.text);
  }
  return { kept, used, shown: keptTexts, checks };
}

/**
 * Split a handle set into what stays in the window and what spills, within `budgetTokens`.
 * Constraints the user or system gave come first, then quoted tool constraints up to a tenth
 * of the budget; every other handle follows in rank order (`rankHandles`: evidence of future
 * use — mentions, recency, the agent's and the user's use, what the session changed).
 * The top-ranked handles that fit are kept (near-identical lines cost one entry; a handle
 * verbatim inside the summary or a longer kept handle costs nothing); the rest spills.
 * When even the user's constraints do not all fit, the lowest-ranked of them spill too (the
 * window says how many, and recalling the checkpoint lists them). With `onOverflow: 'throw'`
 * an overflow raises HandleBudgetExceededError instead; nothing is ever silently dropped:
 * `kept` and `spilled` together are exactly the input, both in rank order.
 */
export function fitHandleBudget(
  handles: readonly Handle[],
  budgetTokens: number,
  onOverflow: 'spill' | 'throw',
  context: { sessionId: string },
  options: FitHandleOptions = {},
): { kept: Handle[]; spilled: Handle[]; placement?: Placement | undefined } {
  const visibleText = options.visibleText ?? '';
  const ranked =
    options.ranked ??
    rankHandles(handles, {
      occurrences: handles,
      spans: new Map(),
      fromSeq: minSeq(handles),
      toSeq: maxSeq(handles),
    }).map((entry) => entry.handle);
  if (ranked.length !== handles.length) {
    throw new InvalidInputError(
      `Session ${context.sessionId}: the ranked order holds ${ranked.length} handles but the handle set ${handles.length}; ` +
        'rank the same handles that are fitted.',
      {
        sessionId: context.sessionId,
      },
    );
  }
  // Everything, in placement order, at a cost that is an upper bound: when it fits, no placement is needed.
  const order = placementOrder(ranked, Number.POSITIVE_INFINITY);
  const all = { kept: order, used: costOfAll(order) };
  const placed = all.used <= budgetTokens ? undefined : placeHandles(ranked, budgetTokens, visibleText);
  const { kept } = placed ?? all;
  if (kept.length < handles.length && onOverflow === 'throw') {
    throw new HandleBudgetExceededError(
      `Session ${context.sessionId}: ${handles.length} handles need up to ${all.used} tokens, over the handle budget of ${budgetTokens}. ` +
        'Nothing was compacted. Raise handleBudgetTokens, ' +
        'or set onHandleOverflow to "spill" to move the overflow to an addressable checkpoint.',
      { sessionId: context.sessionId, handles: handles.length, tokens: all.used, budgetTokens },
    );
  }
  const keptSet = new Set(kept);
  const result = {
    kept: all.kept.filter((handle) => keptSet.has(handle)),
    spilled: all.kept.filter((handle) => !keptSet.has(handle)),
  };
  // The placement that checked containment holds the texts the layout of these handles searches (the summary and
  // each kept handle but near-identical copies) when it kept them in this order: the caller hands it to the layout.
  if (placed !== undefined && result.kept.every((handle, index) => placed.kept[index] === handle))
    return { ...result, placement: { summary: visibleText, texts: placed.shown, checks: placed.checks } };
  return result;
}

function minSeq(handles: readonly Handle[]): number {
  return handles.reduce((low, handle) => Math.min(low, handle.seq), Number.POSITIVE_INFINITY);
}

function maxSeq(handles: readonly Handle[]): number {
  return handles.reduce((high, handle) => Math.max(high, handle.seq), Number.NEGATIVE_INFINITY);
}

/**
 * Cascade guard: a lossy ancestor may be re-compacted only when its whole handle set is
 * carried forward (in the new record or its checkpoint). Throws LossyRecompactionError.
 */
export function checkCarriedHandles(
  ancestor: CompactionRecord,
  ancestorHandles: readonly Handle[],
  carried: readonly Handle[],
  context: { sessionId: string },
): void {
  if (ancestor.reversible) return;
  const present = new Set(carried.map(handleIdentity));
  const missing = ancestorHandles.filter((handle) => !present.has(handleIdentity(handle)));
  if (missing.length > 0) {
    throw new LossyRecompactionError(
      `Session ${context.sessionId}: re-compacting lossy record ${ancestor.id} (depth ${ancestor.depth}) ` +
        `would drop ${missing.length} of its handles, e.g. ${JSON.stringify(missing[0]?.text)}. ` +
        'Depth-2 lossy compaction without handle propagation is prohibited: ' +
        'carry the ancestor handle set forward, or re-read the dropped range from the store.',
      {
        sessionId: context.sessionId,
        recordId: ancestor.id,
        missing: missing.map((handle) => handle.text),
      },
    );
  }
}
