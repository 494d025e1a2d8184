/**
 * The frame of the ledger block a compaction is about to write, measured before the compaction: what the planner
 * counts as fixed (`RefillInput.fixedTokens`) besides the summary and the handle index it budgets for. It is the
 * system prompt plus the block's lines that do not depend on the summary or the handles: the line naming the new
 * record, the checkpoint line, the gaps and the recall hint, each built by the code that builds the block.
 */
import type { Gap } from '../model/gaps.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { blockText, checkpointLine, compactionLine, gapLines } from './ledger-block.js';
import { unrecoverableGaps } from '../model/gaps.js';
import { fixedMessageTokens, MESSAGE_OVERHEAD_TOKENS } from './window.js';
import { countBlock } from './window-count.js';
import type { WindowMemo } from './window-memo.js';

/** Tokens of the block's "Summary:", pinned-constraint and handle-index header lines, beyond its frame. */
export const FRAME_HEADERS_TOKENS = 16;

/**
 * Handles the checkpoint line is counted with beyond the chain's count now: the compaction spills some more (room for
 * a count two digits longer).
 */
export const SPILL_ALLOWANCE = 100;

/** A record or checkpoint id as the frame counts it: its prefix and 24 hex digits (zeros standing for any). */
function idText(prefix: 'rec' | 'chk'): string {
  return `${prefix}_${'0'.repeat(24)}`;
}

/** What the frame of the next ledger block depends on. */
export interface NextFrame {
  /** The caller's system prompt. */
  readonly systemPrompt?: string | undefined;
  /** First seq the next record will cover (its ancestors' range included): the active record's, or 0. */
  readonly fromSeq: number;
  /** Last seq it may cover: the last original's, or 0. */
  readonly toSeq: number;
  /** Whether the next record is lossless so far (the active record's flag: lossy stays lossy). */
  readonly reversible: boolean;
  /** The active record's spill checkpoint chain, if any: how many handles it holds, and how many user constraints. */
  readonly checkpoint?: { readonly count: number; readonly userConstraints: number } | undefined;
  /** The session's gaps (the block shows those that cannot be recovered). */
  readonly gaps: readonly Gap[];
}

/**
 * Tokens of the system prompt and of the next ledger block with an empty summary and handle index: the line naming
 * the new record (depth 1, the frame's range and flag, an id of a record id's length), the checkpoint line with
 * `SPILL_ALLOWANCE` more handles, the gaps and the recall hint; plus `FRAME_HEADERS_TOKENS` for the header lines a
 * summary and an index add. `memo`: where counts are remembered (the numbers do not depend on it).
 */
export function frameTokens(frame: NextFrame, counter: TokenCounter, memo: WindowMemo): number {
  const lines = [
    compactionLine({
      id: idText('rec'),
      depth: 1,
      reversible: frame.reversible,
      droppedRange: { fromSeq: frame.fromSeq, toSeq: frame.toSeq, byteStart: 0, byteEnd: 0 },
      findings: [],
    }),
    checkpointLine({
      id: idText('chk'),
      count: (frame.checkpoint?.count ?? 0) + SPILL_ALLOWANCE,
      userConstraints: frame.checkpoint?.userConstraints ?? 0,
    }),
    ...gapLines(unrecoverableGaps(frame.gaps)),
  ];
  const prompt = frame.systemPrompt ? fixedMessageTokens(frame.systemPrompt, counter, memo) : 0;
  const block = countBlock(blockText(lines), counter, memo.segments) + MESSAGE_OVERHEAD_TOKENS;
  return prompt + block + FRAME_HEADERS_TOKENS;
}
