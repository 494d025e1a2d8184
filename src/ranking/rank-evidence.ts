import type { Handle, Span } from '../types.js';
import type { HandleTraitMemo } from './handle-traits.js';

/** The part of a span the ranking looks at. */
export type RankSpan = Pick<Span, 'kind' | 'toolName' | 'text' | 'tokens'>;

/** What is known at compaction time about how handles were used. */
export interface RankEvidence {
  /** Every handle occurrence known (one per span that mentions it): the region's, and the re-read ancestor range's. */
  readonly occurrences: readonly Handle[];
  /** The spans of those occurrences, by span id, when known (region and re-read originals). */
  readonly spans: ReadonlyMap<string, RankSpan>;
  /** Identities (`handleIdentity`) of the handles the previous record kept in the window. */
  readonly carried?: ReadonlySet<string> | undefined;
  /** First seq the evidence covers. */
  readonly fromSeq: number;
  /** Last seq of the compacted region: recency is measured back from it. */
  readonly toSeq: number;
  /** Text that stays visible verbatim in the window after this compaction (recent non-tool-result turns). */
  readonly visibleText?: string | undefined;
  /** The tallies of `occurrences`, when already kept (a session's `RankHistory`): then they are not tallied again. */
  readonly tallies?: EvidenceTallies | undefined;
  /** The session's handle traits, kept from one compaction to the next (default: computed for each handle). */
  readonly traits?: HandleTraitMemo | undefined;
}

/** What the evidence says of one handle identity (see `tallyOccurrences`). */
export interface Tally {
  /** Distinct (seq, span) pairs that mention it. */
  spans: number;
  lastSeq: number;
  agentUsed: boolean;
  toolCall: boolean;
  userSaid: boolean;
  commandRun: boolean;
  specified: boolean;
  nonTool: boolean;
  nonBulky: boolean;
}

/** Tallies of every handle identity of an evidence, computed elsewhere (incrementally) for one bulky threshold. */
export interface EvidenceTallies {
  readonly bulkyTokens: number;
  readonly byIdentity: ReadonlyMap<string, Tally>;
}
