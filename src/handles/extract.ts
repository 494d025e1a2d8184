/**
 * Handle extraction: every verbatim discriminator in a text, with its kind, offsets and
 * normalised key. Detection runs a handful of global passes (one token pass, method
 * routes, product versions, month-name dates, config lines, numbers, error lines and a
 * constraint trigger pass that only segments lines holding a trigger), then resolves
 * overlaps (see `resolve.ts`). For every handle, `text === input.slice(start, end)`.
 */
import type { ExtractedHandle, HandleKind } from '../types.js';
import { HANDLE_KINDS } from '../types.js';
import { findConfigLines } from './assignments.js';
import type { Candidate } from './candidate.js';
import { findConstraints } from './constraints.js';
import { findWordDates } from './dates.js';
import { findMethodRoutes } from './endpoints.js';
import { findErrorLines } from './errors.js';
import { handleKey } from './normalize.js';
import { findNumbers } from './numbers.js';
import { resolveCandidates } from './resolve.js';
import { findTokenHandles } from './tokens.js';
import { findProductVersions } from './versions.js';

/** Options of {@link extractHandles}. */
export interface ExtractOptions {
  /** Kinds to return (default: all of `HANDLE_KINDS`). Overlaps are resolved before filtering. */
  readonly kinds?: readonly HandleKind[];
}

const TOKEN_KINDS: readonly HandleKind[] = ['path', 'url', 'endpoint', 'identifier', 'version', 'email', 'date', 'assignment'];

/**
 * Extracts handles from `text`, sorted by start offset, then `HANDLE_KINDS` order.
 * Deterministic: the same input always yields the same handles.
 */
export function extractHandles(text: string, options?: ExtractOptions): ExtractedHandle[] {
  const kinds = new Set<HandleKind>(options?.kinds ?? HANDLE_KINDS);
  const candidates: Candidate[] = [];
  if (TOKEN_KINDS.some((kind) => kinds.has(kind))) {
    findTokenHandles(text, candidates);
    findMethodRoutes(text, candidates);
    findProductVersions(text, candidates);
    findWordDates(text, candidates);
  }
  if (kinds.has('assignment') || kinds.has('number')) findConfigLines(text, candidates);
  if (kinds.has('number')) findNumbers(text, candidates);
  if (kinds.has('error')) findErrorLines(text, candidates);
  if (kinds.has('constraint')) findConstraints(text, candidates);
  const handles: ExtractedHandle[] = [];
  for (const candidate of resolveCandidates(candidates)) {
    if (!kinds.has(candidate.kind)) continue;
    const handleText = text.slice(candidate.start, candidate.end);
    handles.push({ kind: candidate.kind, text: handleText, key: handleKey(candidate.kind, handleText), start: candidate.start, end: candidate.end });
  }
  return handles;
}
