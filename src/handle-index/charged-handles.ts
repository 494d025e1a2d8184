import type { Handle } from '../types.js';
import { gramKey } from './gram-key.js';
import { GramTable } from './gram-table.js';
import { shownInside } from './index-layout.js';
import { mayStartAt } from './near-duplicates.js';

/** Length of the text prefix the kept handles are indexed by (shorter texts are never inside another). */
const PREFIX = 4;

/**
 * The kept handles charged for their own index line, and what placing a longer handle gives
 * back: the charged handles verbatim inside it (`shownInside`). Indexed by their first
 * characters (their `gramKey`), so a placement looks only at handles whose start occurs in its
 * text (and a few whose key it shares), not at every kept one.
 */
export class ChargedHandles {
  /** Index (into `prefixed`) of each charged handle long enough to be inside another (shorter ones never are). */
  private readonly indexes = new Map<Handle, number>();
  /** Indexes (into `prefixed`) of the charged handles, by the key of their first characters. */
  private readonly byPrefix = new GramTable();
  private readonly prefixed: Handle[] = [];
  /** Per handle of `prefixed`: the tokens it is charged. */
  private readonly costs: number[] = [];
  /** Per handle of `prefixed`: the number of the last refund that looked at it (each is looked at once per refund). */
  private readonly looked: number[] = [];
  private refunds = 0;

  /** Charge `handle` `cost` tokens (0: it is no longer listed on its own). */
  set(handle: Handle, cost: number): void {
    // A text shorter than a prefix is never verbatim inside another (`shownInside`): its charge is never given back.
    if (handle.text.length < PREFIX) return;
    const known = this.indexes.get(handle);
    if (known !== undefined) {
      this.costs[known] = cost;
      return;
    }
    this.indexes.set(handle, this.prefixed.length);
    this.byPrefix.add(gramKey(handle.text, 0), this.prefixed.length);
    this.prefixed.push(handle);
    this.costs.push(cost);
    this.looked.push(0);
  }

  /**
   * What placing `handle` gives back: the charged handles verbatim inside its text, and their tokens. A charged
   * handle is looked at where its text starts in `handle`'s (found by its first characters' key), once.
   */
  refund(handle: Handle): { tokens: number; handles: Handle[] } {
    const handles: Handle[] = [];
    let tokens = 0;
    const { text } = handle;
    const { byPrefix, looked, costs, prefixed } = this;
    const refund = ++this.refunds;
    for (let at = 0; at + PREFIX <= text.length; at++) {
      // A handle starting inside a word here is not on a word boundary here (`containsAtBoundary`): if it is inside
      // the text on boundaries, it starts at another place too, one that is looked at.
      if (!mayStartAt(text, at)) continue;
      const prefix = gramKey(text, at);
      for (let entry = byPrefix.first(prefix); entry >= 0; entry = byPrefix.following(entry, prefix)) {
        const index = byPrefix.value(entry);
        if (looked[index] === refund) continue;
        const inside = prefixed[index] as Handle;
        const needle = inside.text;
        if (needle.length >= text.length || !text.startsWith(needle, at)) continue;
        looked[index] = refund;
        const cost = costs[index] ?? 0;
        if (cost > 0 && shownInside(inside, [text])) {
          handles.push(inside);
          tokens += cost;
        }
      }
    }
    return { tokens, handles };
  }
}
