import { createHash } from 'node:crypto';
import type { SourceKind, Role, Span } from '../types.js';

/** The fields of a span that its content address covers. */
export interface SpanContent {
  readonly kind: SourceKind;
  readonly text: string;
  readonly toolName?: string | undefined;
  readonly toolCallId?: string | undefined;
}

/** Version tag of the canonical form written today. */
export const SPAN_CANONICAL_VERSION = 'cl-span-v2';

/**
 * The canonical form as UTF-8 text pieces, in order: the version tag and a newline, then each field as
 * `<UTF-8 byte length>:` and its text, or `-` when absent. The bytes and the id are both built from these.
 */
function canonicalPieces(input: SpanContent): string[] {
  const pieces = [`${SPAN_CANONICAL_VERSION}\n`];
  for (const value of [input.kind, input.toolName ?? undefined, input.toolCallId ?? undefined, input.text]) {
    if (value === undefined) pieces.push('-');
    else pieces.push(`${Buffer.byteLength(value, 'utf8')}:`, value);
  }
  return pieces;
}

/**
 * Canonical bytes of a span (`cl-span-v2`): the version tag and a newline, then kind, tool name,
 * tool call id and text, each as `<UTF-8 byte length>:<bytes>` (or `-` when absent). The length
 * prefixes make the form unambiguous whatever the fields contain (U+0000 included), and an
 * absent tool name differs from an empty one. Typed as the `Uint8Array` it is (a Node `Buffer` at run time), so
 * the published declarations compile for a consumer without Node's types.
 */
export function canonicalSpanBytes(input: SpanContent): Uint8Array {
  return Buffer.concat(canonicalPieces(input).map((piece) => Buffer.from(piece, 'utf8')));
}

/**
 * Canonical bytes of the retired `cl-span-v1` form (fields joined with U+0000), kept only to
 * verify spans stored before v2. It is ambiguous when a tool name or tool call id holds U+0000.
 */
export function legacyCanonicalSpanBytes(input: SpanContent): Uint8Array {
  return Buffer.from(
    ['cl-span-v1', input.kind, input.toolName ?? '', input.toolCallId ?? '', input.text].join('\u0000'),
    'utf8',
  );
}

function sha256Id(bytes: Uint8Array): string {
  return 'sha256:' + createHash('sha256').update(bytes).digest('hex');
}

/** Hex digits of the short span id a masked stub shows (48 bits: a collision in one session is vanishingly rare). */
export const SHORT_SPAN_ID_HEX = 12;

/** Fewest hex digits a span-id prefix given to recall may have. */
export const MIN_SPAN_ID_PREFIX_HEX = 4;

/** The short form of a span id (`sha256:` and its first `SHORT_SPAN_ID_HEX` hex digits); recall resolves it to the span. */
export function shortSpanId(id: string): string {
  return id.slice(0, 'sha256:'.length + SHORT_SPAN_ID_HEX);
}

/** Whether `query` is a span-id prefix (`sha256:` and 4 to 63 lowercase hex digits), not a whole id. */
export function isSpanIdPrefix(query: string): boolean {
  return new RegExp(`^sha256:[0-9a-f]{${MIN_SPAN_ID_PREFIX_HEX},63}$`).test(query);
}

/**
 * The content address of a span: `sha256:<hex>` of its `cl-span-v2` canonical bytes
 * ({@link canonicalSpanBytes}), fed to the hash field by field instead of built as one buffer
 * (no copy of the text's UTF-8 bytes; a span id is computed at every append and its store check).
 */
export function spanId(input: SpanContent): string {
  const hash = createHash('sha256');
  for (const piece of canonicalPieces(input)) hash.update(piece, 'utf8');
  return 'sha256:' + hash.digest('hex');
}

/**
 * Spans built here (`frozenSpan`): frozen plain objects with exactly the fields of a span, each a data property, so
 * their content can never change after they are built. Module-level on purpose: a mark of objects this module made
 * (what a private brand of a class would be), not a memo of anything read; weak, so it holds no span alive.
 */
const builtHere = new WeakSet<Span>();

/**
 * Spans built here whose id is known to be the `cl-span-v2` hash of their content: hashed when built
 * (`createSpan`), or checked once (`hasCurrentSpanId`). A span is appended, checked by the store, compacted and
 * re-read by later compactions; its text is hashed once, not at each step. Module-level on purpose: it holds only
 * frozen spans built here, whose check is a pure function of fields that cannot change, so the answer is the one
 * hashing again gives, whatever came before; weak, so it holds no span alive.
 */
