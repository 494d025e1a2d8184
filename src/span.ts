import { createHash } from 'node:crypto';
import type { SourceKind, Role, Span } from './types.js';

/** Canonical bytes of a span: kind, tool name, tool call id and text, NUL-separated, UTF-8. */
export function canonicalSpanBytes(input: { kind: SourceKind; text: string; toolName?: string | undefined; toolCallId?: string | undefined }): Buffer {
  return Buffer.from(['cl-span-v1', input.kind, input.toolName ?? '', input.toolCallId ?? '', input.text].join('\u0000'), 'utf8');
}

/** The content address of a span: `sha256:<hex>`. */
export function spanId(input: { kind: SourceKind; text: string; toolName?: string | undefined; toolCallId?: string | undefined }): string {
  return 'sha256:' + createHash('sha256').update(canonicalSpanBytes(input)).digest('hex');
}

/** True when the span's id matches the hash of its content. */
export function verifySpan(span: Span): boolean {
  return spanId(span) === span.id;
}

/** Build an immutable span, hashing its canonical form. */
export function createSpan(input: { kind: SourceKind; text: string; toolName?: string | undefined; toolCallId?: string | undefined; tokens: number }): Span {
  return Object.freeze({
    id: spanId(input),
    kind: input.kind,
    text: input.text,
    toolName: input.toolName,
    toolCallId: input.toolCallId,
    tokens: input.tokens,
  });
}

/** The role a span of this kind is rendered under. */
export function roleOf(kind: SourceKind): Role {
  switch (kind) {
    case 'system':
      return 'system';
    case 'user':
      return 'user';
    case 'assistant':
    case 'tool-call':
      return 'assistant';
    case 'tool-result':
      return 'tool';
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when the text is well-formed UTF-16 (no lone surrogates). Ill-formed text cannot be
 * stored verbatim: UTF-8 encoding turns every lone surrogate into U+FFFD, so two different
 * strings would share one content address.
 */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
