/**
 * Packs an append batch into the column arrays `append_batch()` unnests, so a batch of any
 * size is one statement and one round trip.
 */
import { InvalidInputError } from '../../errors.js';
import type { AppendEntry } from '../store.js';
import { orderEntryHandles, spanRowKey, type TenantDigestMemo } from '../store-input.js';

const NUL = '\u0000';

/** Throws `InvalidInputError` when a string PostgreSQL must store as `text` holds U+0000. */
export function checkNoNul(
  what: string,
  value: string | null | undefined,
  context: Record<string, unknown> = {},
): void {
  if (typeof value === 'string' && value.includes(NUL)) {
    throw new InvalidInputError(
      `${what} contains U+0000, which PostgreSQL text cannot hold (only span text may contain it); ` +
        'remove the character or use the SQLite store.',
      { ...context, field: what },
    );
  }
}

/** Search text of a span: U+0000 replaced by U+FFFD (the exact bytes go to `exact`). */
export function searchableText(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, '\uFFFD') : text;
}

/**
 * The 22 array parameters after session id and expected seq, in `append_batch()` order (span ids as per-tenant row keys,
 * the tenant's digest from the store's `tenantDigests`).
 */
export function packBatch(
  sessionId: string,
  tenantId: string | undefined,
  entries: readonly AppendEntry[],
  tenantDigests?: TenantDigestMemo,
): unknown[] {
  const columns = {
    spanIds: [] as string[],
    kinds: [] as string[],
    texts: [] as string[],
    exacts: [] as (Buffer | null)[],
    toolNames: [] as (string | null)[],
    toolCallIds: [] as (string | null)[],
    tokens: [] as number[],
    roles: [] as string[],
    byteStarts: [] as number[],
    byteEnds: [] as number[],
    labels: [] as (string | null)[],
    chunkIndexes: [] as (number | null)[],
    chunkCounts: [] as (number | null)[],
  };
  const handles = {
    entries: [] as number[],
    positions: [] as number[],
    kinds: [] as string[],
    texts: [] as string[],
    keys: [] as string[],
    starts: [] as number[],
    ends: [] as number[],
    roles: [] as string[],
    tokens: [] as number[],
  };
  entries.forEach((entry, index) => {
    const { span } = entry;
    const context = { sessionId, index, spanId: span.id };
    for (const [what, value] of [
      ['toolName', span.toolName],
      ['toolCallId', span.toolCallId],
      ['label', entry.label],
      ['role', entry.role],
      ['kind', span.kind],
    ] as const) {
      checkNoNul(`append to session ${sessionId}, entry ${index}: ${what}`, value, context);
    }
    columns.spanIds.push(spanRowKey(span.id, tenantId, tenantDigests));
    columns.kinds.push(span.kind);
    columns.texts.push(searchableText(span.text));
    columns.exacts.push(span.text.includes(NUL) ? Buffer.from(span.text, 'utf8') : null);
    columns.toolNames.push(span.toolName ?? null);
    columns.toolCallIds.push(span.toolCallId ?? null);
    columns.tokens.push(span.tokens);
    columns.roles.push(entry.role);
    columns.byteStarts.push(entry.byteStart);
    columns.byteEnds.push(entry.byteEnd);
    columns.labels.push(entry.label ?? null);
    columns.chunkIndexes.push(entry.chunk?.index ?? null);
    columns.chunkCounts.push(entry.chunk?.count ?? null);
    orderEntryHandles(entry.handles).forEach((handle, position) => {
      for (const [what, value] of [
        ['handle text', handle.text],
        ['handle key', handle.key],
        ['handle kind', handle.kind],
        ['handle role', handle.role],
      ] as const) {
        checkNoNul(`append to session ${sessionId}, entry ${index}: ${what}`, value, context);
      }
      handles.entries.push(index);
      handles.positions.push(position);
      handles.kinds.push(handle.kind);
      handles.texts.push(handle.text);
      handles.keys.push(handle.key);
      handles.starts.push(handle.start);
      handles.ends.push(handle.end);
      handles.roles.push(handle.role);
      handles.tokens.push(handle.tokens);
    });
  });
  return [...Object.values(columns), ...Object.values(handles)];
}
