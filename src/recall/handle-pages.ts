/**
 * A query's handles read a page at a time: the first handle of each seq that mentions one of the query's keys, from
 * a seq on, at most a given number of seqs. A handle mentioned 200,000 times costs a page of store rows, not 200,000
 * handles in memory (and no argument list of that length: `push(...rows)` overflows the stack past ~100,000).
 */
import type { LedgerStore } from '../stores/store.js';
import type { Handle } from '../types.js';

/** Store rows asked for per read, at least: a seq usually holds one handle of a key, a log line's span a few. */
const MIN_PAGE_ROWS = 64;

/** The first handles of a query's seqs, and where the next page starts. */
export interface HandlePageResult {
  /** The first handle (lowest start) of each seq, ordered by seq; at most the limit. */
  readonly handles: readonly Handle[];
  /** The seq the next page starts at, when more seqs mention a key. */
  readonly nextSeq?: number | undefined;
  /** Handles of the session under the query's keys (all pages), when the store counts them. */
  readonly total?: number | undefined;
}

/** The first handle of each of the first `want` seqs from `fromSeq` on under `key`, in seq order. */
async function firstOfSeqs(
  store: LedgerStore,
  sessionId: string,
  key: string,
  fromSeq: number,
  want: number,
): Promise<Handle[]> {
  const firsts: Handle[] = [];
  const pageRows = Math.max(MIN_PAGE_ROWS, want * 2);
  let from = fromSeq;
  for (;;) {
    const page = await store.findHandles(sessionId, key, { fromSeq: from, limit: pageRows });
    // A store written before pages existed returns every handle of the key: take the page from it here.
    const ignoredPage = page.length > pageRows;
    for (const handle of page) {
      if (handle.seq < from) continue;
      const last = firsts[firsts.length - 1];
      if (last !== undefined && last.seq === handle.seq) continue;
      firsts.push(handle);
      if (firsts.length >= want) return firsts;
    }
    if (ignoredPage || page.length < pageRows) return firsts;
    // The page may end inside a seq whose first handle is taken already: go on after it.
    from = (page[page.length - 1] as Handle).seq + 1;
  }
}

/**
 * The first handle of each seq mentioning any of `keys`, from `fromSeq` on, at most `limit` seqs (the one with the
 * lowest start when several keys meet in a seq), with the seq of the next page and the store's count when it has one.
 */
export async function handlePage(
  store: LedgerStore,
  sessionId: string,
  keys: readonly string[],
  fromSeq: number,
  limit: number,
): Promise<HandlePageResult> {
  const bySeq = new Map<number, Handle>();
  for (const key of keys) {
    for (const handle of await firstOfSeqs(store, sessionId, key, fromSeq, limit + 1)) {
      const held = bySeq.get(handle.seq);
      if (held === undefined || handle.start < held.start) bySeq.set(handle.seq, handle);
    }
  }
  const ordered = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  const next = ordered[limit];
  let total: number | undefined;
  if (store.countHandles !== undefined) {
    total = 0;
    for (const key of keys) total += await store.countHandles(sessionId, key);
  }
  return { handles: ordered.slice(0, limit), nextSeq: next?.seq, total };
}
