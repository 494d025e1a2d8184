/**
 * Handle extraction: every verbatim discriminator in a text, with its kind, offsets and
 * normalised key. Detection is three passes — a char-code token scan (which also anchors
 * numbers, month-name dates, product versions and method routes on the tokens), a line
 * pass (error lines, config lines) and a constraint trigger pass — then overlap
 * resolution (see `resolve.ts`). For every handle, `text === input.slice(start, end)`.
 */
import type { ExtractedHandle, HandleKind } from '../types.js';
import { HANDLE_KINDS } from '../types.js';
import type { Candidate } from './candidate.js';
import { findConstraints } from './constraints.js';
import { findLineHandles } from './lines.js';
import { handleKey } from './normalize.js';
import { resolveCandidates } from './resolve.js';
import { findTokenHandles } from './tokens.js';

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
  const numbers = kinds.has('number');
  if (numbers || TOKEN_KINDS.some((kind) => kinds.has(kind))) findTokenHandles(text, { numbers }, candidates);
  const config = kinds.has('assignment') || numbers;
  if (config || kinds.has('error')) findLineHandles(text, { errors: kinds.has('error'), config }, candidates);
  if (kinds.has('constraint')) findConstraints(text, candidates);
  const handles: ExtractedHandle[] = [];
  for (const candidate of resolveCandidates(candidates)) {
    if (!kinds.has(candidate.kind)) continue;
    const handleText = text.slice(candidate.start, candidate.end);
    handles.push({ kind: candidate.kind, text: handleText, key: handleKey(candidate.kind, handleText), start: candidate.start, end: candidate.end });
  }
  return handles;
}
