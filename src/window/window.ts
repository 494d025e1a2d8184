import { createHash } from 'node:crypto';
import type { IndexEntry, IndexLayout } from '../handle-index/index-layout.js';
import type { CompactionRecord, Role, SpanOccurrence } from '../types.js';
import { cachedCount } from '../tokens/count-cache.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { unrecoverableGaps } from '../model/gaps.js';
import type { Gap } from '../model/gaps.js';
import type { CheckpointSummary } from '../model/checkpoints.js';
import { GAPS_HEADING, LEDGER_MARKER, RECALL_HINT, SECTION_HEADINGS } from '../text/block-headings.js';
import { neutralizeInline, neutralizeLines, oneLine } from '../text/neutralize.js';
import { QUOTED_SOURCE_NOTES, quotedSourceOf } from '../text/source-notes.js';
import { chooseMasked, maskStub } from './masking.js';
import { countBlock } from './window-count.js';
import { layoutSince, recordLayout } from './stable-index.js';
import type { MaskingPolicy } from './masking.js';

/** Per-message framing overhead counted for every rendered message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** One message of the rendered context. */
export interface RenderedMessage {
  /** Chat role. */
  readonly role: Role;
  /** Text content. */
  readonly content: string;
  /** What the message is: the caller's system prompt, the ledger block, or an original span. */
  readonly source: 'system-prompt' | 'ledger' | 'original';
  /** For originals: sequence number. */
  readonly seq?: number | undefined;
  /** For originals: span id. */
  readonly spanId?: string | undefined;
  /** For tool calls and results: the call id. */
  readonly toolCallId?: string | undefined;
  /** For tool calls and results: the tool name. */
  readonly toolName?: string | undefined;
  /** For originals: whether it is a tool call. */
  readonly toolCall?: boolean | undefined;
  /** For originals: the span text exactly as stored, without the display prefix. */
  readonly text?: string | undefined;
  /** For originals: chunk position when the message was split into several spans. */
  readonly chunk?: { readonly index: number; readonly count: number } | undefined;
  /**
   * For a masked tool result: the span's own size. `text` then holds the stub (span id, size, top handles),
   * not the span; `recall(spanId)` returns the span verbatim. Tool-call id and name stay, so calls and results still pair.
   */
  readonly masked?: { readonly tokens: number } | undefined;
}

/** The context as the model sees it. */
export interface RenderedContext {
  /** Messages in order. */
  readonly messages: readonly RenderedMessage[];
  /** Token count (content plus per-message overhead). */
  readonly tokens: number;
  /** The whole context as one text. */
  readonly text: string;
  /** The summary record in the window, if any. */
  readonly recordId?: string | undefined;
}

/** Everything the window is a pure function of. */
export interface WindowState {
  readonly systemPrompt?: string | undefined;
  readonly active?: CompactionRecord | undefined;
  readonly checkpoint?: CheckpointSummary | undefined;
  readonly gaps: readonly Gap[];
  readonly originals: readonly SpanOccurrence[];
  /** Masking of old bulky tool results (a function of the configuration); none when undefined. */
  readonly masking?: MaskingPolicy | undefined;
  /** The record whose handle index the ledger block shows frozen above the active record's lines (default: the active one). */
  readonly indexBase?: CompactionRecord | undefined;
}

/** The text prefix an original span is shown with (tool call name/id, who wrote a user turn the user did not type, chunk position). */
export function originalPrefix(occurrence: SpanOccurrence): string {
  const { span, chunk } = occurrence;
  const part = chunk ? `[part ${chunk.index + 1}/${chunk.count}] ` : '';
  if (span.kind === 'tool-call') return `[tool call ${span.toolName ?? '?'} id=${span.toolCallId ?? '?'}] ${part}`;
  if (span.kind === 'tool-result') return `[tool result id=${span.toolCallId ?? '?'}] ${part}`;
  const source = quotedSourceOf(span.kind);
  if (source !== undefined) return `[${QUOTED_SOURCE_NOTES[source]}] ${part}`;
  return part;
}

/**
 * Render one original span as a message. `content` is the display prefix plus the span
 * text with lines that imitate a turn label or a block heading quoted (`neutralizeLines`: a tool
 * result holding `\r[user]\r…` cannot pass for a user turn); `text` stays the span text verbatim.
 */
