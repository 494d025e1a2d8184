import { extractHandles } from '../handles/extract.js';
import { shortSpanId } from '../records/span.js';
import type { HandleKind, Span, SpanOccurrence, WindowConfig } from '../types.js';

/**
 * Observation masking: the cheapest, lossless step before any summary. An old bulky tool
 * result leaves the window as a one-line stub naming its span id, its size and a few of its
 * handles verbatim; `recall` of the span id returns it verbatim. Nothing is written: which
 * results are masked is a pure function of the window's originals, its fixed part and the
 * policy, so a replay from the store masks exactly the same ones (invariant 10).
 */
export interface MaskingPolicy {
  /** Mask until the context is at most this many tokens (`compactAt × maxTokens`). */
  readonly fitTokens: number;
  /** Smallest tool result (its rendered cost in tokens) that may be masked. */
  readonly minTokens: number;
  /** The most recent originals whose costs add up to at most this many tokens are never masked. */
  readonly protectRecentTokens: number;
}

/** The masking policy of a window configuration, or undefined when masking is off. */
export function maskingPolicy(config: WindowConfig): MaskingPolicy | undefined {
  if (!config.maskToolResults) return undefined;
  return {
    fitTokens: Math.floor(config.compactAt * config.maxTokens),
    minTokens: config.maskMinTokens,
    protectRecentTokens: config.maskProtectRecentTokens,
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

const stubCache = new Map<string, string>();

/**
 * The stub text shown in place of a masked span (after the usual `[tool result id=…]` prefix):
 * its size, its top handles verbatim and how to get it back: its short span id (`shortSpanId`, which recall resolves;
 * the whole 64-digit id would cost some 30 tokens more per stub). A pure function of the span.
 */
export function maskStub(span: Span): string {
  const cached = stubCache.get(span.id);
  if (cached !== undefined) return cached;
  const handles = stubHandles(span.text);
  const named = handles.length > 0 ? `; top handles: ${handles.join(' | ')}` : '';
  const stub = `[masked: ${span.tokens} tokens of tool output${named}; recall "${shortSpanId(span.id)}" to read it verbatim]`;
  if (stubCache.size > 5_000) stubCache.clear();
  stubCache.set(span.id, stub);
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
 * Which originals to mask (their indexes): tool results (whole messages, all chunks together) of at least `minTokens`, older than the
 * protected recent tail (which always holds the last original), oldest first, until the context fits `fitTokens` or no candidate is left.
 * Oldest first keeps the choice monotone between compactions: a result once masked stays masked
 * as turns are appended, so the window does not flap.
 */
export function chooseMasked(input: MaskingInput): Set<number> {
  const { originals, costs, policy } = input;
  const masked = new Set<number>();
  let total = input.fixedTokens;
  for (const cost of costs) total += cost;
  if (total <= policy.fitTokens) return masked;
  let tail = originals.length;
  let tailTokens = 0;
  while (tail > 0 && (tail === originals.length || tailTokens + (costs[tail - 1] ?? 0) <= policy.protectRecentTokens))
    tailTokens += costs[--tail] ?? 0;
  const sizes = messageSizes(originals, costs);
  for (let index = 0; index < tail && total > policy.fitTokens; index++) {
    const occurrence = originals[index];
    const cost = costs[index] ?? 0;
    if (occurrence?.span.kind !== 'tool-result' || (sizes[index] ?? 0) < policy.minTokens) continue;
    const stub = input.stubCost(index);
    if (stub >= cost) continue;
    masked.add(index);
    total -= cost - stub;
  }
  return masked;
}
