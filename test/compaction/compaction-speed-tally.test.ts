import { describe, expect, it, vi } from 'vitest';
import * as tally from '../../src/ranking/tally.js';
import { SlidingTally } from '../../src/ranking/sliding-tally.js';
import type { TallySeq } from '../../src/ranking/sliding-tally.js';
import type { Handle } from '../../src/types.js';

// Count the occurrences the sliding tally marks (the real marking still answers).
vi.mock('../../src/ranking/tally.js', async (importOriginal) => {
  const real = await importOriginal<typeof tally>();
  return { ...real, markOccurrence: vi.fn(real.markOccurrence) };
});
const marked = vi.mocked(tally.markOccurrence);

function seqOf(seq: number): TallySeq {
  const spanId = `sha256:${seq}`;
  const rows = ['src/app.ts', `v1.${seq}`].map((text, index): Handle => ({
    text,
    kind: index === 0 ? 'path' : 'version',
    role: seq % 2 === 0 ? 'assistant' : 'tool',
    key: text,
    start: index * 20,
    end: index * 20 + text.length,
    spanId,
    seq,
    tokens: 3,
  }));
  return { spanId, span: { kind: 'assistant', toolName: undefined, tokens: 10, text: '' }, rows };
}

describe('SlidingTally moving forward (compaction speed)', () => {
  it('takes a leaving seq back by the marks it was counted with, without marking its rows again', () => {
    const sliding = new SlidingTally(500);
    expect(sliding.moveTo(0, 9, seqOf)).toBe(true);
    marked.mockClear();
    // Six seqs leave, three enter: only the entering seqs' rows are marked.
    expect(sliding.moveTo(6, 12, seqOf)).toBe(true);
    expect(marked.mock.calls.length).toBe(3 * 2);
    const counted = sliding.tallies()?.byIdentity;
    const fresh = new SlidingTally(500);
    fresh.moveTo(6, 12, seqOf);
    expect(counted).toEqual(fresh.tallies()?.byIdentity);
  });
});
