import { extractHandles } from '../handles/extract.js';
import { shortSpanId } from '../model/span.js';
import type { HandleKind, Span, SpanOccurrence, WindowConfig } from '../types.js';

/**
 * Observation masking: the cheapest, lossless step before any summary. An old bulky tool
 * result leaves the window as a one-line stub naming its span id, its size and a few of its
 * handles verbatim; `recall` of the span id returns it verbatim. Nothing is written: which
 * results are masked is a pure function of the window's originals, its fixed part and the
 * policy, so a replay from the store masks exactly the same ones (invariant 10).
 *
 * Masking happens in steps, like a compaction: nothing changes while the context grows up to `fitTokens`; the
 * original that takes it over masks the oldest bulky results at once, down to `targetTokens` (the fill a compaction
 * leaves), and then nothing changes again until the next step. Between steps the rendered window only grows at its
 * end, so a provider's prompt cache keeps every message above the new ones.
 */
export interface MaskingPolicy {
  /** A masking step starts when the context goes over this many tokens (`compactAt × maxTokens`). */
  readonly fitTokens: number;
  /** A masking step masks down to this many tokens (`targetFill × maxTokens`), or as far as its candidates go. */
  readonly targetTokens: number;
  /** Smallest tool result (its rendered cost in tokens) that may be masked. */
  readonly minTokens: number;
  /** The most recent originals whose costs add up to at most this many tokens are never masked. */
  readonly protectRecentTokens: number;
  /**
   * A step is taken only when it can bring the context down to at most this many tokens; one that cannot masks
   * nothing, and the window compacts instead (see `maskingPolicy`). No limit (infinity) for shallow steps.
   */
  readonly stepFloorTokens: number;
  /**
   * Deep policies mask at compactions only (see {@link MASK_AT_COMPACTION}): the bulky results of the originals
   * appended before `maskBeforeSeq` (the active record's `atSeq`), older than the protected tail those originals
   * ended with, are masked, and nothing else; undefined for a policy that masks in steps.
   */
  readonly atCompaction?: { readonly maskBeforeSeq: number } | undefined;
}

/**
 * Least headroom (`compactAt − targetFill`, a share of the window) for which a masking step refills to `targetFill`.
 * With less (the small-window default leaves a tenth), the step masks only what brings the context under `compactAt`:
 * the few tokens of headroom a deeper step buys are not worth the tool results it hides (measured on the SWE-agent dev
 * data at 4,000 tokens: the in-window share 0.956 with deep steps, 0.966 without; the prefix reused turn to turn at
 * 8,000 moved by 0.005).
 */
export const MASK_STEP_MIN_HEADROOM = 0.2;

/**
 * Least share of the headroom a deep step must give back to be taken (`stepFloorTokens`); a step that cannot is not
 * taken and the window compacts instead, which refills it to `targetFill`. Such a step masks only the few results that
 * left the protected tail since the last one, buys a few turns and breaks the provider's prompt cache at the first of
 * them, and the next step follows soon. Measured on the dev data (issue 27; prefix reused turn to turn, compactions +
 * masking steps), every step taken -> half the headroom required -> the whole of it:
 * - 32,000 tokens (the default `targetFill` 0.5), Claude Code sessions: 0.938, 3 + 9 and 0.916, 3 + 14 -> 0.941, 4 + 4
 *   and 0.922, 4 + 5 -> 0.945, 7 + 0 and 0.928, 6 + 2. With half (and `STALE_HEADROOM_SHARE`) the SWE-agent session
 *   went 0.958, 92 + 39 -> 0.966, 99 + 0; the handles needed later in the window over every turn, Claude Code 0.880 ->
 *   0.895 (at the cuts 0.969 both), SWE-agent 0.998 both (at the cuts 2,791 -> 2,788 of 2,794).
 * - 8,000 tokens with `targetFill` 0.8 (deep steps too), Claude Code: 0.770, 25 + 34 and 0.763, 30 + 18 -> 0.790,
 *   29 + 20 and 0.760, 32 + 14 -> 0.769, 37 + 11 and 0.727, 37 + 6: requiring the whole headroom there mostly turned
 *   masking steps into compactions.
 */