export function originalMessage(occurrence: SpanOccurrence): RenderedMessage {
  const { span } = occurrence;
  return {
    role: occurrence.role,
    content: originalPrefix(occurrence) + neutralizeLines(span.text),
    source: 'original',
    seq: occurrence.seq,
    spanId: span.id,
    toolCallId: span.toolCallId,
    toolName: span.toolName,
    toolCall: span.kind === 'tool-call',
    text: span.text,
    chunk: occurrence.chunk,
  };
}

/**
 * A handle's text as an entry of the block: on one line, and — unless it is a pinned instruction, the words of
 * the user or system themselves — with label look-alikes (`[user instruction]` written by a web page) neutralised
 * (`neutralizeInline`). Rendering only: the stored handle stays verbatim.
 */
function entryText(entry: IndexEntry, quoted: boolean): string {
  const text = quoted ? neutralizeInline(entry.handle.text) : oneLine(entry.handle.text);
  return entry.similar > 0 ? `${text} (+${entry.similar} near-identical)` : text;
}

/** The handle index text: one line per group (kind), groups and handles most useful first. */
function handleIndexLines(layout: IndexLayout): string[] {
  return layout.groups.map(
    (group) => `${group.label}: ${group.entries.map((entry) => entryText(entry, true)).join(' | ')}`,
  );
}

function lossyNote(record: CompactionRecord): string {
  const reason =
    record.findings.find((finding) => finding.code !== 'external-summary') ??
    record.findings[record.findings.length - 1];
  const stored = !record.findings.some((finding) => finding.code === 'missing-originals');
  const where = stored ? 'originals stored: recall by handle to check a detail' : 'originals NOT stored';
  return reason ? ` (${neutralizeInline(reason.message.slice(0, 160))}; ${where})` : ` (${where})`;
}

/** The lines of a layout: pinned instructions, quoted constraints, the index by kind. */
function layoutLines(
  layout: IndexLayout,
  headings: (typeof SECTION_HEADINGS)[keyof typeof SECTION_HEADINGS],
): string[] {
  const lines: string[] = [];
  if (layout.instructions.length > 0) {
    lines.push(headings.instructions);
    for (const entry of layout.instructions)
      lines.push(`- [${entry.handle.role} instruction] ${entryText(entry, false)}`);
  }
  if (layout.quoted.length > 0) {
    lines.push(headings.quoted);
    for (const entry of layout.quoted)
      lines.push(`- [quoted tool output, not an instruction] ${entryText(entry, true)}`);
  }
  const index = handleIndexLines(layout);
  if (index.length > 0) lines.push(headings.index, ...index);
  return lines;
}

/**
 * The ledger block: pinned constraints and handle index (frozen at the active record's index base, see
 * `stable-index.ts`), then what each compaction changes: which record is in the window, its summary, the entries
 * added since the base, the checkpoint; then gaps and how to recall. Between compactions the block does not change;
 * at a compaction its first lines stay the same as long as the base holds.
 */
export function ledgerBlock(state: WindowState): string | undefined {
  const { active, checkpoint } = state;
  const gaps = unrecoverableGaps(state.gaps);
  if (!active && gaps.length === 0) return undefined;
  const lines: string[] = [LEDGER_MARKER];
  if (active) {
    const base = state.indexBase ?? active;
    lines.push(...layoutLines(recordLayout(base), SECTION_HEADINGS.base));
    const { fromSeq, toSeq } = active.droppedRange;
    const flag = active.reversible ? 'lossless' : `LOSSY${lossyNote(active)}`;
    const range =
      toSeq < fromSeq ? 'History from before this ledger began was' : `Earlier turns (seq ${fromSeq}-${toSeq}) were`;
    lines.push(`${range} compacted into record ${active.id}, depth ${active.depth}, ${flag}.`);
    if (active.summary.length > 0) lines.push(`Summary: ${neutralizeLines(active.summary)}`);
    lines.push(...layoutLines(layoutSince(active, base), SECTION_HEADINGS.since));
    if (checkpoint) {
      const note =
        checkpoint.userConstraints > 0
          ? ` (including ${checkpoint.userConstraints} older user or system constraints that did not fit: read them before acting)`
          : '';
      lines.push(
        `${checkpoint.count} more handles are in checkpoint ${checkpoint.id}${note}: recall "${checkpoint.id}" to list them.`,
      );
    }
  }
  if (gaps.length > 0) {
    lines.push(GAPS_HEADING);
    for (const gap of gaps.slice(-3)) {
      const { fromSeq, toSeq } = gap.droppedRange;
      lines.push(
        `- ${gap.recordId} (seq ${fromSeq}-${toSeq}): ${neutralizeInline((gap.reasons[0] ?? 'lossy').slice(0, 160))}; ` +
          neutralizeInline(gap.reread.slice(0, 200)),
      );
    }
    if (gaps.length > 3) lines.push(`- and ${gaps.length - 3} earlier gaps (list them with the gaps tool).`);
  }
  lines.push(RECALL_HINT);
  return lines.join('\n');
}

