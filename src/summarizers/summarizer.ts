import type { TokenCounter } from '../tokens/token-counter.js';
import type { Claim, Handle, Role, SourceKind, SummarizerIdentity } from '../types.js';

/** One unit of summarizer input: an original span's text, or a claim re-derived from stored originals. */
export interface SourceUnit {
  /** The text to summarize. */
  readonly text: string;
  /** Span ids this text comes from (what a claim built from it must cite). */
  readonly spanIds: readonly string[];
  /** Who the words are from (`handleRoleOf` the span kind): `tool` for tool output and for user turns the user did not type. */
  readonly role: Role;
  /** Sequence number of the (first) source span. */
  readonly seq: number;
  /** Kind of the source span, when known (tool calls and results are weighed lower than prose). */
  readonly kind?: SourceKind | undefined;
  /** `original` = a span's own text; `claim` = a sentence of an earlier summary, checked against its cited originals. */
  readonly origin: 'original' | 'claim';
}

/** What a summarizer is given. */
export interface SummarizeRequest {
  /** The session being compacted. */
  readonly sessionId: string;
  /** The region, oldest first. */
  readonly units: readonly SourceUnit[];
  /** Token budget of the summary prose. */
  readonly budgetTokens: number;
  /** Handles of the region, which the summary must never alter (they are kept verbatim in the index anyway). */
  readonly handles: readonly Handle[];
  /** Counter to measure the summary with. */
  readonly counter: TokenCounter;
  /** Findings of a previous attempt, for summarizers that retry. */
  readonly previousFindings?: readonly string[] | undefined;
}

/** What a summarizer returns: prose and the claims it is made of, each citing spans. */
export interface SummarizeResult {
  /** The summary prose. */
  readonly summary: string;
  /** Summary sentences with their cited span ids. */
  readonly claims: readonly Claim[];
}

/** Turns a region into a summary. The extractive summarizer ships; an LLM one can implement this. */
export interface Summarizer {
  /** Name and version, recorded on every record it writes. */
  readonly identity: SummarizerIdentity;
  /** Summarize the region within the budget. */
  summarize(request: SummarizeRequest): Promise<SummarizeResult>;
}
