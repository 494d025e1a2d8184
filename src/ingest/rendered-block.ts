/**
 * Our own rendered output coming back as transcript text (ARCHITECTURE invariant 13, issue 36 item 7): an agent that
 * replaces its history with the compacted context, a hook's output echoed into the transcript, a block pasted into a
 * user turn. Such text is the ledger talking, not the user or the system prompt: the message is stored as `harness`
 * (quoted, never pinned), so its `- [user instruction] …` lines are not pinned a second time and labels never nest.
 *
 * Recognised by the block's marker (`[context-ledger]`) at the start of a line, or one of the block's own headings or
 * its closing recall hint as a whole line, read with look-alike letters and brackets folded (`role-labels.ts` folds
 * the same way). The strings come from `text/block-headings.ts`, the ones `window/window.ts` writes.
 */
import { GAPS_HEADING, LEDGER_MARKER, RECALL_HINT, SECTION_HEADINGS } from '../text/block-headings.js';
import { foldForLabels } from '../text/confusables.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** A rendered block found in a message's text. */
export interface RenderedBlock {
  /**
   * True when a line is the whole marker, as `window.ts` writes a block's first line: a complete ledger block, which
   * a session that does not hold the records it names imports as an external summary. False for a fragment (a
   * heading without the marker) or a one-line note such as the Claude Code hook's `[context-ledger] … replaced …`.
   */
  readonly complete: boolean;
  /** Record ids the text names (`rec_…`, `ext_…`, `chk_…`), first seen first. */
  readonly recordIds: readonly string[];
}

/** Any line break (CR LF counts once). */
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/;

/** Blanks, list and quote markers before a line's first word. */
const LEAD = /^[\s>*+\-\u2022\u00a0]+/;

/** Blank runs, collapsed when a line is compared with a heading. */
const BLANKS = /\s+/g;

/** How much of a line is read: the marker and the headings are short. */
const LINE_PREFIX_CHARACTERS = 240;

/** A record id as `recordId` writes it. */
const RECORD_ID = /\b(?:rec|ext|chk)_[0-9a-f]{24}\b/g;

/**
 * A cheap first test on a line: only one whose first character after blanks and list markers is a bracket, not
 * ASCII (a look-alike, an invisible character), or the first letter of a heading or of the recall hint can be one.
 */
const MAY_BE_OWN_LINE = /^[\s>*+\-\u2022\u00a0]*(?:[[\u0080-\uFFFF]|[pchktPCHKT])/;

/** A line as it is compared: lead removed, look-alikes folded, blanks collapsed, lower case. */
function comparable(line: string): string {
  const prefix = line.slice(0, LINE_PREFIX_CHARACTERS).replace(LEAD, '');
  const folded = !/[\u0080-\uFFFF]/.test(prefix) ? prefix : foldForLabels(prefix).replace(LEAD, '');
  return folded.replace(BLANKS, ' ').trim().toLowerCase();
}

/** The block's own whole lines (headings, closing hint), as compared. */
const OWN_LINES: ReadonlySet<string> = new Set(
  [...Object.values(SECTION_HEADINGS.base), ...Object.values(SECTION_HEADINGS.since), GAPS_HEADING, RECALL_HINT].map(
    comparable,
  ),
);

const MARKER = comparable(LEDGER_MARKER);

/** Whether a compared line is the marker line or one of the block's own lines. */
function isOwnLine(shown: string): boolean {
  return shown === MARKER || OWN_LINES.has(shown);
}

/** The first character of a line after blanks and list markers (a whole code point). */
const FIRST_CHARACTER = /^[\s>*+\-\u2022\u00a0]*([\s\S]\p{M}*)/u;

/**
 * What characters that are not ASCII read as once folded, by character (bounded). Module-level on purpose: keyed by
 * the whole input of `foldForLabels`, a pure function, so an entry is what folding again gives.
 */
const foldedFirst = new Map<string, string>();

/** Whether a line's first character, folded, can start the marker or an own line (`[`, `p`, `c`, `h`, `k`, `t`). */
function mayStartOwnLine(line: string): boolean {
  const first = FIRST_CHARACTER.exec(line)?.[1];
  if (first === undefined) return false;
  let folded = foldedFirst.get(first);
  if (folded === undefined) {
    folded = foldForLabels(first);
    if (foldedFirst.size > 4096) foldedFirst.clear();
    foldedFirst.set(first, folded);
  }
  // An invisible first character folds to nothing: read the whole line.
  return folded === '' || /^[[pchkt]/i.test(folded);
}

/** The line as compared, or undefined when its first character already rules out every own line. */
function comparableOwnLine(line: string): string | undefined {
  if (!MAY_BE_OWN_LINE.test(line)) return undefined;
  return mayStartOwnLine(line) ? comparable(line) : undefined;
}

/**
 * A cheap first test on the whole text: the marker or a heading's first words, or a character that is not ASCII
 * (which may fold to them). Text without any is not read line by line.
 */
const MAY_HOLD_BLOCK =
  /context-ledger|pinned constraints|constraints quoted|handle|known gaps|to get an original|[\u0080-\uFFFF]/i;

/** Any line break, global (for walking the lines of a text with their offsets). */
const LINE_BREAKS = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * Where the lines of the block's own boilerplate are in `text` (the marker line, its headings, its closing recall
 * hint), as `[start, end)` ranges: the ledger talking, not anyone's words. Handles found there (`sha256` of
 * "span id (sha256:...)", a "Never fill a gap from memory." constraint) are not indexed again when the block comes
 * back. Empty when the text holds none.
 */
