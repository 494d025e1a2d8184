import type { SpanOccurrence } from '../types.js';

/**
 * Indexes `i` (0 < i <= originals.length) where the window may be cut so that
 * originals[0..i) are compacted and originals[i..] kept, without separating a tool call
 * from its result or splitting the chunks of one message. `originals.length` (compact
 * everything) is always allowed.
 */
export function allowedBoundaries(originals: readonly SpanOccurrence[]): number[] {
  const open = new Set<string>();
  const allowed: number[] = [];
  originals.forEach((occurrence, index) => {
    if (index > 0 && open.size === 0 && (occurrence.chunk?.index ?? 0) === 0) allowed.push(index);
    const { span } = occurrence;
    if (span.kind === 'user') open.clear();
    else if (span.kind === 'tool-call' && span.toolCallId !== undefined) open.add(span.toolCallId);
    else if (span.kind === 'tool-result' && span.toolCallId !== undefined) {
      const last = occurrence.chunk === undefined || occurrence.chunk.index === occurrence.chunk.count - 1;
      if (last) open.delete(span.toolCallId);
    }
  });
  allowed.push(originals.length);
  return allowed;
}

/**
 * Choose how many of the oldest originals to compact: the fewest, at an allowed boundary,
 * that leave at most `keepTokens` of recent turns (per-message costs in `costs`).
 */
export function chooseBoundary(originals: readonly SpanOccurrence[], costs: readonly number[], keepTokens: number): number {
  const suffix: number[] = new Array<number>(originals.length + 1).fill(0);
  for (let index = originals.length - 1; index >= 0; index--) suffix[index] = (suffix[index + 1] ?? 0) + (costs[index] ?? 0);
  for (const boundary of allowedBoundaries(originals)) {
    if ((suffix[boundary] ?? 0) <= keepTokens) return boundary;
  }
  return originals.length;
}
