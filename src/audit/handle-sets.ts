/**
 * Handle bookkeeping for audits: identity (kind + normalised key), verbatim containment,
 * first appearances, counts by kind, and the handles an agent *used* in a message.
 */
import { extractHandles } from '../handles/extract.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { ExtractedHandle, Handle, HandleKind } from '../types.js';
import type { KindCounts } from './types.js';

/** Identity of a handle across spellings: kind and normalised key. */
export function handleIdentityKey(handle: Pick<ExtractedHandle, 'kind' | 'key'>): string {
  return `${handle.kind}\u0000${handle.key}`;
}

/** One distinct handle before a boundary: its first appearance and every verbatim spelling seen. */
export interface HandleEntry {
  /** Identity (kind + key). */
  readonly identity: string;
  /** First appearance. */
  readonly first: Handle;
  /** Every verbatim text seen for this identity. */
  readonly variants: ReadonlySet<string>;
}

const WORD = /[A-Za-z0-9_]/;

/**
 * True when `haystack` contains `needle` verbatim and not as part of a longer word
 * (`42` does not count inside `1425`; `lib/a.ex` counts inside `lib/a.ex:12`).
 */
export function containsVerbatim(haystack: string, needle: string): boolean {
  if (needle.length === 0) return false;
  const wordStart = WORD.test(needle[0] ?? '');
  const wordEnd = WORD.test(needle[needle.length - 1] ?? '');
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1] ?? ' ';
    const after = haystack[at + needle.length] ?? ' ';
    if ((!wordStart || !WORD.test(before)) && (!wordEnd || !WORD.test(after))) return true;
  }
  return false;
}

/** True when `text` contains any spelling of the entry verbatim. */
export function containsEntry(text: string, entry: HandleEntry): boolean {
  for (const variant of entry.variants) if (containsVerbatim(text, variant)) return true;
  return false;
}

/** Group handles (ordered by seq) into distinct entries, keyed by identity, in order of first appearance. */
export function entriesOf(handles: readonly Handle[]): Map<string, HandleEntry> {
  const entries = new Map<string, { identity: string; first: Handle; variants: Set<string> }>();
  for (const handle of handles) {
    const identity = handleIdentityKey(handle);
    const entry = entries.get(identity);
    if (entry) entry.variants.add(handle.text);
    else entries.set(identity, { identity, first: handle, variants: new Set([handle.text]) });
  }
  return entries;
}

/** Count entries by kind. */
export function countByKind(
  entries: Iterable<{ readonly first: Pick<Handle, 'kind'> } | Pick<Handle, 'kind'>>,
): KindCounts {
  const counts: Partial<Record<HandleKind, number>> = {};
  for (const item of entries) {
    const kind = 'first' in item ? item.first.kind : item.kind;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** The string values in `value`, depth first in order, with an explicit stack (a tool input may nest thousands deep). */
function stringValues(value: unknown, out: string[]): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'object' && item !== null) {
      const children = Array.isArray(item) ? (item as unknown[]) : Object.values(item);
      for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]);
    }
  }
}

/**
 * Handles an assistant message *uses*: those in its text and in the string values of its
 * tool-call arguments (JSON keys such as `file_path` are the tool's schema, not something
 * the agent remembered; arguments that are not JSON are read whole).
 */
export function usedHandles(message: TranscriptMessage): ExtractedHandle[] {
  if (message.role !== 'assistant') return [];
  const texts = [message.content];
  for (const call of message.toolCalls ?? []) {
    try {
      stringValues(JSON.parse(call.arguments) as unknown, texts);
    } catch {
      texts.push(call.arguments);
    }
  }
  return texts.flatMap((text) => (text.length === 0 ? [] : extractHandles(text)));
}