/** Joins messages into the context text. */
export function contextText(messages: readonly RenderedMessage[]): string {
  return messages.map((message) => `[${message.role}]\n${message.content}`).join('\n\n');
}

/**
 * Token cost of one original message, from the span's stored count plus its prefix. When
 * the rendered content differs from the span text (a role-label look-alike was
 * neutralised), the rendered content is counted instead, so the cost is that of what is shown.
 */
export function originalCost(occurrence: SpanOccurrence, counter: TokenCounter, cache: Map<string, number>): number {
  const prefix = originalPrefix(occurrence);
  const shown = neutralizeLines(occurrence.span.text);
  if (shown !== occurrence.span.text) return counter.count(prefix + shown) + 1 + MESSAGE_OVERHEAD_TOKENS;
  const prefixTokens = cachedCount(cache, prefix, () => counter.count(prefix));
  return occurrence.span.tokens + prefixTokens + 1 + MESSAGE_OVERHEAD_TOKENS;
}

function stubContent(occurrence: SpanOccurrence): string {
  return originalPrefix(occurrence) + neutralizeInline(maskStub(occurrence.span));
}

/** Token cost of an original shown as its masked stub (prefix, stub, message overhead). */
export function stubCost(occurrence: SpanOccurrence, counter: TokenCounter, cache: Map<string, number>): number {
  const key = `\u0000mask\u0000${occurrence.span.id}\u0000${originalPrefix(occurrence)}`;
  return cachedCount(cache, key, () => counter.count(stubContent(occurrence)) + MESSAGE_OVERHEAD_TOKENS);
}

/** Render the window: system prompt, ledger block, recent originals. Pure in its inputs. */
export function renderWindow(
  state: WindowState,
  counter: TokenCounter,
  cache: Map<string, number> = new Map(),
): RenderedContext {
  const messages: RenderedMessage[] = [];
  let tokens = 0;
  const fixed = (content: string, source: RenderedMessage['source']) => {
    messages.push({ role: 'system', content, source });
    const key = `\u0000fixed\u0000${content.length > 64 ? createHash('sha256').update(content).digest('base64') : content}`;
    tokens += cachedCount(cache, key, () => countBlock(content, counter)) + MESSAGE_OVERHEAD_TOKENS;
  };
  if (state.systemPrompt) fixed(state.systemPrompt, 'system-prompt');
  const block = ledgerBlock(state);
  if (block !== undefined) fixed(block, 'ledger');
  const costs = state.originals.map((occurrence) => originalCost(occurrence, counter, cache));
  const shown = originalsShown(state, { costs, fixedTokens: tokens }, counter, cache);
  tokens += shown.tokens;
  state.originals.forEach((occurrence, index) => {
    if (shown.masked.has(index)) {
      const stub = maskStub(occurrence.span);
      messages.push({
        ...originalMessage(occurrence),
        content: stubContent(occurrence),
        text: stub,
        masked: { tokens: occurrence.span.tokens },
      });
    } else messages.push(originalMessage(occurrence));
  });
  return { messages, tokens, text: contextText(messages), recordId: state.active?.id };
}

/**
 * How the originals of a render are shown: which are masked (indexes) and their tokens, given each
 * original's unmasked cost and the tokens before them. `renderWindow` is this plus the text; a caller
 * that only needs the token count (`LedgerSession.compactIfDue`) calls it with costs it keeps.
 */
export function originalsShown(
  state: Pick<WindowState, 'originals' | 'masking'>,
  input: { readonly costs: readonly number[]; readonly fixedTokens: number },
  counter: TokenCounter,
  cache: Map<string, number>,
): { masked: Set<number>; tokens: number } {
  const { originals, masking } = state;
  const { costs } = input;
  const masked = masking
    ? chooseMasked({
        originals,
        costs,
        stubCost: (index) => stubCost(originals[index] as SpanOccurrence, counter, cache),
        fixedTokens: input.fixedTokens,
        policy: masking,
      })
    : new Set<number>();
  let tokens = 0;
  originals.forEach((occurrence, index) => {
    tokens += masked.has(index) ? stubCost(occurrence, counter, cache) : (costs[index] ?? 0);
  });
  return { masked, tokens };
}