export const MASK_STEP_MIN_RECOVERY = 0.5;

/**
 * Windows of at least this many tokens with a deep policy mask at compactions instead of in steps of their own (the
 * default large-window size, `LARGE_WINDOW_TOKENS` of src/session/config.ts). A compaction rewrites the prompt from its
 * compaction line on, so masking the kept turns' old bulky results then costs the prompt cache nothing more, and the
 * compaction keeps more turns (the planner counts those results as their stubs); between compactions nothing is masked
 * and the prompt only grows at its end. A masking step of its own rewrote the prompt from the first result it masked,
 * just after the ledger block, for less headroom than a compaction buys: on the 13 Claude Code sessions of `entire/` at
 * 32,000 tokens 44 such steps lost 1.4% of all prompt tokens to the cache, 56 compactions 1.5%.
 */
export const MASK_AT_COMPACTION_MIN_TOKENS = 16_000;

/**
 * Share of `maskProtectRecentTokens` a policy that masks at compactions protects. A compaction refills to `targetFill`
 * with the kept turns' older results as stubs, so a smaller protected tail keeps more turns of prose verbatim (where
 * the labels of facts are) and fewer results whole. Measured at 32,000 tokens (issue 37; quality-facts-real facts
 * bound, base 0.618 / quality-claude-code future-needed handles in the window at the cuts, base 0.966 / prefix reused
 * on `claude-code/`, arm 0.936): 1 -> 0.564 / 0.966 / 0.936; 0.95 -> 0.564 / 0.966; 0.875 -> 0.618 / 0.966 / 0.936;
 * 0.75 -> 0.636 / 0.955 / 0.938; 0.625 -> 0.636 / 0.938; 0.5 -> 0.618 / 0.914 / 0.937.
 */
export const MASK_AT_COMPACTION_PROTECT_SHARE = 0.875;

/**
 * The masking policy of a window configuration, or undefined when masking is off. A shallow step (headroom under
 * {@link MASK_STEP_MIN_HEADROOM}) masks what brings the context under `compactAt`; a deep one masks down to
 * `targetFill`, and only when it can give back at least {@link MASK_STEP_MIN_RECOVERY} of the headroom. A deep policy
 * of a window of {@link MASK_AT_COMPACTION_MIN_TOKENS} or more masks at compactions instead, cut at `maskBeforeSeq`
 * (the active record's `atSeq`; none: nothing is masked before the first compaction; a planner passes infinity).
 */
export function maskingPolicy(
  config: WindowConfig,
  maskBeforeSeq: number | undefined = undefined,
): MaskingPolicy | undefined {
  if (!config.maskToolResults) return undefined;
  const deep = config.compactAt - config.targetFill >= MASK_STEP_MIN_HEADROOM - 1e-9;
  const atCompaction = deep && config.maxTokens >= MASK_AT_COMPACTION_MIN_TOKENS;
  return {
    atCompaction: atCompaction ? { maskBeforeSeq: maskBeforeSeq ?? Number.NEGATIVE_INFINITY } : undefined,
    fitTokens: Math.floor(config.compactAt * config.maxTokens),
    targetTokens: Math.floor((deep ? config.targetFill : config.compactAt) * config.maxTokens),
    minTokens: config.maskMinTokens,
    protectRecentTokens: Math.floor(
      config.maskProtectRecentTokens * (atCompaction ? MASK_AT_COMPACTION_PROTECT_SHARE : 1),
    ),
    stepFloorTokens: deep
      ? Math.floor(
          (config.compactAt - MASK_STEP_MIN_RECOVERY * (config.compactAt - config.targetFill)) * config.maxTokens,
        )
      : Number.POSITIVE_INFINITY,
  };
}

