/** Small timing helpers for the speed benchmarks. */
import { performance } from 'node:perf_hooks';

/** The `fraction` percentile (0..1) of `values` (nearest rank); NaN when empty. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Median of `values`. */
export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** Milliseconds `body` takes (awaited). */
export async function timeMs(body: () => unknown): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

/**
 * Run `body` `rounds` times, alternating with `other` when given, and return the median time
 * of each: interleaving keeps a noisy shared machine from favouring one side.
 */
export async function interleavedMedians(
  rounds: number,
  body: () => unknown,
  other: () => unknown,
): Promise<{ body: number; other: number }> {
  const bodyTimes: number[] = [];
  const otherTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    bodyTimes.push(await timeMs(body));
    otherTimes.push(await timeMs(other));
  }
  return { body: median(bodyTimes), other: median(otherTimes) };
}
