import { roleOf } from '../model/span.js';
import type { Handle, SpanOccurrence, WindowConfig } from '../types.js';
import { handleCost } from './guards.js';
import { GROUP_HEADER_TOKENS, INSTRUCTION_LINE_TOKENS, sectionOf } from '../handle-index/index-layout.js';
import { identityOf } from '../model/identities.js';
import { chooseMasked } from '../window/masking.js';
import type { MaskingPolicy } from '../window/masking.js';

/**
 * Indexes `i` (0 < i <= originals.length) where the window may be cut so that
 * originals[0..i) are compacted and originals[i..] kept, without separating a tool call
 * from its result or splitting the chunks of one message. `originals.length` (compact
 * everything) is always allowed.
 */
export function allowedBoundaries(originals: readonly SpanOccurrence[]): number[] {
  const open = new Set<string>();
  const allowed: number[] = [];
  originals.forEach((occurrence, index) => {
    if (index > 0 && open.size === 0 && (occurrence.chunk?.index ?? 0) === 0) allowed.push(index);
    const { span } = occurrence;
    if (roleOf(span.kind) === 'user') open.clear();
    else if (span.kind === 'tool-call' && span.toolCallId !== undefined) open.add(span.toolCallId);
    else if (span.kind === 'tool-result' && span.toolCallId !== undefined) {
      const last = occurrence.chunk === undefined || occurrence.chunk.index === occurrence.chunk.count - 1;
      if (last) open.delete(span.toolCallId);
    }
  });
  allowed.push(originals.length);
  return allowed;
}

/**
 * Choose how many of the oldest originals to compact: the fewest, at an allowed boundary,
 * that leave at most `keepTokens` of recent turns (per-message costs in `costs`).
 */
export function chooseBoundary(
  originals: readonly SpanOccurrence[],
  costs: readonly number[],
  keepTokens: number,
): number {
  const suffix: number[] = new Array<number>(originals.length + 1).fill(0);
  for (let index = originals.length - 1; index >= 0; index--)
    suffix[index] = (suffix[index + 1] ?? 0) + (costs[index] ?? 0);
  for (const boundary of allowedBoundaries(originals)) {
    if ((suffix[boundary] ?? 0) <= keepTokens) return boundary;
  }
  return originals.length;
}

/** Tokens of a last turn the index always leaves room for (see `planRefill`). */
const LAST_TURN_TOKENS = 600;

/**
 * Tokens of the headroom above the target an index that would spill may take in a window under 8,000 tokens (the
 * small-window default fill, `config.ts`): its plan may end that much over the target, never over `compactAt`. Rules
 * read in every phrasing pin about 70 more tokens of instructions in each SWE-agent block than at b7e8a23, and at 4,000
 * tokens all of them came out of the index (survival-swe-agent @4k gen 1 0.9842 -> 0.9806). Measured at 4,000 tokens:
 * survival-swe-agent gen 1 70 -> 0.9841, 80 -> 0.9842, 100 -> 0.9849; quality-swe-agent 0.9603 -> 0.9624 at 70 and 80,
 * 0.9592 at 100 (the recent turns it takes from start to hold needed handles).
 */
export const SMALL_WINDOW_INDEX_HEADROOM = 80;

/** Windows under this many tokens give a spilling index {@link SMALL_WINDOW_INDEX_HEADROOM}. */
const SMALL_WINDOW_TOKENS = 8_000;

/** Rendered tokens an index entry adds to its handle's text: the ` | ` between entries of a group's line. */
const ENTRY_SEPARATOR_TOKENS = 1;

/**
 * Rendered tokens a quoted constraint adds to its text: its label (`- [quoted tool output, not an instruction] `, 10 in
 * o200k once the last space joins the text's first word) and its line break; 10 to 12 over texts, 11 the usual.
 */
const CONSTRAINT_LINE_TOKENS = 11;

/** Rendered tokens of a group's label (`path: `), shown once per kind of handle in the index. */
const GROUP_LABEL_TOKENS = 3;

/**
 * Rendered tokens of one handle's entry: a pinned or quoted constraint is a line with its label; anything else, an
 * agent's statement too, is an entry of its group's line with a separator.
 */
