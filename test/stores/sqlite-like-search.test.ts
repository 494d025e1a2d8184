/**
 * Search for terms too short for the trigram index: the same hits and scores as SQLite's own `LIKE` (ASCII letters
 * folded, nothing else), every span text read once per search however many terms it has.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { foldAscii, likeHits, type TextRow } from '../../src/stores/sqlite/like-search.js';
import { storedSpanKey } from '../../src/stores/sqlite/span-keys.js';
import { spanId } from '../../src/model/span.js';

const TEXTS = [
  'replica EU-West-2b is primary',
  'eu-west-2b: ÉTÉ été ß SS',
  'ping 10.0.0.2 ok',
  '100% done_ok \\ path',
  'İstanbul ſ K',
  '',
];

/** One row per text, seq = position. */
function rows(): TextRow[] {
  return TEXTS.map((text, seq) => ({ seq, span_id: storedSpanKey(spanId({ kind: 'user', text })), text }));
}

/** What SQLite's LIKE gives for the same terms: one point per term a text holds, best first, ties by seq. */
function sqliteLike(terms: readonly string[]): { seq: number; score: number }[] {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE t (seq INTEGER, text TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    for (const [seq, text] of TEXTS.entries()) insert.run(seq, text);
    const select = db.prepare("SELECT seq FROM t WHERE text LIKE ? ESCAPE '\\'").pluck();
    const scores = new Map<number, number>();
    for (const term of terms)
      for (const seq of select.all(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as number[])
        scores.set(seq, (scores.get(seq) ?? 0) + 1);
    return [...scores].map(([seq, score]) => ({ seq, score })).sort((a, b) => b.score - a.score || a.seq - b.seq);
  } finally {
    db.close();
  }
}

describe('SQLite short-term search', () => {
  it('folds ASCII capitals only, as LIKE does', () => {
    expect(foldAscii('EU-West é É İ')).toBe('eu-west é É İ');
    expect(foldAscii('plain')).toBe('plain');
  });

  it('gives the hits and scores of SQLite LIKE', () => {
    for (const terms of [
      ['eu'],
      ['EU', '2b'],
      ['é'],
      ['É'],
      ['ss'],
      ['%'],
      ['_o'],
      ['\\'],
      ['ſ'],
      ['i', 'k'],
      ['zz'],
    ]) {
      const hits = likeHits(terms, rows()).map(({ seq, score }) => ({ seq, score }));
      expect(hits, terms.join(' ')).toEqual(sqliteLike(terms));
    }
    const [first] = likeHits(['ok'], rows());
    expect(first?.spanId).toBe(spanId({ kind: 'user', text: TEXTS[2] as string }));
  });

  it('reads the rows once for every term', () => {
    let reads = 0;
    const once: Iterable<TextRow> = {
      [Symbol.iterator]() {
        reads++;
        if (reads > 1) throw new Error('rows read twice');
        return rows()[Symbol.iterator]();
      },
    };
    expect(likeHits(['eu', '2b', 'ok', 'é'], once).length).toBeGreaterThan(0);
    expect(reads).toBe(1);
  });
});
