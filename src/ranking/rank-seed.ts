/**
 * Where each handle stood in a session's last ranking, so that the next ranking's sort starts from that order: a
 * compaction ranks mostly the handles the one before it ranked, mostly in the same order, and sorting nearly sorted
 * input takes nearly linear time. Where the sort starts never changes the order it gives: it sorts by a total order
 * (`compareRanked`, then the place in the input, which is how a stable sort breaks ties).
 */
import type { HandleTraits } from './handle-traits.js';

/** See the module comment. One per session (its `RankHistory`); the places are kept on the handles' traits. */
export class RankSeed {
  /** The number of the last ranking remembered (0: none yet). */
  private ranking = 0;
  /** How many handles it ranked. */
  private length = 0;

  /**
   * The indexes of `traits` (one per handle to rank, in input order) to start the sort from: the handles of the last
   * ranking in its order, then the others in input order.
   */
  start(traits: readonly HandleTraits[]): number[] {
    const slots = new Int32Array(this.length).fill(-1);
    const others: number[] = [];
    for (let index = 0; index < traits.length; index++) {
      const item = traits[index] as HandleTraits;
      const at = item.seedRanking === this.ranking ? item.seedAt : -1;
      if (at >= 0 && at < this.length && slots[at] === -1) slots[at] = index;
      else others.push(index);
    }
    const order: number[] = [];
    for (const index of slots) if (index >= 0) order.push(index);
    for (const index of others) order.push(index);
    return order;
  }

  /** Remember `order` (indexes of `traits`, best first) as the last ranking. */
  remember(traits: readonly HandleTraits[], order: readonly number[]): void {
    this.ranking++;
    this.length = order.length;
    order.forEach((index, at) => {
      const item = traits[index] as HandleTraits;
      item.seedRanking = this.ranking;
      item.seedAt = at;
    });
  }
}
