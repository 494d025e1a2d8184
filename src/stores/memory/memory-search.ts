/** The search part of the in-memory store: handles by key or seq range, and a case-insensitive substring search. */
import { firstIndexWhere } from '../../collections/sorted-search.js';
import type { Handle } from '../../types.js';
import { checkCount, checkHandlePage, searchTerms, sliceBySeq, type SeqRange } from '../store-input.js';
import type { SearchPart } from '../store-parts.js';
import type { HandleIdentity, HandlePage, TextHit } from '../store.js';
import type { MemoryContext } from './memory-context.js';

/** Handle reads and text search of one in-memory store. */
export class MemorySearch implements SearchPart {
  constructor(private readonly context: MemoryContext) {}

  async findHandles(sessionId: string, key: string, page?: HandlePage): Promise<Handle[]> {
    const { fromSeq, limit } = checkHandlePage(page, { sessionId, key });
    const all = this.context.sessions.get(sessionId)?.handlesByKey.get(key) ?? [];
    const start = fromSeq === 0 ? 0 : firstIndexWhere(all.length, (index) => (all[index] as Handle).seq >= fromSeq);
    return all.slice(start, limit === Number.POSITIVE_INFINITY ? all.length : start + limit);
  }

  async countHandles(sessionId: string, key: string): Promise<number> {
    return this.context.sessions.get(sessionId)?.handlesByKey.get(key)?.length ?? 0;
  }

  async handles(sessionId: string, range?: SeqRange): Promise<Handle[]> {
    return sliceBySeq(this.context.sessions.get(sessionId)?.handles ?? [], range);
  }

  async handleIdentities(sessionId: string, range?: SeqRange): Promise<HandleIdentity[]> {
    return (await this.handles(sessionId, range)).map(({ kind, text, seq, start }) => ({ kind, text, seq, start }));
  }

  async searchText(sessionId: string, query: string, limit: number): Promise<TextHit[]> {
    checkCount('limit', limit, { sessionId });
    const terms = searchTerms(query).map((term) => term.toLowerCase());
    if (terms.length === 0 || limit === 0) return [];
    const hits: TextHit[] = [];
    for (const occurrence of this.context.sessions.get(sessionId)?.occurrences ?? []) {
      const text = occurrence.span.text.toLowerCase();
      const score = terms.filter((term) => text.includes(term)).length;
      if (score > 0) hits.push({ seq: occurrence.seq, spanId: occurrence.spanId, score });
    }
    return hits.sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, limit);
  }
}
