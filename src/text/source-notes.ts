/**
 * How text of a quoted source (a user turn the user did not type) is named wherever it is shown: the rendered window's
 * display prefix, recall hits, expand and grep results. One place, so every view says the same.
 */
import type { QuotedSource, SourceKind } from '../types.js';

/** The note naming who wrote the text of each quoted source. */
export const QUOTED_SOURCE_NOTES: Readonly<Record<QuotedSource, string>> = {
  client: 'written by a tool client through MCP append, not by the user',
  harness: 'from the agent harness, not typed by the user',
};

/** The quoted source a span of this kind is from, or undefined for the chat roles' own kinds. */
export function quotedSourceOf(kind: SourceKind): QuotedSource | undefined {
  return kind === 'client' || kind === 'harness' ? kind : undefined;
}

/** `{ source: "<source>: <note>" }` for a quoted source (or a span kind of one), `{}` otherwise (spread into a view). */
export function sourceField(kind: SourceKind | undefined): { source?: string } {
  const source = kind === undefined ? undefined : quotedSourceOf(kind);
  return source === undefined ? {} : { source: `${source}: ${QUOTED_SOURCE_NOTES[source]}` };
}