export function boilerplateRanges(text: string): [number, number][] {
  if (!MAY_HOLD_BLOCK.test(text)) return [];
  const ranges: [number, number][] = [];
  let start = 0;
  LINE_BREAKS.lastIndex = 0;
  for (;;) {
    const match = LINE_BREAKS.exec(text);
    const end = match ? match.index : text.length;
    const shown = comparableOwnLine(text.slice(start, end));
    if (shown !== undefined && isOwnLine(shown)) ranges.push([start, end]);
    if (!match) return ranges;
    start = match.index + match[0].length;
  }
}

/** The rendered block in `text`, or undefined when no line of it is the block's marker or one of its own lines. */
export function renderedBlockOf(text: string): RenderedBlock | undefined {
  if (!MAY_HOLD_BLOCK.test(text)) return undefined;
  let found = false;
  let complete = false;
  for (const line of text.split(LINE_BREAK)) {
    const shown = comparableOwnLine(line);
    if (shown === undefined) continue;
    if (shown === MARKER) {
      found = true;
      complete = true;
      break;
    }
    if (shown.startsWith(MARKER) || OWN_LINES.has(shown)) found = true;
  }
  if (!found) return undefined;
  return { complete, recordIds: [...new Set(text.match(RECORD_ID) ?? [])] };
}

/**
 * The last user or system message of `messages` that is a complete rendered block naming no record the session
 * holds (`holds`), with the ids it names: the one a session imports as an external summary. A block naming a record
 * the session holds is linked to it (its spans are known: nothing is imported); a fragment, or a block inside a tool
 * result, is only quoted.
 */
export function foreignBlock(
  messages: readonly { readonly role: string; readonly content: string }[],
  holds: (recordId: string) => boolean,
): { readonly index: number; readonly recordIds: readonly string[] } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    // Not validated yet (the session validates each message as it ingests it): skip anything malformed.
    const message: unknown = messages[index];
    if (typeof message !== 'object' || message === null) continue;
    const { role, content } = message as { role?: unknown; content?: unknown };
    if ((role !== 'user' && role !== 'system') || typeof content !== 'string') continue;
    const block = renderedBlockOf(content);
    if (block?.complete && !block.recordIds.some(holds)) return { index, recordIds: block.recordIds };
  }
  return undefined;
}

/** A line of the block's handle index: `label: handle | handle | …`. */
const INDEX_LINE = /^[a-z][a-z -]*: .* \| /;

/**
 * The text a re-ingested block is recorded with as a summary: the block itself when it fits `budgetTokens`, else
 * the block without its longest handle-index lines (their handles stay in the stored span), then without its last
 * lines before the closing hint, and a line naming where the whole block is stored (`spanId`, its first span).
 * Never cut inside a line.
 */
export function blockSummary(text: string, budgetTokens: number, counter: TokenCounter, spanId: string): string {
  if (counter.count(text) <= budgetTokens) return text;
  const lines = text.split('\n');
  const note = (removed: number) =>
    `(${removed} lines of this block are not shown here; it is stored whole from span ${spanId}: recall it.)`;
  const kept = lines.map((line, index) => ({ line, index }));
  const size = () => counter.count([...kept.map((entry) => entry.line), note(lines.length - kept.length)].join('\n'));
  const byLength = kept.filter((entry) => INDEX_LINE.test(entry.line)).sort((a, b) => b.line.length - a.line.length);
  for (const entry of byLength) {
    if (size() <= budgetTokens) break;
    kept.splice(kept.indexOf(entry), 1);
  }
  while (kept.length > 2 && size() > budgetTokens) kept.splice(kept.length - 2, 1);
  return [...kept.map((entry) => entry.line), note(lines.length - kept.length)].join('\n');
}
