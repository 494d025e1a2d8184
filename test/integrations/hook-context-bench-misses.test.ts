/**
 * What `hook-context-entire` reports beside the score (bench/quality): why a future-needed handle is missing (passed
 * over for its length, or a letter-only compound such as `as-is` that the extractor leaves to prose), and whether a
 * compaction's context names an earlier compaction's record instead of its own.
 */
import { describe, expect, it } from 'vitest';
import { hookMisses } from '../../bench/quality/hook-misses.js';
import { namesEarlierRecord } from '../../bench/quality/hook-context-replay.js';
import { handleAt } from '../helpers.js';

describe('hookMisses', () => {
  it('counts a cut handle ranked above the last shown one as passed over, and letter-only compounds apart', () => {
    const long = handleAt('/repo/very/long/path/to/service/handler.go', 'path');
    const shownLater = handleAt('svc-12');
    const below = handleAt('worker-7');
    const ranked = [long, shownLater, below];
    const context = { text: 'identifier: svc-12', shown: [shownLater], ranked };
    const needed = ['/repo/very/long/path/to/service/handler.go', 'svc-12', 'worker-7', 'as-is', 'before/after'];
    const misses = hookMisses(needed, 'summary', context, ranked);
    expect(misses.missing).toBe(4);
    expect(misses.cutByBudget).toBe(2);
    expect(misses.skippedForSize).toBe(1);
    expect(misses.notExtracted).toBe(2);
    expect(misses.compounds).toBe(2);
  });
});

describe('namesEarlierRecord', () => {
  it("flags a compaction whose context names a record an earlier compaction's context named", () => {
    const seen = new Set<string>();
    expect(namesEarlierRecord([{ recordId: 'ext_1' }, { recordId: 'ext_1' }], seen)).toBe(false);
    expect(namesEarlierRecord([{ recordId: 'ext_2' }, { recordId: undefined }], seen)).toBe(false);
    expect(namesEarlierRecord([{ recordId: 'ext_2' }], seen)).toBe(true);
  });
});
