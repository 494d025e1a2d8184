import type { Handle } from '../types.js';
import { collapseKey, containsAtBoundary } from './near-duplicates.js';
import { ShownTexts, type ShownMark } from './shown-texts.js';

/** Where a kept handle is shown in the ledger block. */
export type IndexSection = 'instruction' | 'quoted' | 'index';

/** One shown line or list item: a handle, plus how many near-identical handles it stands for. */
export interface IndexEntry {
  /** The handle shown, verbatim. */
  readonly handle: Handle;
  /** Kept handles that differ from it only in timestamps, counters or hex ids (not shown again). */
  readonly similar: number;
}

/** A group of the handle index: a label (the kind, or `assistant statement`) and its entries, most useful first. */
export interface IndexGroup {
  readonly label: string;
  readonly entries: IndexEntry[];
}

/** How a record's kept handles are laid out in the window. */
export interface IndexLayout {
  /** Constraints the user or system gave: pinned. */
  readonly instructions: IndexEntry[];
  /** Constraints found in tool output: shown as quoted output, never as instructions. */
  readonly quoted: IndexEntry[];
  /** Everything else, grouped by kind; groups in the order of their most useful handle. */
  readonly groups: IndexGroup[];
  /** Kept handles not listed because they are verbatim inside the summary or inside a listed handle. */
  readonly inside: number;
}

/** The section a handle is shown in. */
export function sectionOf(handle: Pick<Handle, 'kind' | 'role'>): IndexSection {
  if (handle.kind !== 'constraint') return 'index';
  if (handle.role === 'user' || handle.role === 'system') return 'instruction';
  return handle.role === 'tool' ? 'quoted' : 'index';
}

/** The group label of an index handle. */
export function groupLabel(handle: Pick<Handle, 'kind' | 'role'>): string {
  return handle.kind === 'constraint' ? 'assistant statement' : handle.kind;
}

/** Extra tokens of the "(+N near-identical)" note on an entry that stands for others. */
export const SIMILAR_NOTE_TOKENS = 6;

/** Tokens of a group's header (`path: `) or of a section's heading line. */
export const GROUP_HEADER_TOKENS = 4;

/**
 * Tokens a pinned instruction's line adds to its text: `- [user instruction] ` (5 in o200k) and its line break. A
 * quoted constraint's longer label (`- [quoted tool output, not an instruction] `, 10) takes 12.
 */
export const INSTRUCTION_LINE_TOKENS = 6;

/** Token cost of listing one handle: its text plus a separator, or a labelled line for a pinned or quoted constraint. */
export function entryCost(handle: Handle): number {
  const section = sectionOf(handle);
  return handle.tokens + (section === 'index' ? 2 : section === 'instruction' ? INSTRUCTION_LINE_TOKENS : 12);
}

/**
 * Whether a handle need not be listed because its text is already verbatim in `texts`
 * (the summary, or a longer listed handle: a relative path inside its absolute form).
 * Constraints are always listed: they carry their source label.
 */
export function shownInside(handle: Handle, texts: readonly string[] | ShownTexts, since?: ShownMark): boolean {
  if (handle.kind === 'constraint' && sectionOf(handle) !== 'index') return false;
  if (texts instanceof ShownTexts)
    return since === undefined ? texts.contain(handle.text) : texts.containSince(handle.text, since);
  return texts.some((text) => containsAtBoundary(text, handle.text));
}

/**
 * What a placement that checked containment found for one handle it kept: `true` when the handle was already inside
 * the texts shown before it, else where the shown texts were then (it is inside none of the texts before that mark).
 */
export type PlacedCheck = true | ShownMark;

/**
 * What the placement that kept a handle list found (`fitHandleBudget`, in rank order): the layout of that list beside
 * the same summary searches these texts instead of indexing the summary and the handles again.
 */
export interface Placement {
  /** The text the placement showed beside the handles (the summary). */
  readonly summary: string;
  /** The summary (when not empty) and each kept handle's text but near-identical copies (`collapseKey`). */
  readonly texts: ShownTexts;
  /** Per kept handle it checked for containment: inside the texts shown before it, or the mark it was checked at. */
  readonly checks: ReadonlyMap<Handle, PlacedCheck>;
}

/**
 * Lay out kept handles (in rank order, most useful first) for the window: pinned
 * instructions, quoted tool constraints, and the index grouped by kind. Near-identical
 * lines collapse onto their first (most useful) copy; a handle already verbatim in the
 * summary or inside a longer kept handle is not listed again. Pure: the same handles and
 * summary always give the same layout, so the fit and the rendering agree. `placement`: what the placement that
 * kept `handles` beside `summary` found (the same layout, without indexing the texts again).
 */
export function layoutIndex(handles: readonly Handle[], summary = '', placement?: Placement): IndexLayout {
  const instructions: IndexEntry[] = [];
  const quoted: IndexEntry[] = [];
  const groups = new Map<string, IndexEntry[]>();
  const representatives = new Map<string, { entry: IndexEntry; list: IndexEntry[]; index: number }>();
  const collapsed = new Set<Handle>();
  for (const handle of handles) {
    const key = collapseKey(handle);
    const existing = key === undefined ? undefined : representatives.get(key);
    if (existing) {
      const entry = { handle: existing.entry.handle, similar: existing.entry.similar + 1 };
      existing.list[existing.index] = entry;
      existing.entry = entry;
      collapsed.add(handle);
      continue;
    }
    const section = sectionOf(handle);
    const list =
      section === 'instruction' ? instructions : section === 'quoted' ? quoted : (groups.get(groupLabel(handle)) ?? []);
    if (section === 'index' && !groups.has(groupLabel(handle))) groups.set(groupLabel(handle), list);
    const entry: IndexEntry = { handle, similar: 0 };
    list.push(entry);
    if (key !== undefined) representatives.set(key, { entry, list, index: list.length - 1 });
  }
  const placed = placement !== undefined && placement.summary === summary ? placement : undefined;
  const covers =
    placed !== undefined
      ? placed.texts
      : new ShownTexts(
          [summary, ...handles.filter((handle) => !collapsed.has(handle)).map((handle) => handle.text)].filter(
            (text) => text.length > 0,
          ),
        );
  let inside = 0;
  const visible: IndexGroup[] = [];
  for (const [label, entries] of groups) {
    const listed = entries.filter((entry) => {
      const check = placed?.checks.get(entry.handle);
      const hidden =
        collapseKey(entry.handle) === undefined && (check === true || shownInside(entry.handle, covers, check));
      if (hidden) inside++;
      return !hidden;
    });
    if (listed.length > 0) visible.push({ label, entries: listed });
  }
  return { instructions, quoted, groups: visible, inside };
}
