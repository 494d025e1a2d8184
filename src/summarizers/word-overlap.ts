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

const STOP = new Set(
  (
    'the a an and or of to in on for is are was were be it this that with as at by from i you we he she they not ' +
    'but have has had do does did so if then than let me now'
  ).split(' '),
);

/** The words of a line that weigh in its ranking and its overlap with others: lower case, 3+ characters, no stop words. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z0-9_-]{2,}/g) ?? []).filter((word) => !STOP.has(word));
}
