/**
 * The first index in `[0, length)` at which `atOrAfter(index)` holds, for a test that is false and then true along a
 * sorted array (a lower bound); `length` when it never holds.
 */
export function firstIndexWhere(length: number, atOrAfter: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (atOrAfter(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}