export function shownTokens(handle: Handle): number {
  const section = sectionOf(handle);
  if (section === 'index') return handle.tokens + ENTRY_SEPARATOR_TOKENS;
  return handle.tokens + (section === 'instruction' ? INSTRUCTION_LINE_TOKENS : CONSTRAINT_LINE_TOKENS);
}

/**
 * The handles a compaction would carry, each identity once: what they cost in the placement's units (`handleCost`,
 * plus `GROUP_HEADER_TOKENS` for each kind's first) and as the index shows them (`shownTokens`, plus
 * `GROUP_LABEL_TOKENS` for each kind's first).
 */
class CarriedHandles {
  /** Identities added. */
  readonly seen = new Set<string>();
  private readonly kinds = new Set<string>();
  /** In `handleCost` units. */
  carried = 0;
  /** In rendered tokens. */
  shown = 0;

  add(handle: Handle): void {
    const identity = identityOf(handle);
    if (this.seen.has(identity)) return;
    this.seen.add(identity);
    const firstOfKind = !this.kinds.has(handle.kind);
    this.carried += handleCost(handle) + (firstOfKind ? GROUP_HEADER_TOKENS : 0);
    this.shown += shownTokens(handle) + (firstOfKind ? GROUP_LABEL_TOKENS : 0);
    this.kinds.add(handle.kind);
  }
}

/** What the planner expects the index of `handles` to take in the window, in rendered tokens (each identity once). */
export function shownIndexTokens(handles: readonly Handle[]): number {
  const carried = new CarriedHandles();
  for (const handle of handles) carried.add(handle);
  return carried.shown;
}

/** Where to cut for a compaction that refills the window to its target, and the handle budget to give it. */
export interface RefillPlan {
  /** How many of the oldest originals to compact. */
  readonly boundary: number;
  /** Handle budget for this compaction (the configured one, or more when it is adaptive and the region needs it). */
  readonly handleBudgetTokens: number;
  /** Tokens the context is expected to hold after the compaction. */
  readonly expectedTokens: number;
}

/** What `planRefill` needs. */
export interface RefillInput {
  /** The originals of the window, oldest first. */
  readonly originals: readonly SpanOccurrence[];
  /** Rendered cost of each original. */
  readonly costs: readonly number[];
  /** Handles found in the originals (any order; each with the seq of its span). */
  readonly regionHandles: readonly Handle[];
  /** Handles the summary now in the window shows (a new compaction carries them again). */
  readonly carriedHandles: readonly Handle[];
  /**
   * Handles an earlier compaction spilled to its checkpoint that the next one lets compete for the index again (the
   * ranking's lookback): they may take what room the chosen boundary leaves under the target, never more.
   */
  readonly returningHandles?: readonly Handle[] | undefined;
  /** Tokens of the system prompt plus the new ledger block without its summary and handles (an estimate). */
  readonly fixedTokens: number;
  /** Expected summary tokens (default: the whole summary budget). */
  readonly summaryTokens?: number | undefined;
  readonly config: WindowConfig;
  /**
   * The window's masking (undefined: off) and each original's cost as a masked stub: a boundary that keeps a
   * bulky tool result is judged by what the render shows, the result masked, not by its full size.
   */
  readonly masking?: { readonly policy: MaskingPolicy; readonly stubCost: (index: number) => number } | undefined;
}

/** Tokens the recent originals `[boundary, n)` take once the render has masked what it would, beside `fixed` tokens. */
function maskedKeptTokens(input: RefillInput, boundary: number, kept: number, fixed: number): number {
  const { masking } = input;
  if (masking === undefined) return kept;
  // Masking in steps masks nothing under `fitTokens`; masking at compactions masks what the policy's cut says.
  if (masking.policy.atCompaction === undefined && fixed + kept <= masking.policy.fitTokens) return kept;
  const costs = input.costs.slice(boundary);
  const masked = chooseMasked({
    originals: input.originals.slice(boundary),
    costs,
    stubCost: (index) => masking.stubCost(boundary + index),
    fixedTokens: fixed,
    policy: masking.policy,
  });
  let tokens = kept;
  for (const index of masked) tokens -= (costs[index] ?? 0) - masking.stubCost(boundary + index);
  return tokens;
}

