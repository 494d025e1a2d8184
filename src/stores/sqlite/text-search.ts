/**
 * Free-text search over the trigram index without positions (schema version 7: `detail = none`, about a quarter of
 * the bytes of the positional index). Such an index answers a term of more than three characters as an AND of its
 * trigrams, so its rows are candidates: each is checked against the span text with the tokenizer's own case folding
 * (`trigram-fold.ts`), and the ranking the positional index gave (FTS5's `bm25`: a term is a phrase, its frequency in a
 * row the number of places it starts, overlapping ones included) is computed here from the same figures: the rows and
 * trigrams the index holds (its averages record), the rows holding each term over the whole index, and each row's
 * trigram count. The hits, their order and their scores are those of the positional index.
 */
import type Database from 'better-sqlite3';
import { spanIdOfStoredKey } from './span-keys.js';
import { SPAN_TEXT } from './span-text.js';
import type { StoredSpanKey } from './span-keys.js';
import type { TextHit } from '../store.js';
import { foldForTrigrams } from './trigram-fold.js';

/** FTS5 `bm25` constants (its defaults). */
const K1 = 1.2;
const B = 0.75;
/** What FTS5 uses for an inverse document frequency that is not positive. */
const MIN_IDF = 1e-6;

interface CandidateRow {
  row: number;
  seq: number;
  span_id: StoredSpanKey;
  text: string;
}

/** One query term: its folded text and the FTS5 expression of its trigrams. */
interface Term {
  readonly folded: string;
  /** Whether the term is one trigram (3 code points): the index then holds it exactly. */
  readonly single: boolean;
  readonly match: string;
}

const LONE_SURROGATE = /^[\ud800-\udfff]$/;

/** FTS5 string literal: one quoted phrase, so no query syntax is interpreted. */
function ftsString(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The term as the tokenizer reads it (NUL dropped, lone surrogates as U+FFFD) and its trigrams; undefined: none. */
function termOf(term: string): Term | undefined {
  const characters = [...term].flatMap((character) =>
    character === '\0' ? [] : [LONE_SURROGATE.test(character) ? '\ufffd' : character],
  );
  if (characters.length < 3) return undefined;
  const trigrams = new Set<string>();
  for (let index = 0; index + 3 <= characters.length; index++)
    trigrams.add(characters.slice(index, index + 3).join(''));
  return {
    folded: foldForTrigrams(term).folded,
    single: characters.length === 3,
    match: [...trigrams].map(ftsString).join(' AND '),
  };
}

/** Places `needle` starts in `haystack`, overlapping ones included. */
function countStarts(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

/** A SQLite varint (big-endian groups of 7 bits, a 9th byte of 8) at `offset`: its value and the next offset. */
function readVarint(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0;
  for (let index = 0; index < 8; index++) {
    const byte = bytes[offset + index] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, offset + index + 1];
  }
  return [value * 256 + (bytes[offset + 8] ?? 0), offset + 9];
}

/** The search of one connection over its `occurrence_fts` table. */
export interface TextSearch {
  /** Hits of the terms (each at least 3 characters) in the session's indexed rows, best first, ties by seq. */
  search(sessionId: string, terms: readonly string[], limit: number): TextHit[];
}

/** The statements of the search over `db`. */
function prepareSearchStatements(db: Database.Database) {
  const fromIndex = `FROM occurrence_fts f JOIN occurrence_text_rows r ON r.row = f.rowid
    JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq JOIN spans s ON s.id = o.span_id`;
  return {
    averages: db.prepare('SELECT block FROM occurrence_fts_data WHERE id = 1').pluck() as Database.Statement<
      [],
      Buffer
    >,
    sessionRows: db.prepare(
      `SELECT f.rowid AS row, r.seq AS seq, o.span_id AS span_id, ${SPAN_TEXT} AS text ${fromIndex}
       WHERE occurrence_fts MATCH ? AND r.session_id = ?`,
    ) as Database.Statement<[string, string], CandidateRow>,
    count: db.prepare('SELECT count(*) FROM occurrence_fts WHERE occurrence_fts MATCH ?').pluck() as Database.Statement<
      [string],
      number
    >,
    rows: db.prepare('SELECT rowid FROM occurrence_fts WHERE occurrence_fts MATCH ?').pluck() as Database.Statement<
      [string],
      number
    >,
    text: db
      .prepare(
        `SELECT ${SPAN_TEXT} FROM occurrence_text_rows r JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq
       JOIN spans s ON s.id = o.span_id WHERE r.row = ?`,
      )
      .pluck() as Database.Statement<[number], string>,
    ln: db.prepare('SELECT ln(?)').pluck() as Database.Statement<[number], number>,
  };
}

/** Prepares the search over `db` (a store's connection, schema version 7 or later). */
export function createTextSearch(db: Database.Database): TextSearch {
  const statements = prepareSearchStatements(db);

  /**
   * Rows of the whole index holding the term: exact for a single trigram, else each candidate's text checked (texts
   * of the session's candidates are folded already).
   */
  function rowsHolding(term: Term, folded: ReadonlyMap<number, string>): number {
    if (term.single) return statements.count.get(term.match) ?? 0;
    let rows = 0;
    for (const row of statements.rows.all(term.match)) {
      const text = folded.get(row) ?? foldForTrigrams(statements.text.get(row) ?? '').folded;
      if (text.includes(term.folded)) rows += 1;
    }
    return rows;
  }

  /** FTS5's inverse document frequency of each term over the whole index (`rowCount` rows). */
  function inverseFrequencies(
    terms: readonly (Term | undefined)[],
    rowCount: number,
    folded: ReadonlyMap<number, string>,
  ) {
    return terms.map((term) => {
      const holding = term === undefined ? 0 : rowsHolding(term, folded);
      const value = statements.ln.get((rowCount - holding + 0.5) / (holding + 0.5)) as number;
      return value <= 0 ? MIN_IDF : value;
    });
  }

  return {
    search(sessionId, rawTerms, limit) {
      const terms = rawTerms.map(termOf);
      const matchable = terms.filter((term): term is Term => term !== undefined);
      if (matchable.length === 0) return [];
      const match = matchable.map((term) => `(${term.match})`).join(' OR ');
      const folded = new Map<number, string>();
      const rows = statements.sessionRows.all(match, sessionId).flatMap((candidate) => {
        const text = foldForTrigrams(candidate.text);
        folded.set(candidate.row, text.folded);
        const frequencies = terms.map((term) => (term === undefined ? 0 : countStarts(text.folded, term.folded)));
        if (frequencies.every((frequency) => frequency === 0)) return [];
        // The row's size in trigrams, as the index counts it.
        return [{ candidate, frequencies, trigrams: Math.max(0, text.codePoints - 2) }];
      });
      if (rows.length === 0) return [];
      const averages = statements.averages.get() as Buffer;
      const [rowCount, next] = readVarint(averages, 0);
      const [tokenCount] = readVarint(averages, next);
      const averageLength = tokenCount / rowCount;
      const idf = inverseFrequencies(terms, rowCount, folded);
      return rows
        .map(({ candidate, frequencies, trigrams }): TextHit => {
          // FTS5's bm25, in its order of operations, so the score is the same double.
          let score = 0;
          frequencies.forEach((frequency, term) => {
            score +=
              (idf[term] as number) *
              ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * trigrams) / averageLength)));
          });
          return { seq: candidate.seq, spanId: spanIdOfStoredKey(candidate.span_id), score };
        })
        .sort((a, b) => b.score - a.score || a.seq - b.seq)
        .slice(0, limit);
    },
  };
}
