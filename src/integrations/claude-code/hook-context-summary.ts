/**
 * What the agent's own summary says the work is about, as a ranking signal for the SessionStart(compact) context.
 *
 * The summary names the files, packages and symbols of the current task in its own words (`list/data.go`, "the
 * `paths` package"), while the handles it dropped are the verbatim forms around them (`/Users/…/cli/list/data.go`,
 * `paths.ParseCheckpointTrailer`). A candidate sharing a name part with the summary belongs to the work the next turns
 * continue; one that shares nothing is more often a symbol of a file the agent read once. A name part is a run of
 * letters, digits and `_` of at least {@link MIN_NAME_PART} characters holding a letter; parts that most candidates
 * hold (`session` in a session manager) tell nothing and are not counted ({@link COMMON_PART_SHARE}).
 */
import type { Handle } from '../../types.js';

/** Shortest name part that counts (`data` and `list`, not `go`, `cmd` or `cli`). */
export const MIN_NAME_PART = 4;

/** A part held by more than this share of the candidates is too common to single any of them out. */
export const COMMON_PART_SHARE = 0.05;

const PART = /[A-Za-z0-9_]+/g;
const LETTER = /[A-Za-z]/;

/** The distinct name parts of `text`, lower-cased. */
export function nameParts(text: string): Set<string> {
  const parts = new Set<string>();
  for (const match of text.matchAll(PART)) {
    const part = match[0];
    if (part.length >= MIN_NAME_PART && LETTER.test(part)) parts.add(part.toLowerCase());
  }
  return parts;
}

/**
 * The candidates that share a telling name part with `summary`: a part the summary holds and that at most
 * {@link COMMON_PART_SHARE} of the candidates (and at least one) hold.
 */
export function namedBySummary(candidates: readonly Handle[], summary: string): Set<Handle> {
  const inSummary = nameParts(summary);
  const named = new Set<Handle>();
  if (inSummary.size === 0) return named;
  const partsOf = candidates.map((handle) => [...nameParts(handle.text)].filter((part) => inSummary.has(part)));
  const holders = new Map<string, number>();
  for (const parts of partsOf) for (const part of parts) holders.set(part, (holders.get(part) ?? 0) + 1);
  const most = Math.max(1, Math.floor(COMMON_PART_SHARE * candidates.length));
  candidates.forEach((handle, index) => {
    if ((partsOf[index] ?? []).some((part) => (holders.get(part) ?? 0) <= most)) named.add(handle);
  });
  return named;
}
