/**
 * What `hook-context-entire` reports beside the score (bench/quality): why a future-needed handle is missing (passed
 * over for its length, or a letter-only compound such as `as-is` that the extractor leaves to prose), and whether a
 * compaction's context names an earlier compaction's record instead of its own, and which missing handles the agent
 * read again after the compaction before it wrote them, and what more room would buy with the same ranking.
 */
import { describe, expect, it } from 'vitest';
import { hookMisses, presentWithRoom, readAgainBeforeUse } from '../../bench/quality/hook-misses.js';
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

describe('readAgainBeforeUse', () => {
  it("names a missing handle a tool result or the user shows before the agent's first use, not one used first", () => {
    const after = [
      { role: 'assistant' as const, content: 'Building cmd/app/list.go again.' },
      {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id: 'c1', name: 'Read', arguments: '{"file_path":"src/other_file.go"}' }],
      },
      {
        role: 'tool' as const,
        content: 'func f() { os.ReadFile(p); time.RFC3339; cmd/app/list.go }',
        toolCallId: 'c1',
      },
      { role: 'user' as const, content: 'use deploy-42 please' },
      { role: 'assistant' as const, content: 'Using os.ReadFile, time.RFC3339 and deploy-42 in src/other_file.go.' },
    ];
    const missing = [
      'cmd/app/list.go',
      'src/other_file.go',
      'os.ReadFile',
      'time.RFC3339',
      'deploy-42',
      'never_seen_9',
    ];
    expect(readAgainBeforeUse(missing, after)).toEqual(['os.ReadFile', 'time.RFC3339', 'deploy-42']);
  });
});

describe('presentWithRoom', () => {
  it('fills the ranked candidates in rank order within a multiple of the shown characters, skipping what does not fit', () => {
    const first = handleAt('svc-12');
    const long = handleAt('/repo/very/long/path/handler.go', 'path');
    const short = handleAt('job-7');
    const context = { shown: [first], ranked: [first, long, short] };
    const needed = ['svc-12', '/repo/very/long/path/handler.go', 'job-7', 'in_summary_1'];
    expect(presentWithRoom(needed, 'in_summary_1', context, 1)).toBe(2);
    expect(presentWithRoom(needed, 'in_summary_1', context, 2)).toBe(3);
    expect(presentWithRoom(needed, 'in_summary_1', context, 10)).toBe(4);
  });
});
