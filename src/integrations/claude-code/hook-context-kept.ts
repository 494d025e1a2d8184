/**
 * What the agent still sees after its own compaction, besides the injected context: the text a handle is "kept" in.
 *
 * Claude Code replaces the history with its summary: the summary is what it kept. Codex's remote compaction keeps
 * no summary text at all (its `compacted` line has an empty message): it keeps the developer messages and the most
 * recent user messages verbatim (its replacement history, the user part bounded at about 20,000 tokens:
 * {@link CODEX_KEPT_USER_CHARACTERS}) and an opaque encrypted item. So for a Codex record the kept text is the
 * summary plus those stored turns before the boundary: a handle in them is still in view, and listing it again would
 * spend the 10,000 characters on what the agent already has (on the Codex rollouts of `entire/`, the permissions and
 * skills listings and the AGENTS.md block alone are 25,000 characters).
 */
import type { CompactionRecord, SourceKind } from '../../types.js';

/** Span kinds a Codex compaction keeps verbatim in the user part of its replacement history. */
const CODEX_KEPT_USER_KINDS: ReadonlySet<SourceKind> = new Set<SourceKind>(['user', 'harness', 'client']);

/** Span kinds that say what the work is about in the person's own words. */
export const TYPED_KINDS: ReadonlySet<SourceKind> = new Set<SourceKind>(['user']);

/** Characters of user turns a Codex compaction keeps, newest first (its bound of about 20,000 tokens, at 4 a token). */
export const CODEX_KEPT_USER_CHARACTERS = 80_000;

/** The part of a stored span occurrence this module reads. */
export interface KeptOccurrence {
  readonly seq: number;
  readonly span: { readonly kind: SourceKind; readonly text: string };
}

/**
 * The text the agent keeps in view after `record`: its summary and, when the agent is Codex, the text of the
 * developer (system) spans of `occurrences` (the spans before the boundary) and of its user and harness spans, newest
 * first up to {@link CODEX_KEPT_USER_CHARACTERS}, each once. `kinds` narrows which spans count (for example
 * {@link TYPED_KINDS}: what the person typed).
 */
export function keptText(
  record: Pick<CompactionRecord, 'summary' | 'summarizer'>,
  occurrences: Iterable<KeptOccurrence>,
  kinds?: ReadonlySet<SourceKind>,
): string {
  if (record.summarizer.name !== 'codex') return record.summary;
  const newestFirst = [...occurrences].sort((a, b) => b.seq - a.seq);
  const texts = new Set<string>();
  let userCharacters = 0;
  for (const { span } of newestFirst) {
    if (kinds !== undefined && !kinds.has(span.kind)) continue;
    if (texts.has(span.text)) continue;
    if (CODEX_KEPT_USER_KINDS.has(span.kind)) {
      userCharacters += span.text.length;
      if (userCharacters > CODEX_KEPT_USER_CHARACTERS) continue;
    } else if (span.kind !== 'system') continue;
    texts.add(span.text);
  }
  return [record.summary, ...texts].filter((text) => text !== '').join('\n');
}