/** Most handles a stub names. */
const STUB_HANDLES = 4;
/** Longest handle text a stub names, in characters. */
const STUB_HANDLE_CHARS = 60;
/** Kinds a stub prefers, most telling first; constraints are long sentences and stay out. */
const STUB_KIND_ORDER: readonly HandleKind[] = [
  'error',
  'path',
  'url',
  'endpoint',
  'identifier',
  'assignment',
  'version',
  'email',
  'date',
  'number',
];

/** The handles a stub names: a few distinct ones, first one of each of the most telling kinds, in order of appearance within a kind. */
export function stubHandles(text: string): string[] {
  const handles = extractHandles(text).filter(
    (handle) => handle.kind !== 'constraint' && handle.text.length <= STUB_HANDLE_CHARS && !handle.text.includes('\n'),
  );
  const chosen: string[] = [];
  for (const perKind of [1, STUB_HANDLES]) {
    for (const kind of STUB_KIND_ORDER) {
      let taken = 0;
      for (const handle of handles) {
        if (chosen.length >= STUB_HANDLES) return chosen;
        if (handle.kind !== kind) continue;
        if (!chosen.includes(handle.text)) chosen.push(handle.text);
        if (++taken >= perKind) break;
      }
    }
  }
  return chosen;
}

/**
 * Stubs of the frozen span objects masked lately. Module-level on purpose: keyed by the span object itself and kept
 * only for a frozen one, whose stub is a pure function of fields that cannot change (its id, text and token count;
 * a cache by id alone would give a span counted by another counter the first one's size); weak keys bound it to the
 * spans alive.
 */
const stubsOfSpans = new WeakMap<Span, string>();

/**
 * The stub text shown in place of a masked span (after the usual `[tool result id=…]` prefix):
 * its size, its top handles verbatim and how to get it back: its short span id (`shortSpanId`, which recall resolves;
 * the whole 64-digit id would cost some 30 tokens more per stub). A pure function of the span.
 */
export function maskStub(span: Span): string {
  const cached = stubsOfSpans.get(span);
  if (cached !== undefined) return cached;
  const handles = stubHandles(span.text);
  const named = handles.length > 0 ? `; top handles: ${handles.join(' | ')}` : '';
  const stub = `[masked: ${span.tokens} tokens of tool output${named}; recall "${shortSpanId(span.id)}" to read it verbatim]`;
  if (Object.isFrozen(span)) stubsOfSpans.set(span, stub);
  return stub;
}

/** What the masking choice needs to know about the window. */
export interface MaskingInput {
  /** The originals of the window, oldest first. */
  readonly originals: readonly SpanOccurrence[];
  /** Rendered cost of each original, unmasked. */
  readonly costs: readonly number[];
  /** Rendered cost of each original's stub (called only for candidates). */
  readonly stubCost: (index: number) => number;
  /** Tokens of everything before the originals (system prompt, ledger block). */
  readonly fixedTokens: number;
  readonly policy: MaskingPolicy;
}

/** Rendered cost of the whole message each original belongs to (the chunks of one message add up). */
function messageSizes(originals: readonly SpanOccurrence[], costs: readonly number[]): number[] {
  const sizes = new Array<number>(originals.length).fill(0);
  let start = 0;
  while (start < originals.length) {
    let end = start + 1;
    const first = originals[start];
    if (first?.chunk?.index === 0) {
      while (
        end < originals.length &&
        originals[end]?.chunk !== undefined &&
        (originals[end]?.chunk?.index ?? 0) > 0 &&
        originals[end]?.span.toolCallId === first.span.toolCallId
      )
        end++;
    }
    let size = 0;
    for (let index = start; index < end; index++) size += costs[index] ?? 0;
    for (let index = start; index < end; index++) sizes[index] = size;
    start = end;
  }
  return sizes;
}

