import type { Handle } from '../types.js';
import { gramKey, wideGramKey } from './gram-key.js';
import { GramTable } from './gram-table.js';
import { shownInside } from './index-layout.js';
import { mayStartAt } from './near-duplicates.js';

/** Length of the text prefix the kept handles are indexed by (shorter texts are never inside another). */
const PREFIX = 4;

/** Length of the wider prefix the kept handles at least that long are indexed by instead. */
const WIDE_PREFIX = 8;

/** The value `byPrefix` holds under the first 4 characters of charged handles of 8 characters or more. */
const WIDE = -1;

/** What one refund found: the charged handles inside the placed text, and their tokens. */
interface Found {
  tokens: number;
  readonly handles: Handle[];
}

/**
 * The kept handles charged for their own index line, and what placing a longer handle gives
 * back: the charged handles verbatim inside it (`shownInside`). Indexed by their first
 * characters (the `gramKey` of their first 4, and the `wideGramKey` of their first 8 for those that long), so a
 * placement looks only at handles whose start occurs in its text (and a few whose key it shares), not at every kept
 * one, nor at every kept one that starts like most of them do (a host inventory's `node-…`).
 */
export class ChargedHandles {
  /** Index (into `prefixed`) of each charged handle long enough to be inside another (shorter ones never are). */
  private readonly indexes = new Map<Handle, number>();
  /**
   * Indexes (into `prefixed`) of the charged handles under 8 characters, by the key of their first 4; and under the
   * key of the first 4 of those of 8 characters or more, once, {@link WIDE}: look them up by their first 8.
   */
  private readonly byPrefix = new GramTable();
  /** The keys of the first 4 characters `byPrefix` holds {@link WIDE} under. */
  private readonly wideHeads = new Set<number>();
  /** Indexes (into `prefixed`) of the charged handles of 8 characters or more, by the key of their first 8. */
  private readonly byWidePrefix = new GramTable();
  private readonly prefixed: Handle[] = [];
  /** Per handle of `prefixed`: the tokens it is charged. */
  private readonly costs: number[] = [];
  /** Per handle of `prefixed`: the number of the last refund that looked at it (each is looked at once per refund). */
  private readonly looked: number[] = [];
  private refunds = 0;

  /** Charge `handle` `cost` tokens (0: it is no longer listed on its own). */
  set(handle: Handle, cost: number): void {
    // A text shorter than a prefix is never verbatim inside another (`shownInside`): its charge is never given back.
    const { text } = handle;
    if (text.length < PREFIX) return;
    const known = this.indexes.get(handle);
    if (known !== undefined) {
      this.costs[known] = cost;
      return;
    }
    const index = this.prefixed.length;
    this.indexes.set(handle, index);
    if (text.length < WIDE_PREFIX) this.byPrefix.add(gramKey(text, 0), index);
    else {
      const head = gramKey(text, 0);
      if (!this.wideHeads.has(head)) {
        this.wideHeads.add(head);
        this.byPrefix.add(head, WIDE);
      }
      this.byWidePrefix.add(wideGramKey(text, 0), index);
    }
    this.prefixed.push(handle);
    this.costs.push(cost);
    this.looked.push(0);
  }

  /**
   * What placing `handle` gives back: the charged handles verbatim inside its text, and their tokens. A charged
   * handle is looked at where its text starts in `handle`'s (found by its first characters' key), once.
   */
  refund(handle: Handle): { tokens: number; handles: Handle[] } {
    const found: Found = { tokens: 0, handles: [] };
    const { text } = handle;
    const refund = ++this.refunds;
    for (let at = 0; at + PREFIX <= text.length; at++) {
      // A handle starting inside a word here is not on a word boundary here (`containsAtBoundary`): if it is inside
      // the text on boundaries, it starts at another place too, one that is looked at.
      if (!mayStartAt(text, at)) continue;
      const head = gramKey(text, at);
      // Most places start no charged handle: nothing to look at there.
      if (this.byPrefix.first(head) < 0) continue;
      const wide = this.lookAt(this.byPrefix, head, text, at, refund, found);
      // A charged handle of 8 characters or more starting here starts with these 4, and ends where the text does or
      // before.
      if (wide && at + WIDE_PREFIX <= text.length)
        this.lookAt(this.byWidePrefix, wideGramKey(text, at), text, at, refund, found);
    }
    return found;
  }

  /**
   * Look at the charged handles under `key` in `table` that this refund has not looked at and that start at `at`.
   * Whether the table holds {@link WIDE} under the key (handles of 8 characters or more may start there too).
   */
  private lookAt(table: GramTable, key: number, text: string, at: number, refund: number, found: Found): boolean {
    const { looked, costs, prefixed } = this;
    let wide = false;
    for (let entry = table.first(key); entry >= 0; entry = table.following(entry, key)) {
      const index = table.value(entry);
      if (index === WIDE) {
        wide = true;
        continue;
      }
      if (looked[index] === refund) continue;
      const inside = prefixed[index] as Handle;
      const needle = inside.text;
      if (needle.length >= text.length || !text.startsWith(needle, at)) continue;
      looked[index] = refund;
      const cost = costs[index] ?? 0;
      if (cost > 0 && shownInside(inside, [text])) {
        found.handles.push(inside);
        found.tokens += cost;
      }
    }
    return wide;
  }
}
