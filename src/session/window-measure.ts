/**
 * How a session measures its window between renders: the tokens `peek()` would count without building the context
 * (the system prompt and ledger block counted once per record count, each original's cost kept as it is appended,
 * the masking choice made on those costs), the cost of an original shown as its masked stub, and the frame of the
 * next ledger block. It owns the session's `WindowMemo`, which every render of the session goes through.
 */
import type { TokenCounter } from '../tokens/token-counter.js';
import type { SpanOccurrence } from '../types.js';
import { frameTokens } from '../window/frame-estimate.js';
import type { NextFrame } from '../window/frame-estimate.js';
import type { MaskingPolicy } from '../window/masking.js';
import { originalCost, originalsShown, renderWindow, stubCost } from '../window/window.js';
import type { RenderedContext, WindowState } from '../window/window.js';
import { WindowMemo } from '../window/window-memo.js';

export class WindowMeasure {
  /** Counts and layouts the session's renders remember. */
  readonly memo = new WindowMemo();
  /** Tokens of the window without originals, for the record count it was computed at (see `fixedTokens`). */
  private withoutOriginals:
    { readonly records: number; readonly tokens: number; readonly maskBeforeSeq: number | undefined } | undefined;
  /** Unmasked cost of each original of the `originals` array it was computed for (see `originalCosts`). */
  private costs: { readonly originals: readonly SpanOccurrence[]; readonly costs: number[] } | undefined;

  constructor(private readonly counter: TokenCounter) {}

  /** The context of `state`, as `renderWindow` renders it. */
  render(state: WindowState): RenderedContext {
    return renderWindow(state, this.counter, this.memo);
  }

  /**
   * Tokens of the window without its originals (system prompt and ledger block): counted again only when the
   * session's record count is not the one last counted at (`state` is asked for then).
   */
  fixedTokens(recordCount: number, state: () => WindowState): number {
    return this.withoutOriginalsAt(recordCount, state).tokens;
  }

  private withoutOriginalsAt(recordCount: number, state: () => WindowState) {
    if (this.withoutOriginals?.records !== recordCount) {
      const now = state();
      const { tokens } = this.render({ ...now, originals: [] });
      this.withoutOriginals = { records: recordCount, tokens, maskBeforeSeq: now.active?.atSeq };
    }
    return this.withoutOriginals;
  }

  /** The tokens `render(state())` would count, without building the context. */
  windowTokens(
    recordCount: number,
    state: () => WindowState,
    originals: readonly SpanOccurrence[],
    masking: MaskingPolicy | undefined,
  ): number {
    const { tokens: fixedTokens, maskBeforeSeq } = this.withoutOriginalsAt(recordCount, state);
    // Masking at compactions cuts at the active record's seq, as `windowStateOf` gives it to a render.
    const policy: MaskingPolicy | undefined =
      masking?.atCompaction === undefined
        ? masking
        : { ...masking, atCompaction: { maskBeforeSeq: maskBeforeSeq ?? Number.NEGATIVE_INFINITY } };
    const costs = this.originalCosts(originals);
    const shown = originalsShown(
      { originals, masking: policy },
      { costs, fixedTokens },
      this.counter,
      this.memo.textTokens,
    );
    return fixedTokens + shown.tokens;
  }

  /**
   * Each original's unmasked cost, kept as originals are appended to the same array (counted again when the
   * session replaces the array).
   */
  originalCosts(originals: readonly SpanOccurrence[]): readonly number[] {
    let known = this.costs;
    if (known?.originals !== originals || known.costs.length > originals.length) {
      known = { originals, costs: [] };
      this.costs = known;
    }
    for (let index = known.costs.length; index < originals.length; index++)
      known.costs.push(originalCost(originals[index] as SpanOccurrence, this.counter, this.memo.textTokens));
    return known.costs;
  }

  /** Tokens of an original shown as its masked stub. */
  stubCost(occurrence: SpanOccurrence): number {
    return stubCost(occurrence, this.counter, this.memo.textTokens);
  }

  /** Tokens of the frame of the next ledger block (see `frameTokens`). */
  frameTokens(frame: NextFrame): number {
    return frameTokens(frame, this.counter, this.memo);
  }
}
