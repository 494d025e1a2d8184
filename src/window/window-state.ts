/**
 * The one place a window's state is assembled from records and originals, for the session,
 * `ledger.replayWindow` and the audit alike: the active record, its spill-checkpoint summary,
 * the gaps and the masking policy.
 */
import { summarizeCheckpoint } from '../model/checkpoints.js';
import type { CheckpointSummary } from '../model/checkpoints.js';
import { maskingPolicy } from './masking.js';
import { gapsOf } from '../model/gaps.js';
import type { Gap } from '../model/gaps.js';
import type { CompactionRecord, SpanOccurrence, WindowConfig } from '../types.js';
import type { MaskingPolicy } from './masking.js';
import { IndexBases, maxStaleTokens } from './stable-index.js';

/** Everything the window is a pure function of. */
export interface WindowState {
  readonly systemPrompt?: string | undefined;
  readonly active?: CompactionRecord | undefined;
  readonly checkpoint?: CheckpointSummary | undefined;
  readonly gaps: readonly Gap[];
  readonly originals: readonly SpanOccurrence[];
  /** Masking of old bulky tool results (a function of the configuration and the active record); none when undefined. */
  readonly masking?: MaskingPolicy | undefined;
  /** The record whose handle index the ledger block shows frozen above the active record's lines (default: the active one). */
  readonly indexBase?: CompactionRecord | undefined;
}

/** The latest summary or external record: the one in the window. */
export function activeRecord(records: readonly CompactionRecord[]): CompactionRecord | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index];
    if (record && record.type !== 'checkpoint') return record;
  }
  return undefined;
}

/** What a window state is built from. */
export interface WindowStateInput {
  /** The session's records up to the moment rendered, oldest first. */
  readonly records: readonly CompactionRecord[];
  /** The originals after the active record's range. */
  readonly originals: readonly SpanOccurrence[];
  /** The caller's system prompt. */
  readonly systemPrompt?: string | undefined;
  /** Window configuration (masking follows it); without it nothing is masked. */
  readonly config?: WindowConfig | undefined;
  /** The active record, when the caller already knows it (default: the latest non-checkpoint record). */
  readonly active?: CompactionRecord | undefined;
  /** The gaps of `records`, when the caller keeps them (a session adds each record's as it is written; default: `gapsOf`). */
  readonly gaps?: readonly Gap[] | undefined;
  /** How to summarize the checkpoint chain (a session passes its cache; default: walk the chain). */
  readonly checkpoint?:
    ((records: readonly CompactionRecord[], headId: string | undefined) => CheckpointSummary | undefined) | undefined;
  /**
   * Where index bases are settled and read (a session passes its own, which remembers the bases of records it no
   * longer holds; default: a fresh one, settled on `records`, which must then hold the active record's chain).
   */
  readonly indexBases?: IndexBases | undefined;
}

/** Assemble the state `renderWindow` is a pure function of. */
export function windowStateOf(input: WindowStateInput): WindowState {
  const active = input.active ?? activeRecord(input.records);
  const checkpoint = (input.checkpoint ?? summarizeCheckpoint)(input.records, active?.checkpointId);
  return {
    systemPrompt: input.systemPrompt,
    active,
    // Without a window configuration (the audit's block of one record) the index is not frozen.
    indexBase:
      active === undefined || input.config === undefined
        ? undefined
        : (input.indexBases ?? new IndexBases()).baseOf(input.records, active, maxStaleTokens(input.config)),
    checkpoint,
    gaps: input.gaps ?? gapsOf(input.records),
    originals: input.originals,
    masking: input.config ? maskingPolicy(input.config, active?.atSeq) : undefined,
  };
}
