/**
 * The stored handles closest to a query that matched nothing: what recall offers with "never said", so the model can
 * tell a misspelt or misremembered detail (`db-ro-30` for `db-ro-3`) from one that was never in the session. Bounded:
 * the session's handles are read newest first a page at a time, at most {@link MAX_CLOSEST_KEYS} distinct ones, and
 * only the first {@link COMPARED_CHARS} characters of each text are compared.
 */
import type { LedgerStore } from '../stores/store.js';
import type { Handle } from '../types.js';

/** One stored handle close to the query. */
export interface ClosestHandle {
  /** The handle text as stored. */
  readonly text: string;
  /** Its kind. */
  readonly kind: Handle['kind'];
  /** Seq of its first occurrence. */
  readonly seq: number;
  /** The span it was copied from. */
  readonly spanId: string;
}

/** Distinct handle texts compared at most. */
export const MAX_CLOSEST_KEYS = 5000;
/** Characters of each text compared. */
const COMPARED_CHARS = 48;
/** Seqs read per page. */
const PAGE_SEQS = 1000;

/** Levenshtein distance of two short strings (single-row dynamic programme). */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

function sharedPrefix(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}

/** Lower is closer: edit distance relative to the longer text, less a little for a shared prefix. */
function distance(query: string, text: string): number {
  const candidate = text.toLowerCase().slice(0, COMPARED_CHARS);
  const longer = Math.max(query.length, candidate.length, 1);
  return editDistance(query, candidate) / longer - sharedPrefix(query, candidate) / (longer * 4);
}

/**
 * Up to `count` stored handles of the session closest to `query` (newest first among equals), read from the newest
 * seq back until {@link MAX_CLOSEST_KEYS} distinct texts were compared. Empty when the session has no handles.
 */
export async function closestHandles(
  store: LedgerStore,
  sessionId: string,
  query: string,
  count = 3,
): Promise<ClosestHandle[]> {
  const wanted = query.trim().toLowerCase().slice(0, COMPARED_CHARS);
  const seen = new Map<string, { handle: Handle; score: number }>();
  const next = await store.nextSeq(sessionId);
  for (let toSeq = next - 1; toSeq >= 0 && seen.size < MAX_CLOSEST_KEYS; toSeq -= PAGE_SEQS) {
    const page = await store.handles(sessionId, { fromSeq: Math.max(0, toSeq - PAGE_SEQS + 1), toSeq });
    for (let index = page.length - 1; index >= 0 && seen.size < MAX_CLOSEST_KEYS; index--) {
      const handle = page[index];
      if (handle === undefined || seen.has(handle.key)) continue;
      seen.set(handle.key, { handle, score: distance(wanted, handle.text) });
    }
  }
  return [...seen.values()]
    .sort((a, b) => a.score - b.score || b.handle.seq - a.handle.seq)
    .slice(0, count)
    .map(({ handle }) => ({ text: handle.text, kind: handle.kind, seq: handle.seq, spanId: handle.spanId }));
}
