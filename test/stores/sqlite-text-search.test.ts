/**
 * SQLite free-text search on the trigram index without positions (schema version 7): the same hits, order and scores
 * as FTS5's positional index with `bm25`, the tokenizer's case folding, and the migration of a version 6 ledger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { SCHEMA_VERSION } from '../../src/stores/sqlite/schema.js';
import { foldsOf, foldForTrigrams, trigramFolds } from '../../src/stores/sqlite/trigram-fold.js';
import { searchTerms } from '../../src/stores/store-input.js';
import type { LedgerStore, TextHit } from '../../src/stores/store.js';
import { entry } from './fixtures.js';
import { spanIdOfStoredKey, type StoredSpanKey } from '../../src/stores/sqlite/span-keys.js';
import { registerSpanTextFunction, SPAN_TEXT } from '../../src/stores/sqlite/span-text.js';
import { carriedHandlesAsVersion7, spanKeysAsVersion8 } from './sqlite-old-schema.js';

/** Characters the generated texts are made of: cases, letters the tokenizer folds unlike JavaScript, runs. */
const ALPHABET = [...'aAbBsS =-_/.ſßİiIKkΣσςꭰᎠ🚀é'];

/** A small deterministic generator (a linear congruential one). */
function generator(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % below;
  };
}

function randomText(next: (below: number) => number, length: number): string {
  return Array.from({ length }, () => ALPHABET[next(ALPHABET.length)]).join('');
}

/**
 * The hits the positional index gave (schema 6 and before): a positional copy of the index built beside it from the
 * same rows, queried as the store used to.
 */
function positionalHits(db: Database.Database, sessionId: string, query: string, limit: number): TextHit[] {
  const match = searchTerms(query)
    .map((term) => `"${term.replaceAll('"', '""')}"`)
    .join(' OR ');
  const rows = db
    .prepare(
      `SELECT r.seq AS seq, o.span_id AS spanId, -bm25(positional) AS score
       FROM positional f JOIN occurrence_text_rows r ON r.row = f.rowid
       JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq
       WHERE positional MATCH ? AND r.session_id = ? ORDER BY bm25(positional), r.seq LIMIT ?`,
    )
    .all(match, sessionId, limit) as (Omit<TextHit, 'spanId'> & { spanId: StoredSpanKey })[];
  return rows.map((row) => ({ ...row, spanId: spanIdOfStoredKey(row.spanId) }));
}

/** Builds the positional copy of the index (every row the index covers) in the temp schema of `db`. */
function buildPositional(db: Database.Database): void {
  registerSpanTextFunction(db, 'sqlite:positional');
  db.exec(`CREATE VIRTUAL TABLE temp.positional USING fts5 (text, content = '', tokenize = 'trigram');
    INSERT INTO temp.positional (rowid, text) SELECT r.row, ${SPAN_TEXT} FROM occurrence_text_rows r
    JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq JOIN spans s ON s.id = o.span_id
    WHERE r.row <= (SELECT row FROM text_index_mark WHERE id = 1)`);
}

/** Queries over the texts: their substrings with the case of some letters flipped, words, runs, misses. */
function queriesOver(texts: readonly string[], next: (below: number) => number): string[] {
  const queries = ['aaa', 'aaaa', 'AAAAA', 'sss', 'ſſſ', 'ꭰꭰꭰ', 'ᎠᎠᎠ', 'ΣΣΣ', 'none-such', 'a a', '= = = ='];
  for (let index = 0; index < 120; index++) {
    const characters = [...(texts[next(texts.length)] as string)];
    const start = next(characters.length);
    const piece = characters
      .slice(start, start + 3 + next(9))
      .map((character) => (next(3) === 0 ? character.toUpperCase() : character));
    const second = next(4) === 0 ? ` ${randomText(next, 3 + next(3))}` : '';
    queries.push(piece.join('') + second);
  }
  return queries.filter((query) => searchTerms(query).every((term) => [...term].length >= 3));
}

