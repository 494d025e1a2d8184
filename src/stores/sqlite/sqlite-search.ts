/**
 * The search part of the SQLite store: handles by key (narrowed by the key's digest, `handle-rows.ts`) or by seq
 * range, and free text: the trigram index (`text-search.ts`) for terms of three characters or more, caught up first
 * (`deferred-text-index.ts`), else a LIKE scan (`like-search.ts`).
 */
import type { Handle } from '../../types.js';
import { checkCount, checkHandlePage, searchTerms, type SeqRange } from '../store-input.js';
import type { SearchPart } from '../store-parts.js';
import type { HandleIdentity, HandlePage, TextHit } from '../store.js';
import { SqliteHandleIdentities } from './handle-identities.js';
import { handleOfRow, keyHash, type CompactHandleRow, type HandleSource } from './handle-rows.js';
import { likeHits } from './like-search.js';
import type { SqliteContext } from './sqlite-context.js';
import { createTextSearch, type TextSearch } from './text-search.js';
import type { DeferredTextIndex } from './deferred-text-index.js';

const LAST_SEQ = Number.MAX_SAFE_INTEGER;

/** Handle reads and text search of one SQLite store. */
export class SqliteSearch implements SearchPart {
  private readonly textSearch: TextSearch;
  private readonly identities: SqliteHandleIdentities;

  constructor(
    private readonly context: SqliteContext,
    private readonly textIndex: DeferredTextIndex,
  ) {
    this.textSearch = createTextSearch(context.db);
    this.identities = new SqliteHandleIdentities(context);
  }

  findHandles(sessionId: string, key: string, page?: HandlePage): Promise<Handle[]> {
    const { statements, sessions } = this.context;
    return this.context.guard(`find handles of session ${sessionId}`, () => {
      const { fromSeq, limit } = checkHandlePage(page, { sessionId, key });
      const session = sessions.numberOf(sessionId);
      if (session === undefined) return [];
      const rowLimit = limit === Number.POSITIVE_INFINITY ? -1 : limit;
      const found: Handle[] = [];
      // The index narrows by a 32-bit digest of the key: rows of another key with the same digest are dropped, and
      // the next rows read, until the page is full or the rows run out.
      for (let offset = 0; ;) {
        const rows = statements.handlesByKey.all(session, keyHash(key), fromSeq, rowLimit, offset);
        for (const handle of this.handlesOfRows(sessionId, rows))
          if (handle.key === key && found.length < limit) found.push(handle);
        if (rowLimit === -1 || rows.length < rowLimit || found.length >= limit) return found;
        offset += rows.length;
      }
    });
  }

  countHandles(sessionId: string, key: string): Promise<number> {
    const { statements, sessions } = this.context;
    return this.context.guard(`count handles of session ${sessionId}`, () => {
      const session = sessions.numberOf(sessionId);
      return session === undefined ? 0 : (statements.handleCountByKey.get(session, keyHash(key)) ?? 0);
    });
  }

  handles(sessionId: string, range?: SeqRange): Promise<Handle[]> {
    const { statements, sessions } = this.context;
    return this.context.guard(`read handles of session ${sessionId}`, () => {
      const session = sessions.numberOf(sessionId);
      if (session === undefined) return [];
      const rows = statements.handles.all(session, range?.fromSeq ?? 0, range?.toSeq ?? LAST_SEQ);
      return this.handlesOfRows(sessionId, rows);
    });
  }

  handleIdentities(sessionId: string, range?: SeqRange): Promise<HandleIdentity[]> {
    const { sessions } = this.context;
    return this.context.guard(`read handles of session ${sessionId}`, () => {
      const session = sessions.numberOf(sessionId);
      if (session === undefined) return [];
      return this.identities.range(sessionId, session, range?.fromSeq ?? 0, range?.toSeq ?? LAST_SEQ);
    });
  }

  searchText(sessionId: string, query: string, limit: number): Promise<TextHit[]> {
    const { isReadonly } = this.context;
    return this.context.guard(`search session ${sessionId}`, () => {
      checkCount('limit', limit, { sessionId });
      const terms = searchTerms(query);
      if (terms.length === 0 || limit === 0) return [];
      const trigramReady = terms.every((term) => [...term].length >= 3);
      if (!trigramReady) return this.searchWithLike(sessionId, terms, limit);
      if (!isReadonly) this.textIndex.catchUp();
      const hits = this.textSearch.search(sessionId, terms, limit);
      return isReadonly && this.textIndex.pending() ? this.withPendingHits(sessionId, terms, limit, hits) : hits;
    });
  }

  /** Handles of stored rows, each seq's occurrence read once (or taken from what this store appended lately). */
  private handlesOfRows(sessionId: string, rows: readonly CompactHandleRow[]): Handle[] {
    const { statements, location, recent } = this.context;
    const sources = new Map<number, HandleSource | undefined>();
    return rows.map((row) => {
      if (!sources.has(row.seq))
        sources.set(row.seq, recent.source(sessionId, row.seq) ?? statements.handleSource.get(sessionId, row.seq));
      return handleOfRow(location, sessionId, row, sources.get(row.seq));
    });
  }

  /** A read-only connection cannot index: the rows past the mark are scanned with LIKE and ranked after the indexed hits. */
  private withPendingHits(sessionId: string, terms: readonly string[], limit: number, hits: TextHit[]): TextHit[] {
    const mark = this.textIndex.mark();
    const seen = new Set(hits.map((hit) => hit.seq));
    const pending = likeHits(terms, this.context.statements.pendingTexts.iterate(sessionId, mark));
    return [...hits, ...pending.filter((hit) => !seen.has(hit.seq))].slice(0, limit);
  }

  private searchWithLike(sessionId: string, terms: readonly string[], limit: number): TextHit[] {
    return likeHits(terms, this.context.statements.sessionTexts.iterate(sessionId)).slice(0, limit);
  }
}
