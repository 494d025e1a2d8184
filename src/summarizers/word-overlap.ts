/** Jaccard overlap of two word sets (near-duplicate lines are kept once); the smaller set is walked. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const small = a.size <= b.size ? a : b;
  const large = small === a ? b : a;
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Whether `overlap(a, b) > limit`. The overlap is at most the smaller size over the larger (the sets share at most
 * the smaller one, over a union at least as large as the larger one), so sets whose sizes differ that much are not
 * compared word by word: the answer is the same.
 */
export function overlapsOver(a: ReadonlySet<string>, b: ReadonlySet<string>, limit: number): boolean {
  if (Math.min(a.size, b.size) / Math.max(a.size, b.size) <= limit) return false;
  return overlap(a, b) > limit;
}
