/**
 * The record of a summary another tool wrote (an agent's own compaction): always lossy, since
 * its author could not be constrained to keep handles verbatim. It keeps the region's handles
 * the summary quotes verbatim, the summary's own handle-like tokens (unresolved), and names
 * what it dropped in a finding. The record it replaces in the window hands on its kept handles
 * and its checkpoint chain: a summary of later turns is no reason to lose what was shown before.
 *
 * A rendered ledger block that comes back as transcript text naming no record of this session (`reingested`) is
 * recorded the same way, except that the handles of the block's own spans are not copied (the block is its summary,
 * verbatim or without some index lines when it is large, and its spans are stored: recall finds them), the record
 * keeps every other handle of the range (turns before the block), and it says the history the block summarizes is
 * not in this ledger (`missing-originals`).
 */
import { extractHandles } from '../handles/extract.js';
import { mergeHandles } from '../handles/handle-sets.js';
import type { TokenMemo } from '../handles/token-memo.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord, Finding, Handle, SpanOccurrence, SummarizerIdentity } from '../types.js';
import { recordId } from '../model/record-id.js';
import { UNRESOLVED_SPAN } from '../types.js';

/** What an external record is built from. */
export interface ExternalRecordInput {
  readonly sessionId: string;
  /** The summary text, verbatim. */
  readonly summary: string;
  /** Who wrote it. */
  readonly summarizer: SummarizerIdentity;
  /** First and last seq covered (`toSeq` -1: history from before this ledger began). */
  readonly fromSeq: number;
  readonly toSeq: number;
  /** The stored originals of the covered range. */
  readonly covered: readonly SpanOccurrence[];
  /** The handles of the covered range. */
  readonly regionHandles: readonly Handle[];
  /** The record in the window before this one. */
  readonly active: CompactionRecord | undefined;
  readonly ordinal: number;
  readonly atSeq: number;
  readonly counter: TokenCounter;
  readonly createdAt: string;
  /** The session's memo of token classifications, for the summary's own handles (the same handles, sooner). */
  readonly tokenMemo?: TokenMemo | undefined;
  /**
   * Set when the summary is a rendered ledger block that came back as transcript text and names no record this
   * session holds (`ingest/rendered-block.ts`): the ids it names. Nothing of the covered range is dropped (the
   * ledger's own text, not an author who paraphrased), and the history the block summarizes is not in this ledger.
   */
  readonly reingested?: { readonly recordIds: readonly string[]; readonly spanIds: readonly string[] } | undefined;
}

/** The findings of a re-ingested block: whose summary it is, and that its history is in no span of this session. */
function reingestedFindings(recordIds: readonly string[]): Finding[] {
  const named = recordIds[0] === undefined ? '' : ` (record ${recordIds[0]})`;
  return [
    {
      code: 'missing-originals',
      message: `a context-ledger block of another session${named} came back as text; the history it summarizes is not here`,
    },
    { code: 'external-summary', message: 'the block is stored verbatim and quoted: its lines are never pinned again' },
  ];
}

/** Build (not write) the external record. */
export function externalRecord(input: ExternalRecordInput): CompactionRecord {
  const { summary, regionHandles, covered, fromSeq, toSeq, counter } = input;
  const prior = input.active?.handles ?? [];
  // A re-ingested block's own handles are in its summary (the block, verbatim) and in its stored spans: the record
  // keeps the other handles of the range (turns before the block). Another tool's summary keeps those it quotes.
  const blockSpans = new Set(input.reingested?.spanIds);
  const kept = mergeHandles(
    input.reingested
      ? regionHandles.filter((handle) => !blockSpans.has(handle.spanId))
      : regionHandles.filter((handle) => summary.includes(handle.text)),
    prior.filter((handle) => handle.spanId !== UNRESOLVED_SPAN),
  );
  const keptTexts = new Set(kept.map((handle) => handle.text));
  // A re-ingested block is stored: its handles are the region's, not unresolved tokens of a summary.
  const own: Handle[] = (input.reingested ? [] : extractHandles(summary, { memo: input.tokenMemo }))
    .filter((handle) => !keptTexts.has(handle.text))
    .map((handle) => ({
      ...handle,
      spanId: UNRESOLVED_SPAN,
      seq: -1,
      role: 'assistant',
      tokens: counter.count(handle.text),
    }));
  const all = mergeHandles(regionHandles);
  const dropped = all.filter((handle) => !keptTexts.has(handle.text));
  const ownTexts = new Set(own.map((handle) => handle.text));
  const priorUnresolved = prior.filter(
    (handle) => handle.spanId === UNRESOLVED_SPAN && !keptTexts.has(handle.text) && !ownTexts.has(handle.text),
  );
  const handles = [...kept, ...own, ...mergeHandles(priorUnresolved)];
  if (input.reingested) return build(input, reingestedFindings(input.reingested.recordIds), handles);
  const findings: Finding[] = [
    { code: 'external-summary', message: `written by ${input.summarizer.name}, which does not keep handles verbatim` },
  ];
  if (dropped.length > 0) {
    const examples = dropped
      .slice(0, 5)
      .map((handle) => JSON.stringify(handle.text))
      .join(', ');
    findings.push({
      code: 'external-summary',
      message: `dropped ${dropped.length} of ${all.length} handles, e.g. ${examples}`,
    });
  }
  if (covered.length !== Math.max(0, toSeq - fromSeq + 1) || toSeq < fromSeq) {
    findings.push({ code: 'missing-originals', message: 'the originals it summarized are not in the ledger' });
  }
  return build(input, findings, handles);
}

/** The record of `input` with these findings and handles. */
function build(input: ExternalRecordInput, findings: Finding[], handles: Handle[]): CompactionRecord {
  const { summary, covered, fromSeq, toSeq, counter } = input;
  const first = covered[0];
  const last = covered[covered.length - 1];
  const body = {
    sessionId: input.sessionId,
    type: 'external' as const,
    summary,
    claims: [{ text: summary, spanIds: covered.map((occurrence) => occurrence.spanId) }],
    handles,
    reversible: false,
    depth: 1,
    droppedRange: { fromSeq, toSeq, byteStart: first?.byteStart ?? 0, byteEnd: last?.byteEnd ?? 0 },
    ancestors: input.active ? [input.active.id] : [],
    checkpointId: input.active?.checkpointId,
    rederived: false,
    summarizer: input.summarizer,
    findings,
  };
  const ordinal = input.ordinal;
  return {
    id: recordId('ext', { ...body, ordinal }),
    ordinal,
    ...body,
    summaryTokens: counter.count(summary),
    atSeq: input.atSeq,
    createdAt: input.createdAt,
  };
}