/**
 * Which originals to mask (their indexes). The originals are taken oldest first, as they were appended; when one takes
 * the context over `fitTokens`, a masking step masks tool results (whole messages, all chunks together) of at least
 * `minTokens` that are older than the protected recent tail (which always holds that original), oldest first, until the
 * context is at most `targetTokens` or no candidate is left (the window then compacts, which refills it to the same
 * target). A step that could not bring the context down to `stepFloorTokens` masks nothing (the window compacts).
 * The choice for the first `k` originals never depends on the ones after them: between steps the window only grows at
 * its end, a result once masked stays masked until the next compaction, and the window does not flap.
 */
export function chooseMasked(input: MaskingInput): Set<number> {
  const { originals, costs, policy } = input;
  if (policy.atCompaction) return maskedAtCompaction(input, policy.atCompaction.maskBeforeSeq);
  const masked = new Set<number>();
  let total = input.fixedTokens;
  for (const cost of costs) total += cost;
  if (total <= policy.fitTokens) return masked;
  total = input.fixedTokens;
  const sizes = messageSizes(originals, costs);
  // Candidates older than the protected tail not masked yet, oldest first, with what masking each saves.
  const pending: { readonly index: number; readonly saving: number }[] = [];
  let head = 0;
  let scanned = 0;
  // What masking every pending candidate not masked yet would save.
  let pendingSaving = 0;
  let tailStart = 0;
  let tailTokens = 0;
  for (let index = 0; index < originals.length; index++) {
    const cost = costs[index] ?? 0;
    total += cost;
    tailTokens += cost;
    while (tailStart < index && tailTokens > policy.protectRecentTokens) tailTokens -= costs[tailStart++] ?? 0;
    if (total <= policy.fitTokens) continue;
    for (; scanned < tailStart; scanned++) {
      const saving = maskSaving(input, sizes, scanned);
      if (saving <= 0) continue;
      pending.push({ index: scanned, saving });
      pendingSaving += saving;
    }
    if (total - pendingSaving > policy.stepFloorTokens) continue;
    while (total > policy.targetTokens && head < pending.length) {
      const candidate = pending[head++] as { index: number; saving: number };
      masked.add(candidate.index);
      total -= candidate.saving;
      pendingSaving -= candidate.saving;
    }
  }
  return masked;
}

/** Tokens masking original `index` saves (0 when it is not a maskable tool result or its stub is no smaller). */
function maskSaving(input: MaskingInput, sizes: readonly number[], index: number): number {
  const occurrence = input.originals[index];
  if (occurrence?.span.kind !== 'tool-result' || (sizes[index] ?? 0) < input.policy.minTokens) return 0;
  const cost = input.costs[index] ?? 0;
  const stub = input.stubCost(index);
  return stub >= cost ? 0 : cost - stub;
}

/**
 * The originals masked under a policy that masks at compactions: every bulky tool result appended before
 * `maskBeforeSeq` and older than the protected tail of those originals (the most recent of them whose costs add up to
 * at most `protectRecentTokens`, always the last one). A pure function of the originals and the cut, so between two
 * compactions the render only grows at its end.
 */
function maskedAtCompaction(input: MaskingInput, maskBeforeSeq: number): Set<number> {
  const { originals, costs, policy } = input;
  const masked = new Set<number>();
  let end = 0;
  while (end < originals.length && (originals[end]?.seq ?? 0) < maskBeforeSeq) end++;
  let tailStart = end;
  let tailTokens = 0;
  while (tailStart > 0 && tailTokens + (costs[tailStart - 1] ?? 0) <= policy.protectRecentTokens)
    tailTokens += costs[--tailStart] ?? 0;
  // The tail always holds the last original before the cut.
  tailStart = Math.min(tailStart, end - 1);
  if (tailStart <= 0) return masked;
  const sizes = messageSizes(originals, costs);
  for (let index = 0; index < tailStart; index++) if (maskSaving(input, sizes, index) > 0) masked.add(index);
  return masked;
}