/** The token amounts a refill plan is judged by, from the configuration and the fixed and summary estimates. */
interface RefillTargets {
  /** `targetFill × maxTokens`: the context the plan aims at. */
  readonly target: number;
  /** `compactAt × maxTokens`: a plan over it would compact again at the next turn. */
  readonly ceiling: number;
  /** The target less the fixed tokens. */
  readonly available: number;
  /** `minRecentShare × maxTokens`: what recent turns keep when an adaptive handle budget grows. */
  readonly minRecent: number;
  /** Expected summary tokens. */
  readonly summary: number;
  /** The boundary that keeps only the last turn, if any. */
  readonly lastTurn: number | undefined;
  /** What the boundary `lastTurn` reserves for it (see `planRefill`). */
  readonly lastTurnReserve: number;
}

function refillTargets(input: RefillInput, boundaries: readonly number[]): RefillTargets {
  const { config } = input;
  const target = Math.floor(config.targetFill * config.maxTokens);
  const minRecent = Math.floor(config.minRecentShare * config.maxTokens);
  return {
    target,
    ceiling: Math.floor(config.compactAt * config.maxTokens),
    available: target - input.fixedTokens,
    minRecent,
    summary: Math.min(config.summaryBudgetTokens, input.summaryTokens ?? config.summaryBudgetTokens),
    // The last turn (a message, or a tool call with its results) is what the model answers next: the boundary that
    // keeps just it reserves room for it, up to twice the recent share or `LAST_TURN_TOKENS`, whichever is more (at
    // most half the window), so a short answer to the model's last call is never compacted to make room for handles.
    lastTurn: boundaries.length > 1 ? boundaries[boundaries.length - 2] : undefined,
    lastTurnReserve: Math.max(2 * minRecent, Math.min(LAST_TURN_TOKENS, Math.floor(config.maxTokens / 2))),
  };
}

/**
 * The handle budget of a compaction at `boundary` keeping `kept` tokens of recent turns: the configured one, or, when
 * it is adaptive and the carried handles need more, what the target leaves after the summary and a recent reserve.
 */
function handleBudgetAt(
  input: RefillInput,
  targets: RefillTargets,
  boundary: number,
  kept: number,
  handles: CarriedHandles,
): number {
  const { config } = input;
  const { carried, shown } = handles;
  if (!config.adaptiveHandleBudget || carried <= config.handleBudgetTokens) return config.handleBudgetTokens;
  // Recent turns keep `minRecentShare`; when this boundary keeps fewer, the index may use the difference.
  const shownKept = maskedKeptTokens(input, boundary, kept, input.fixedTokens + targets.summary);
  const recentReserve = Math.min(
    boundary === targets.lastTurn ? targets.lastTurnReserve : targets.minRecent,
    shownKept,
  );
  // The budget is in `handleCost` units; the room is in rendered tokens (`shown` per `carried`).
  const headroom = config.maxTokens < SMALL_WINDOW_TOKENS ? SMALL_WINDOW_INDEX_HEADROOM : 0;
  const room = Math.floor(
    ((targets.available + headroom - targets.summary - recentReserve) * carried) / Math.max(1, shown),
  );
  return Math.max(config.handleBudgetTokens, Math.min(carried, room));
}

/**
 * Whether `plan` replaces `best`: it fits under the ceiling and is nearer the target (or `best` does not fit), unless
 * `best` keeps the last turn and fits (compacting the last turn too is never better).
 */
function isBetter(plan: RefillPlan, best: RefillPlan | undefined, targets: RefillTargets): boolean {
  if (best === undefined) return true;
  const { target, ceiling } = targets;
  const keepsLastTurn = best.boundary === targets.lastTurn && best.expectedTokens <= ceiling;
  const nearer = Math.abs(plan.expectedTokens - target) < Math.abs(best.expectedTokens - target);
  return !keepsLastTurn && plan.expectedTokens <= ceiling && (best.expectedTokens > ceiling || nearer);
}

