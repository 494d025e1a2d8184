/**
 * Search for terms too short for the trigram index (and, on a read-only connection, in rows not indexed yet): a
 * substring match folded as SQLite's `LIKE` folds (ASCII letters only), one point per term a span holds. Every span
 * text is read once for all the terms: a packed text is inflated once per search, not once per term.
 */
import type { TextHit } from '../store.js';
import { spanIdOfStoredKey, type StoredSpanKey } from './span-keys.js';

/** A span text of a session, in seq order. */
export interface TextRow {
  seq: number;
  span_id: StoredSpanKey;
  text: string;
}

/** `text` with ASCII capitals lowered and every other character kept, as `LIKE` compares. */
export function foldAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : text;
}

/** Spans holding any of `terms`, one point per term held, best first (ties: oldest first). */
export function likeHits(terms: readonly string[], rows: Iterable<TextRow>): TextHit[] {
  const folded = terms.map(foldAscii);
  const hits: TextHit[] = [];
  for (const row of rows) {
    const text = foldAscii(row.text);
    let score = 0;
    for (const term of folded) if (text.includes(term)) score++;
    if (score > 0) hits.push({ seq: row.seq, spanId: spanIdOfStoredKey(row.span_id), score });
  }
  return hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
}