const verifiedSpans = new WeakSet<Span>();

/** A tool field as `frozenSpan` holds it: a string or undefined (never null). */
const isFieldValue = (value: unknown) => value === undefined || typeof value === 'string';

/** A frozen span with the fields of `span`, in the order `createSpan` gives them (absent tool fields undefined). */
export function frozenSpan(span: Span): Span {
  if (builtHere.has(span)) return span;
  const built: Span = Object.freeze({
    id: span.id,
    kind: span.kind,
    text: span.text,
    toolName: span.toolName ?? undefined,
    toolCallId: span.toolCallId ?? undefined,
    tokens: span.tokens,
  });
  builtHere.add(built);
  return built;
}

/** True when the span's id is the `cl-span-v2` hash of its content (what every append requires). */
export function hasCurrentSpanId(span: Span): boolean {
  if (verifiedSpans.has(span)) return true;
  const current = spanId(span) === span.id;
  if (current && builtHere.has(span)) verifiedSpans.add(span);
  return current;
}

/**
 * True when the span's id matches the hash of its content: the current `cl-span-v2` form, or,
 * for spans stored by earlier versions, the `cl-span-v1` form, accepted only when neither tool
 * field holds U+0000 (the one case where v1 bytes decode to a single content). A v1 row whose
 * tool fields hold U+0000 may carry another writer's text under a shared id, so it reads as
 * unverified.
 */
export function verifySpan(span: Span): boolean {
  if (hasCurrentSpanId(span)) return true;
  const unambiguous = !(span.toolName ?? '').includes('\u0000') && !(span.toolCallId ?? '').includes('\u0000');
  return unambiguous && sha256Id(legacyCanonicalSpanBytes(span)) === span.id;
}

/** True when two spans have the same addressed content (kind, tool name, tool call id, text). */
export function sameSpanContent(a: SpanContent, b: SpanContent): boolean {
  return (
    a.kind === b.kind &&
    a.text === b.text &&
    (a.toolName ?? undefined) === (b.toolName ?? undefined) &&
    (a.toolCallId ?? undefined) === (b.toolCallId ?? undefined)
  );
}

/** Build an immutable span, hashing its canonical form. */
export function createSpan(input: SpanContent & { tokens: number }): Span {
  const span: Span = Object.freeze({
    id: spanId(input),
    kind: input.kind,
    text: input.text,
    toolName: input.toolName,
    toolCallId: input.toolCallId,
    tokens: input.tokens,
  });
  // Its id was just hashed from the very fields it holds, and they cannot change.
  verifiedSpans.add(span);
  if (isFieldValue(span.toolName) && isFieldValue(span.toolCallId)) builtHere.add(span);
  return span;
}

/** The role a span of this kind is rendered under. */
export function roleOf(kind: SourceKind): Role {
  switch (kind) {
    case 'system':
      return 'system';
    case 'user':
    case 'harness':
    case 'client':
      return 'user';
    case 'assistant':
    case 'tool-call':
      return 'assistant';
    case 'tool-result':
      return 'tool';
  }
}

/**
 * The role a handle of a span of this kind speaks with: the span's role, except that text in a user turn the user did
 * not type (`harness`, `client`) speaks as `tool` (quoted output), so its constraints are never pinned as instructions.
 */
export function handleRoleOf(kind: SourceKind): Role {
  return kind === 'harness' || kind === 'client' ? 'tool' : roleOf(kind);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `String.prototype.isWellFormed` (ES2024, in every Node this package supports: V8 11.1 and later), undefined on an
 * older engine, where the regular expression answers. It answers the same question in one native pass: on a replay of a
 * real Claude Code session at a 200,000-token window the expression took about 2 % of the CPU (every message text and
 * every appended span text is checked).
 */
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * True when the text is well-formed UTF-16 (no lone surrogates). Ill-formed text cannot be
 * stored verbatim: UTF-8 encoding turns every lone surrogate into U+FFFD, so two different
 * strings would share one content address.
 */
export function isWellFormedText(text: string): boolean {
  return nativeIsWellFormed === undefined ? !LONE_SURROGATE.test(text) : nativeIsWellFormed.call(text);
}
