/**
 * Pages of the list views (handles, records, gaps) and the token budget of an answer, shared by the MCP server and
 * the CLI. A page holds at most `limit` items and a `nextCursor` when more remain; `fitAnswer` shrinks a page until
 * its JSON fits a token budget (25,000 tokens by default, what an MCP client shows a model without cutting).
 */
import { pageCursor, readPageCursor } from '../collections/page-cursor.js';
import type { LedgerStore } from '../stores/store.js';
import { displayJson } from '../text/neutralize.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { Handle, HandleKind } from '../types.js';

/** Most tokens of one answer, by default. */
export const ANSWER_MAX_TOKENS = 25_000;

/** A page of items and the cursor of the next one. */
export interface Page<T> {
  readonly items: T[];
  /** Pass as `cursor` for the next page; undefined on the last one. */
  readonly nextCursor?: string | undefined;
}

/** Items `[offset, offset + limit)` of a list, the cursor (`view:…parts:offset`) of the rest when any remain. */
export function offsetPage<T>(
  view: string,
  list: readonly T[],
  limit: number,
  cursor: string | undefined,
  parts: readonly string[] = [],
): Page<T> {
  const offset = readPageCursor(view, cursor, 1, parts)?.[0] ?? 0;
  const end = offset + limit;
  return { items: list.slice(offset, end), nextCursor: end < list.length ? pageCursor(view, [end], parts) : undefined };
}

/** Seqs read per store call while paging every handle of a session. */
const ALL_HANDLES_WINDOW_SEQS = 64;
/** Most handles one page examines (of other kinds too): a page of a rare kind stops here with a cursor. */
const ALL_HANDLES_SCAN = 50_000;

/**
 * A page of every handle of a session (optionally of one kind), oldest first, read a window of seqs at a time: memory
 * and work follow the page, not the session. The cursor names a seq and how many of its handles were passed, so a
 * page may end inside a seq; a page of a rare kind may come back short (even empty) with a cursor after examining
 * 50,000 handles.
 */
export async function allHandlesPage(
  store: LedgerStore,
  sessionId: string,
  options: { readonly kind?: HandleKind | undefined; readonly limit: number; readonly cursor?: string | undefined },
): Promise<Page<Handle>> {
  const [startSeq, startSkip] = readPageCursor('handles', options.cursor, 2, ['all']) ?? [0, 0];
  const end = await store.nextSeq(sessionId);
  const items: Handle[] = [];
  let examined = 0;
  for (let seq = startSeq as number; seq < end; seq += ALL_HANDLES_WINDOW_SEQS) {
    const window = await store.handles(sessionId, { fromSeq: seq, toSeq: seq + ALL_HANDLES_WINDOW_SEQS - 1 });
    let atSeq = -1;
    let inSeq = 0;
    for (const handle of window) {
      if (handle.seq !== atSeq) [atSeq, inSeq] = [handle.seq, 0];
      inSeq += 1;
      if (handle.seq === startSeq && inSeq <= (startSkip as number)) continue;
      const place = pageCursor('handles', [handle.seq, inSeq - 1], ['all']);
      if (items.length === options.limit || examined >= ALL_HANDLES_SCAN) return { items, nextCursor: place };
      examined += 1;
      if (options.kind === undefined || handle.kind === options.kind) items.push(handle);
    }
  }
  return { items };
}

/**
 * The answer `build(limit)` gives for the largest limit up to `limit` whose JSON (as the MCP server sends it) fits
 * `maxTokens`: built once when it fits, else again with a limit cut in proportion, down to 1. `build` must page on
 * from where its smaller answer stops (its `nextCursor`), so nothing is skipped.
 */
export async function fitAnswer<T>(
  build: (limit: number) => Promise<T>,
  limit: number,
  counter: TokenCounter,
  maxTokens = ANSWER_MAX_TOKENS,
): Promise<T> {
  let current = limit;
  for (;;) {
    const answer = await build(current);
    const tokens = counter.count(displayJson(answer, 0));
    if (tokens <= maxTokens || current <= 1) return answer;
    current = Math.max(1, Math.min(current - 1, Math.floor((current * maxTokens * 0.9) / tokens)));
  }
}
