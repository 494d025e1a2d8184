/**
 * The search part of the PostgreSQL store: handles by key or seq range, and free text as a literal, case-insensitive,
 * any-term substring match served by the pg_trgm GIN index (plain ILIKE without the extension), ranked by terms
 * matched, then similarity, then seq.
 */
import type { Handle } from '../../types.js';
import { checkCount, checkHandlePage, searchTerms, spanIdOfRowKey, type SeqRange } from '../store-input.js';
import type { SearchPart } from '../store-parts.js';
import type { HandleIdentity, HandlePage, TextHit } from '../store.js';
import { searchableText } from './append-batch.js';
import type { PostgresContext } from './postgres-context.js';
import { toHandle, type HandleRow } from './queries.js';

const LAST_SEQ = Number.MAX_SAFE_INTEGER;
const NUL = '\u0000';

/** LIKE pattern matching `term` anywhere, with `%`, `_` and `\` escaped. */
function likePattern(term: string): string {
  return `%${searchableText(term).replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** Handle reads and text search of one PostgreSQL store. */
export class PostgresSearch implements SearchPart {
  constructor(private readonly context: PostgresContext) {}

  async findHandles(sessionId: string, key: string, page?: HandlePage): Promise<Handle[]> {
    const { fromSeq, limit } = checkHandlePage(page, { sessionId, key });
    if (sessionId.includes(NUL) || key.includes(NUL)) return [];
    const rowLimit = limit === Number.POSITIVE_INFINITY ? null : limit;
    const operation = `find handles of session ${sessionId}`;
    const values = [sessionId, key, fromSeq, rowLimit];
    return (await this.context.read<HandleRow>(operation, this.context.sql.handlesByKey, values)).map(toHandle);
  }

  async countHandles(sessionId: string, key: string): Promise<number> {
    if (sessionId.includes(NUL) || key.includes(NUL)) return 0;
    const operation = `count handles of session ${sessionId}`;
    const rows = await this.context.read<{ count: number }>(operation, this.context.sql.handleCountByKey, [
      sessionId,
      key,
    ]);
    return rows[0]?.count ?? 0;
  }

  async handles(sessionId: string, range?: SeqRange): Promise<Handle[]> {
    if (sessionId.includes(NUL)) return [];
    const rows = await this.context.read<HandleRow>(`read handles of session ${sessionId}`, this.context.sql.handles, [
      sessionId,
      range?.fromSeq ?? 0,
      range?.toSeq ?? LAST_SEQ,
    ]);
    return rows.map(toHandle);
  }

  async handleIdentities(sessionId: string, range?: SeqRange): Promise<HandleIdentity[]> {
    if (sessionId.includes(NUL)) return [];
    const operation = `read handles of session ${sessionId}`;
    const values = [sessionId, range?.fromSeq ?? 0, range?.toSeq ?? LAST_SEQ];
    const rows = await this.context.read<{ kind: HandleIdentity['kind']; text: string; seq: string; start: string }>(
      operation,
      this.context.sql.handleIdentities,
      values,
    );
    return rows.map((row) => ({ kind: row.kind, text: row.text, seq: Number(row.seq), start: Number(row.start) }));
  }

  async searchText(sessionId: string, query: string, limit: number): Promise<TextHit[]> {
    const { sql } = this.context;
    checkCount('limit', limit, { sessionId });
    const terms = searchTerms(query);
    if (terms.length === 0 || limit === 0 || sessionId.includes(NUL)) return [];
    const ranked = terms.every((term) => [...term].length >= 3);
    const values: unknown[] = [sessionId, limit, ...terms.map(likePattern)];
    if (ranked && sql.similarity) values.push(searchableText(terms.join(' ')));
    const rows = await this.context.read<{ seq: string; span_id: string; score: number | string }>(
      `search session ${sessionId}`,
      sql.search(terms.length, ranked),
      values,
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      spanId: spanIdOfRowKey(row.span_id),
      score: Number(row.score),
    }));
  }
}
