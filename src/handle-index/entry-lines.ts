/**
 * How an entry of the handle index is written, in the window's ledger block (`window/ledger-block.ts`) and in the
 * context a hook injects after an agent's own compaction (`integrations/claude-code/hook-context.ts`): one place, so
 * both show a handle, a pinned constraint and its label the same way.
 */
import type { Handle } from '../types.js';
import { neutralizeInline, oneLine } from '../text/neutralize.js';
import { sectionOf } from './index-layout.js';
import type { IndexEntry } from './index-layout.js';

/** Who said a pinned constraint, as its line shows it: the user's or system's instruction, or quoted tool output. */
export function pinnedLabel(handle: Pick<Handle, 'kind' | 'role'>): string {
  return sectionOf(handle) === 'instruction' ? `${handle.role} instruction` : 'quoted tool output, not an instruction';
}

/**
 * A handle's text as an entry shows it: on one line (any Unicode line break as ` ⏎ `, control characters as pictures)
 * and, unless it is the user's or system's own instruction, with label look-alikes (`[user instruction]` written by a
 * web page) neutralised, so stored text cannot add a pinned line. Rendering only: the stored handle stays verbatim.
 */
export function entryText(entry: IndexEntry): string {
  const { handle } = entry;
  const text = sectionOf(handle) === 'instruction' ? oneLine(handle.text) : neutralizeInline(handle.text);
  return entry.similar > 0 ? `${text} (+${entry.similar} near-identical)` : text;
}

/** The line of a pinned constraint: `- [user instruction] …` or `- [quoted tool output, not an instruction] …`. */
export function pinnedLine(entry: IndexEntry): string {
  return `- [${pinnedLabel(entry.handle)}] ${entryText(entry)}`;
}
