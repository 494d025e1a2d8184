import type { Handle } from '../types.js';
import { gramKey } from './gram-key.js';
import { shownInside } from './index-layout.js';

/** Length of the text prefix the kept handles are indexed by (shorter texts are never inside another). */
const PREFIX = 4;

/**
 * The kept handles charged for their own index line, and what placing a longer handle gives
 * back: the charged handles verbatim inside it (`shownInside`). Indexed by their first
 * characters (their `gramKey`), so a placement looks only at handles whose start occurs in its
 * text (and a few whose key it shares), not at every kept one.
 */
export class ChargedHandles {
  private readonly costs = new Map<Handle, number>();
  private readonly byPrefix = new Map<number, Handle[]>();

  /** Charge `handle` `cost` tokens (0: it is no longer listed on its own). */
  set(handle: Handle, cost: number): void {
    if (!this.costs.has(handle) && handle.text.length >= PREFIX) {
      const prefix = gramKey(handle.text, 0);
      const list = this.byPrefix.get(prefix);
      if (list) list.push(handle);
      else this.byPrefix.set(prefix, [handle]);
    }
    this.costs.set(handle, cost);
  }

  /** What placing `handle` gives back: the charged handles verbatim inside its text, and their tokens. */
  refund(handle: Handle): { tokens: number; handles: Handle[] } {
    const handles: Handle[] = [];
    let tokens = 0;
    const { text } = handle;
    const looked = new Set<number>();
    for (let at = 0; at + PREFIX <= text.length; at++) {
      const prefix = gramKey(text, at);
      const list = this.byPrefix.get(prefix);
      if (list === undefined || looked.has(prefix)) continue;
      looked.add(prefix);
      for (const inside of list) {
        const cost = this.costs.get(inside) ?? 0;
        const needle = inside.text;
        if (cost > 0 && needle.length < text.length && text.includes(needle) && shownInside(inside, [text])) {
          handles.push(inside);
          tokens += cost;
        }
      }
    }
    return { tokens, handles };
  }
}
