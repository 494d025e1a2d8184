/**
 * The ledger block: pinned constraints and handle index (frozen at the active record's index base, see
 * `stable-index.ts`), then what each compaction changes: which record is in the window, its summary, the entries
 * added since the base, the checkpoint; then gaps and how to recall. Its lines are built here one kind at a time, so
 * the frame estimate (`frame-estimate.ts`) measures the same lines the block shows.
 */
import { entryText, pinnedLine } from '../handle-index/entry-lines.js';
import type { IndexEntry, IndexLayout } from '../handle-index/index-layout.js';
import type { CompactionRecord, Handle } from '../types.js';
import { unrecoverableGaps } from '../model/gaps.js';
import type { Gap } from '../model/gaps.js';
import type { CheckpointSummary } from '../model/checkpoints.js';
import { GAPS_HEADING, LEDGER_MARKER, RECALL_HINT, SECTION_HEADINGS } from '../text/block-headings.js';
import { neutralizeInline, neutralizeLines } from '../text/neutralize.js';
import { droppedRangeWords } from '../text/range-wording.js';
import { IndexBases } from './stable-index.js';
import { markReplacedEntry, shownSummary } from './replaced-marks.js';
import type { WindowState } from './window-state.js';

/**
 * The handle index text: one line per group (kind), groups and handles most useful first; an entry that states a value
 * a binding among `handles` (the kept handles of the record the layout is of) replaced says so.
 */
function handleIndexLines(layout: IndexLayout, handles: readonly Handle[]): string[] {
  const shown = (entry: IndexEntry) => markReplacedEntry(entryText(entry), handles);
  return layout.groups.map((group) => `${group.label}: ${group.entries.map(shown).join(' | ')}`);
}

/** Why a lossy record is lossy and whether its originals are stored, as the compaction line shows it. */
function lossyNote(findings: CompactionRecord['findings']): string {
  const reason = findings.find((finding) => finding.code !== 'external-summary') ?? findings[findings.length - 1];
  const stored = !findings.some((finding) => finding.code === 'missing-originals');
  const where = stored ? 'originals stored: recall by handle to check a detail' : 'originals NOT stored';
  return reason ? ` (${neutralizeInline(reason.message.slice(0, 160))}; ${where})` : ` (${where})`;
}

/** The lines of a layout: pinned instructions, quoted constraints, the index by kind. */
function layoutLines(
  layout: IndexLayout,
  handles: readonly Handle[],
  headings: (typeof SECTION_HEADINGS)[keyof typeof SECTION_HEADINGS],
): string[] {
  const lines: string[] = [];
  if (layout.instructions.length > 0) {
    lines.push(headings.instructions);
    for (const entry of layout.instructions) lines.push(pinnedLine(entry));
  }
  if (layout.quoted.length > 0) {
    lines.push(headings.quoted);
    for (const entry of layout.quoted) lines.push(pinnedLine(entry));
  }
  const index = handleIndexLines(layout, handles);
  if (index.length > 0) lines.push(headings.index, ...index);
  return lines;
}

/** What the line naming the record in the window shows of it. */
export type CompactionLineFields = Pick<CompactionRecord, 'id' | 'depth' | 'reversible' | 'droppedRange' | 'findings'>;

/** The line naming the record in the window: the turns it covers, its id and depth, lossless or why lossy. */
export function compactionLine(record: CompactionLineFields): string {
  const { fromSeq, toSeq } = record.droppedRange;
  const flag = record.reversible ? 'lossless' : `LOSSY${lossyNote(record.findings)}`;
  const range =
    toSeq < fromSeq ? 'History from before this ledger began was' : `Earlier turns (seq ${fromSeq}-${toSeq}) were`;
  return `${range} compacted into record ${record.id}, depth ${record.depth}, ${flag}.`;
}

/** The line naming the spill checkpoint of the record in the window and how many handles it holds. */
export function checkpointLine(checkpoint: CheckpointSummary): string {
  const note =
    checkpoint.userConstraints > 0
      ? ` (including ${checkpoint.userConstraints} older user or system constraints that did not fit: read them before acting)`
      : '';
  return `${checkpoint.count} more handles are in checkpoint ${checkpoint.id}${note}: recall "${checkpoint.id}" to list them.`;
}

/** The gaps section: the last three gaps that cannot be recovered, and how many earlier ones there are. */
export function gapLines(unrecoverable: readonly Gap[]): string[] {
  if (unrecoverable.length === 0) return [];
  const lines = [GAPS_HEADING];
  for (const gap of unrecoverable.slice(-3)) {
    const range = droppedRangeWords(gap.droppedRange, { bytes: false });
    lines.push(
      `- ${gap.recordId} (${range}): ${neutralizeInline((gap.reasons[0] ?? 'lossy').slice(0, 160))}; ` +
        neutralizeInline(gap.reread.slice(0, 200)),
    );
  }
  if (unrecoverable.length > 3)
    lines.push(`- and ${unrecoverable.length - 3} earlier gaps (list them with the gaps tool).`);
  return lines;
}

/** The block's first line and its last (how to recall), around the lines of the record, checkpoint and gaps. */
export function blockText(lines: readonly string[]): string {
  return [LEDGER_MARKER, ...lines, RECALL_HINT].join('\n');
}

/**
 * The ledger block of a window state (see the module comment), or undefined when there is no record in the window
 * and no gap to show. Between compactions the block does not change; at a compaction its first lines stay the same
 * as long as the base holds. `indexBases`: where the records' layouts are held (a session's, or a fresh one: the same
 * text).
 */
export function ledgerBlock(state: WindowState, indexBases: IndexBases = new IndexBases()): string | undefined {
  const { active, checkpoint } = state;
  const gaps = unrecoverableGaps(state.gaps);
  if (!active && gaps.length === 0) return undefined;
  const lines: string[] = [];
  if (active) {
    const base = state.indexBase ?? active;
    lines.push(...layoutLines(indexBases.layoutOf(base), base.handles, SECTION_HEADINGS.base));
    lines.push(compactionLine(active));
    if (active.summary.length > 0) lines.push(`Summary: ${neutralizeLines(shownSummary(active))}`);
    lines.push(...layoutLines(indexBases.layoutSince(active, base), active.handles, SECTION_HEADINGS.since));
    if (checkpoint) lines.push(checkpointLine(checkpoint));
  }
  lines.push(...gapLines(gaps));
  return blockText(lines);
}