describe('SQLite free-text search without positions', () => {
  let directory: string;
  let path: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-text-search-'));
    path = join(directory, 'ledger.db');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('folds every code point as the trigram tokenizer does', () => {
    const codes: number[] = [];
    for (let code = 1; code <= 0x10ffff; code++) if (code < 0xd800 || code > 0xdfff) codes.push(code);
    expect(trigramFolds()).toEqual(foldsOf(codes));
    expect(foldForTrigrams('ſelf İD\0x')).toEqual({
      folded: `self ${String.fromCodePoint(trigramFolds().get(0x130) ?? 0x130)}dx`,
      codePoints: 8,
    });
    expect(foldForTrigrams('Plain ASCII')).toEqual({ folded: 'plain ascii', codePoints: 11 });
  });

  it('returns the hits, order and scores of the positional index, across sessions', async () => {
    const next = generator(27);
    const store = createSqliteStore({ path });
    const texts: string[] = [];
    for (const session of ['s', 't']) {
      await store.openSession(session);
      const entries = Array.from({ length: 60 }, (_, index) => {
        const text = `${randomText(next, 8 + next(80))} #${index}`;
        texts.push(text);
        return entry('user', text);
      });
      await store.append(session, 0, entries);
    }
    const queries = queriesOver(texts, next);
    // Every store search first indexes what is pending; search once so the copy below covers every row.
    await store.searchText('s', 'aaa', 1);
    const raw = new Database(path, { readonly: true });
    buildPositional(raw);
    let hits = 0;
    for (const query of queries)
      for (const session of ['s', 't']) {
        const expected = positionalHits(raw, session, query, 10);
        hits += expected.length;
        expect(await store.searchText(session, query, 10), `${session}: ${JSON.stringify(query)}`).toEqual(expected);
      }
    expect(hits).toBeGreaterThan(150);
    raw.close();
    await store.close();
  });

  it('migrates a version 6 ledger: rebuilds the index without positions, same hits, pending rows indexed later', async () => {
    const next = generator(6);
    const texts = Array.from({ length: 40 }, (_, index) => `${randomText(next, 20 + next(60))} row-${index}`);
    const store: LedgerStore = createSqliteStore({ path });
    await store.openSession('s');
    await store.append(
      's',
      0,
      texts.slice(0, 30).map((text) => entry('user', text)),
    );
    await store.close();
    // Back to version 6 as it was: carried handles as JSON, the positional index over the rows up to the mark, and rows past the mark that
    // a version 6 writer stored but had not indexed yet.
    const older = new Database(path);
    spanKeysAsVersion8(older);
    older.exec(`DROP TABLE occurrence_fts;
      CREATE VIRTUAL TABLE occurrence_fts USING fts5 (text, content = '', tokenize = 'trigram');
      INSERT INTO occurrence_fts (rowid, text) SELECT r.row, s.text FROM occurrence_text_rows r
      JOIN occurrences o ON o.session_id = r.session_id AND o.seq = r.seq JOIN spans s ON s.id = o.span_id;`);
    texts.slice(30).forEach((text, index) => {
      const { span, role } = entry('user', text);
      older
        .prepare("INSERT INTO spans (id, kind, text, tokens) VALUES (?, 'user', ?, ?)")
        .run(span.id, span.text, span.tokens);
      older
        .prepare(
          'INSERT INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end) VALUES (?, ?, ?, ?, 0, ?)',
        )
        .run('s', 30 + index, span.id, role, Buffer.byteLength(text));
      older.prepare("INSERT INTO occurrence_text_rows (session_id, seq) VALUES ('s', ?)").run(30 + index);
    });
    carriedHandlesAsVersion7(older, 's', new Map());
    older.pragma('user_version = 6');
    older.close();

    const migrated = createSqliteStore({ path });
    const queries = queriesOver(texts, next);
    const found = await Promise.all(queries.map((query) => migrated.searchText('s', query, 10)));
    await migrated.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.prepare("SELECT sql FROM sqlite_schema WHERE name = 'occurrence_fts'").pluck().get()).toMatch(
      /detail = none/,
    );
    expect(raw.prepare('SELECT row FROM text_index_mark').pluck().get()).toBe(40);
    buildPositional(raw);
    queries.forEach((query, index) => expect(found[index], query).toEqual(positionalHits(raw, 's', query, 10)));
    expect(found.flat().some((hit) => hit.seq >= 30)).toBe(true);
    raw.close();
  });
});
