import { describe, expect, it } from 'vitest';
import type { Gap } from '../../src/model/gaps.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import type { CompactionRecord } from '../../src/types.js';
import { FRAME_HEADERS_TOKENS, frameTokens, SPILL_ALLOWANCE } from '../../src/window/frame-estimate.js';
import type { NextFrame } from '../../src/window/frame-estimate.js';
import { renderWindow } from '../../src/window/window.js';
import { WindowMemo } from '../../src/window/window-memo.js';

const counter = createO200kCounter();

/**
 * A record like the one a compaction writes, with an empty summary and no handles. Its id is zeros: the frame counts
 * ids so (a real id's hex digits count a few tokens more each: the frame is an estimate).
 */
function emptyRecord(frame: NextFrame): CompactionRecord {
  return {
    id: `rec_${'0'.repeat(24)}`,
    sessionId: 's',
    ordinal: 7,
    type: 'summary',
    summary: '',
    claims: [],
    handles: [],
    reversible: frame.reversible,
    depth: 1,
    droppedRange: { fromSeq: frame.fromSeq, toSeq: frame.toSeq, byteStart: 0, byteEnd: 0 },
    ancestors: [],
    rederived: false,
    summarizer: { name: 'test', version: '1' },
    findings: [],
    summaryTokens: 0,
    atSeq: frame.toSeq + 1,
    createdAt: '',
  };
}

/** What the window of that record counts, its checkpoint holding `SPILL_ALLOWANCE` more handles. */
function renderedFrame(frame: NextFrame): number {
  const checkpoint = {
    id: `chk_${'0'.repeat(24)}`,
    count: (frame.checkpoint?.count ?? 0) + SPILL_ALLOWANCE,
    userConstraints: frame.checkpoint?.userConstraints ?? 0,
  };
  const state = { systemPrompt: frame.systemPrompt, gaps: frame.gaps, active: emptyRecord(frame), checkpoint };
  return renderWindow({ ...state, originals: [] }, counter).tokens;
}

const lossy: Gap = {
  recordId: 'ext_1',
  type: 'external',
  depth: 1,
  droppedRange: { fromSeq: 0, toSeq: 40, byteStart: 0, byteEnd: 900 },
  originalsStored: false,
  reasons: ['an agent summary of history this ledger never saw'],
  reread: 'nothing to re-read: the originals were never stored',
};

describe('frameTokens', () => {
  const frames: NextFrame[] = [
    { fromSeq: 0, toSeq: 12, reversible: true, gaps: [] },
    { systemPrompt: 'You are a careful agent.', fromSeq: 40, toSeq: 311, reversible: true, gaps: [] },
    { fromSeq: 5, toSeq: 4, reversible: false, checkpoint: { count: 1234, userConstraints: 2 }, gaps: [lossy] },
    { fromSeq: 0, toSeq: 99, reversible: false, gaps: [lossy, lossy, lossy, lossy] },
  ];

  it('counts the lines the block of a record with no summary and no handles shows, plus the header allowance', () => {
    const memo = new WindowMemo();
    for (const frame of frames) {
      expect(frameTokens(frame, counter, memo)).toBe(renderedFrame(frame) + FRAME_HEADERS_TOKENS);
      // Counted again from what the memo holds: the same number.
      expect(frameTokens(frame, counter, memo)).toBe(frameTokens(frame, counter, new WindowMemo()));
    }
  });
});
