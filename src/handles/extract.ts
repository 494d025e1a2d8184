/**
 * Handle extraction: every verbatim discriminator in a text, with its kind, offsets and
 * normalised key. Detection runs on a view of the text with markup blanked out (terminal
 * escapes, JSON string escapes, tags, line-number gutters: see `markup.ts`) and is three
 * passes — a char-code token scan (which also anchors numbers, month-name dates, product
 * versions and method routes on the tokens; an `apply_patch` header's file is a path there too,
 * `patch-headers.ts`), a line pass (error lines, config lines) and a constraint trigger pass.
 * Candidates that overlap markup, or start or end inside a word, are dropped; then overlaps are
 * resolved (see `resolve.ts`). For every handle, `text === input.slice(start, end)`.
 */
import type { ExtractedHandle, HandleKind } from '../types.js';
import { HANDLE_KINDS } from '../types.js';
import { findBindings } from './bindings.js';
import type { Candidate } from './candidate.js';
import { findAmounts } from './amounts.js';
import { findConstraints } from './constraints.js';
import { findLineHandles } from './lines.js';
import { maskMarkup } from './markup.js';
import { findPatchHeaders } from './patch-headers.js';
import { findStructTags } from './struct-tags.js';
import type { MarkupView } from './markup.js';
import { handleKey } from './normalize.js';
import { resolveCandidates } from './resolve.js';
import type { TokenMemo } from './token-memo.js';
import { findTokenHandles } from './token-scan.js';

/** Options of {@link extractHandles}. */
export interface ExtractOptions {
  /** Kinds to return (default: all of `HANDLE_KINDS`). Overlaps are resolved before filtering. */
  readonly kinds?: readonly HandleKind[];
  /** The text is tool output: `12\t` / `12: ` line starts are line-number gutters (default false). */
  readonly toolOutput?: boolean | undefined;
  /** Also bind values to the labels that name them in prose, as `assignment` handles (default true; `bindings.ts`). */
  readonly bindings?: boolean | undefined;
  /**
   * The memo of token classifications the caller keeps across calls (`token-memo.ts`; a session keeps one). Without
   * it no memo is used: the same handles, each token classified afresh.
   */
  readonly memo?: TokenMemo | undefined;
}

const TOKEN_KINDS: readonly HandleKind[] = [
  'path',
  'url',
  'endpoint',
  'identifier',
  'version',
  'email',
  'date',
  'assignment',
];

const ALL_KINDS: ReadonlySet<HandleKind> = new Set<HandleKind>(HANDLE_KINDS);

function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** A candidate is clean when it overlaps no markup and neither starts nor ends inside a word of the view. */
function isClean(view: string, markup: MarkupView, candidate: Candidate): boolean {
  const { start, end } = candidate;
  // No read before the view's start or past its end (NaN is no word character; such a read deoptimizes this).
  if (start > 0 && isWordCode(view.charCodeAt(start)) && isWordCode(view.charCodeAt(start - 1))) return false;
  if (end < view.length && isWordCode(view.charCodeAt(end - 1)) && isWordCode(view.charCodeAt(end))) return false;
  return !markup.masked || !markup.isMasked(start, end);
}

/**
 * Extracts handles from `text`, sorted by start offset, then `HANDLE_KINDS` order.
 * Deterministic: the same input always yields the same handles.
 */
export function extractHandles(text: string, options?: ExtractOptions): ExtractedHandle[] {
  const kinds = options?.kinds === undefined ? ALL_KINDS : new Set<HandleKind>(options.kinds);
  const markup = maskMarkup(text, { toolOutput: options?.toolOutput });
  const { view } = markup;
  const candidates: Candidate[] = [];
  const numbers = kinds.has('number');
  if (numbers || TOKEN_KINDS.some((kind) => kinds.has(kind)))
    findTokenHandles(view, { numbers, source: text, memo: options?.memo }, candidates);
  if (kinds.has('path')) findPatchHeaders(view, candidates);
  const config = kinds.has('assignment') || numbers;
  if (config || kinds.has('error'))
    findLineHandles(view, { errors: kinds.has('error'), config, gutterLines: markup.gutterLines }, candidates);
  const bindings = kinds.has('assignment') && options?.bindings !== false;
  // Money amounts are values to bind as well as numbers: found once for both.
  const amounts: Candidate[] = [];
  if (numbers || bindings) findAmounts(view, amounts);
  if (bindings) findBindings(view, candidates, candidates, amounts);
  // A tagged struct field the conversation states (a plan, a review, an edit) binds its tag; a file a tool printed is
  // code to read again, and its every field would crowd the index (`struct-tags.ts`).
  if (bindings && options?.toolOutput !== true) findStructTags(view, candidates);
  if (numbers) for (const amount of amounts) candidates.push(amount);
  // A tool's output is read as a document: only its prose's rules count (a README, a config comment, a ticket), never
  // its code, logs, diffs or examples, and they are pinned as quoted output (see `constraints.ts`).
  if (kinds.has('constraint'))
    findConstraints(view, candidates, markup.gutterLines, { toolOutput: options?.toolOutput === true });
  const clean: Candidate[] = [];
  for (const candidate of candidates) if (isClean(view, markup, candidate)) clean.push(candidate);
  const handles: ExtractedHandle[] = [];
  for (const candidate of resolveCandidates(clean)) {
    if (!kinds.has(candidate.kind)) continue;
    const handleText = text.slice(candidate.start, candidate.end);
    handles.push({
      kind: candidate.kind,
      text: handleText,
      key: handleKey(candidate.kind, handleText),
      start: candidate.start,
      end: candidate.end,
    });
  }
  return handles;
}
