/**
 * What rendering a session's window again and again remembers: the token counts of the pieces it shows, the counts of
 * the ledger block's segments, and the records' index layouts and bases. A session owns one and passes it to every
 * render and measure; a one-off render (`ledger.replayWindow`) makes its own. Everything held is a pure function of
 * its key, so a fresh memo renders the same text and the same token count.
 */
import { IndexBases } from './stable-index.js';
import { SegmentCounts } from './window-count.js';

export class WindowMemo {
  /**
   * Token counts of rendered pieces under the keys `window.ts` gives them: an original's prefix, a masked stub, a whole
   * system prompt or ledger block (bounded: see `cachedCount`).
   */
  readonly textTokens = new Map<string, number>();
  /** Counts of ledger-block segments (see `countBlock`). */
  readonly segments = new SegmentCounts();
  /** Records' index layouts and the index base each was settled with. */
  readonly indexBases = new IndexBases();
}