/**
 * Choose the compaction boundary so that the context right after it holds about
 * `targetFill × maxTokens`: fixed part + summary (as long as the last one, or its budget) + the handle index (what the
 * carried handles need, up to the handle budget) + recent turns. What the summary or the
 * handles do not use goes to recent turns. An adaptive handle budget grows to what the
 * carried handles need while recent turns keep `minRecentShare` of `maxTokens`.
 * The boundary whose expected context is nearest the target wins, as long as it stays at or
 * under `compactAt × maxTokens` (so the next turn does not compact again at once); when no
 * boundary does, everything is compacted. Recent turns count as the render shows them: with masking on, an old bulky
 * tool result the render would mask costs its stub, so one large result does not force the cut far past it. An
 * explicit `keepRecentTokens` replaces the target:
 * the fewest originals are compacted that leave at most that many tokens of recent turns.
 */
export function planRefill(input: RefillInput): RefillPlan {
  const { originals, costs, config } = input;
  const suffix: number[] = new Array<number>(originals.length + 1).fill(0);
  for (let index = originals.length - 1; index >= 0; index--)
    suffix[index] = (suffix[index + 1] ?? 0) + (costs[index] ?? 0);
  const bySeq = [...input.regionHandles].sort((a, b) => a.seq - b.seq || a.start - b.start);
  const handles = new CarriedHandles();
  input.carriedHandles.forEach((handle) => handles.add(handle));
  let next = 0;
  let best: RefillPlan | undefined;
  let bestCounts = { carried: 0, shown: 0 };
  const boundaries = allowedBoundaries(originals);
  const targets = refillTargets(input, boundaries);
  for (const boundary of boundaries) {
    const firstKept = originals[boundary]?.seq ?? Number.POSITIVE_INFINITY;
    while (next < bySeq.length && (bySeq[next]?.seq ?? 0) < firstKept) handles.add(bySeq[next++] as Handle);
    const kept = suffix[boundary] ?? 0;
    const handleBudgetTokens = handleBudgetAt(input, targets, boundary, kept, handles);
    const { carried, shown } = handles;
    const handleTokens = carried === 0 ? 0 : Math.ceil((Math.min(carried, handleBudgetTokens) * shown) / carried);
    const block = input.fixedTokens + targets.summary + handleTokens;
    if (config.keepRecentTokens !== undefined) {
      best = { boundary, handleBudgetTokens, expectedTokens: block + kept };
      if (kept <= config.keepRecentTokens) return best;
      continue;
    }
    const plan = {
      boundary,
      handleBudgetTokens,
      expectedTokens: block + maskedKeptTokens(input, boundary, kept, block),
    };
    if (isBetter(plan, best, targets)) {
      best = plan;
      bestCounts = { carried, shown };
    }
    if (plan.expectedTokens <= targets.target) break;
  }
  if (best === undefined)
    return {
      boundary: originals.length,
      handleBudgetTokens: config.handleBudgetTokens,
      expectedTokens: input.fixedTokens,
    };
  return config.adaptiveHandleBudget && config.keepRecentTokens === undefined
    ? withReturning(best, bestCounts, input.returningHandles ?? [], handles.seen, targets.target)
    : best;
}

/**
 * Give the room `plan` leaves under `target` to spilled handles that compete again: the budget grows by what they
 * need (in `handleCost` units), at most by that room converted at their own rendered cost. The boundary stays.
 */
function withReturning(
  plan: RefillPlan,
  counts: { readonly carried: number; readonly shown: number },
  returning: readonly Handle[],
  seen: ReadonlySet<string>,
  target: number,
): RefillPlan {
  const room = target - plan.expectedTokens;
  if (room <= 0 || returning.length === 0) return plan;
  const identities = new Set<string>();
  let carried = 0;
  let shown = 0;
  for (const handle of returning) {
    const identity = identityOf(handle);
    if (seen.has(identity) || identities.has(identity)) continue;
    identities.add(identity);
    carried += handleCost(handle);
    shown += shownTokens(handle);
  }
  if (carried === 0) return plan;
  const extra = Math.min(carried, Math.floor((room * carried) / Math.max(1, shown)));
  const base = Math.min(counts.carried, plan.handleBudgetTokens);
  return {
    boundary: plan.boundary,
    handleBudgetTokens: Math.max(plan.handleBudgetTokens, base + extra),
    expectedTokens: plan.expectedTokens + Math.ceil((extra * shown) / carried),
  };
}
