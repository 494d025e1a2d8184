/**
 * Full-text index options for the SQLite store, on the same corpus (the span texts of the real
 * Claude Code, SWE-agent and LoCoMo transcripts, chunked as `session.append` chunks them):
 * write cost (rows inserted in transactions of 50, as appends do), bytes on disk (dbstat),
 * and recall behaviour against the contract's meaning of a query term (a case-insensitive
 * substring, the memory store's rule): queries are substrings of extracted handles, whole
 * words, and inner fragments of words. Each option:
 *
 * - `trigram, detail=full` (the store's index up to SQLite schema 6, still labelled `current` and the reference of the
 *   `vs current` column): a contentless trigram table; a term is a phrase.
 * - `trigram, detail=column` / `detail=none` (`none`: the store's index from schema 7, `src/stores/sqlite/text-search.ts`):
 *   no positions, so a term becomes an AND of its trigrams and candidates are checked against the span text.
 * - `unicode61 words + identifier trigrams`: a word index for prose and a trigram index fed
 *   only with identifier-like tokens (digits, `_ - . / : =`, inner capitals); a term that is a
 *   plain word goes to the word index, any other to the trigram side.
 * - `trigram, deferred`: the store's index filled after the fact in one transaction (what a
 *   background indexer would pay), not per append.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { messageToEntries } from '../../src/ingest/ingest.js';
import { TokenMemo } from '../../src/handles/token-memo.js';
import { createApproximateCounter } from '../../src/tokens/token-counter.js';
import { round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { loadCorpus } from './corpus.js';
import { speedResult } from './speed-result.js';
import { percentile } from './timing.js';

const BATCH = 50;

interface Query {
  readonly kind: 'handle substring' | 'word' | 'word fragment';
  readonly term: string;
}

interface FtsOption {
  readonly name: string;
  /** Tables of the option (created in a fresh database next to a `docs(rowid, text)` table). */
  readonly schema: string;
  /** Tables whose pages count as the index. */
  readonly tables: readonly string[];
  /** Writes one document's index rows. */
  insert(db: Database.Database): (rowid: number, text: string) => void;
  /** Whether rows are written per batch (false: once, after all documents). */
  readonly perBatch: boolean;
  /** Row ids whose text matches the term, by the option's own rule. */
  search(db: Database.Database): (term: string) => number[];
}

const IDENTIFIER_LIKE = /[0-9_\-./:=]|[a-z][A-Z]/;
const PLAIN_WORD = /^[\p{L}]+$/u;

function phrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

function trigrams(term: string): string[] {
  const characters = [...term];
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= characters.length; index += 1)
    grams.add(characters.slice(index, index + 3).join(''));
  return [...grams];
}

function identifierTokens(text: string): string {
  return text
    .split(/[\s"'`()[\]{}<>,;|]+/u)
    .filter((token) => token.length >= 3 && IDENTIFIER_LIKE.test(token))
    .join('\n');
}

function trigramWithoutPositions(detail: 'column' | 'none'): FtsOption {
  return {
    name: `trigram, detail=${detail}`,
    schema: `CREATE VIRTUAL TABLE fts USING fts5 (text, content = '', tokenize = 'trigram', detail = ${detail});`,
    tables: ['fts_data', 'fts_idx', 'fts_docsize', 'fts_config'],
    perBatch: true,
    insert: (db) => {
      const statement = db.prepare('INSERT INTO fts (rowid, text) VALUES (?, ?)');
      return (rowid, text) => statement.run(rowid, text);
    },
    search: (db) => {
      const statement = db.prepare(
        `SELECT d.rowid AS id FROM fts JOIN docs d ON d.rowid = fts.rowid WHERE fts MATCH ? AND instr(lower(d.text), lower(?)) > 0`,
      );
      return (term) =>
        (
          statement.all(trigrams(term).map(phrase).join(' AND '), term) as {
            id: number;
          }[]
        ).map((row) => row.id);
    },
  };
}

const OPTIONS: readonly FtsOption[] = [
  {
    name: 'trigram, detail=full (current)',
    schema: "CREATE VIRTUAL TABLE fts USING fts5 (text, content = '', tokenize = 'trigram');",
    tables: ['fts_data', 'fts_idx', 'fts_docsize', 'fts_config'],
    perBatch: true,
    insert: (db) => {
      const statement = db.prepare('INSERT INTO fts (rowid, text) VALUES (?, ?)');
      return (rowid, text) => statement.run(rowid, text);
    },
    search: (db) => {
      const statement = db.prepare('SELECT rowid AS id FROM fts WHERE fts MATCH ?');
      return (term) => (statement.all(phrase(term)) as { id: number }[]).map((row) => row.id);
    },
  },
  trigramWithoutPositions('column'),
  trigramWithoutPositions('none'),
  {
    name: 'unicode61 words + identifier trigrams',
    schema: `CREATE VIRTUAL TABLE words USING fts5 (text, content = '', tokenize = 'unicode61');
      CREATE VIRTUAL TABLE idents USING fts5 (text, content = '', tokenize = 'trigram');`,
    tables: ['words_data', 'words_idx', 'words_docsize', 'words_config', 'idents_data', 'idents_idx', 'idents_docsize'],
    perBatch: true,
    insert: (db) => {
      const words = db.prepare('INSERT INTO words (rowid, text) VALUES (?, ?)');
      const idents = db.prepare('INSERT INTO idents (rowid, text) VALUES (?, ?)');
      return (rowid, text) => {
        words.run(rowid, text);
        const tokens = identifierTokens(text);
        if (tokens.length > 0) idents.run(rowid, tokens);
      };
    },
    search: (db) => {
      const words = db.prepare('SELECT rowid AS id FROM words WHERE words MATCH ?');
      const idents = db.prepare('SELECT rowid AS id FROM idents WHERE idents MATCH ?');
      return (term) =>
        ((PLAIN_WORD.test(term) ? words : idents).all(phrase(term)) as { id: number }[]).map((row) => row.id);
    },
  },
];

/** Queries drawn from the corpus: handle substrings, whole words and inner word fragments (fixed stride, no randomness). */
function drawQueries(texts: readonly string[], handles: readonly string[], count: number): Query[] {
  const queries: Query[] = [];
  const stride = Math.max(1, Math.floor(handles.length / count));
  for (let index = 0; index < handles.length && queries.length < count; index += stride) {
    const handle = handles[index] as string;
    if (handle.length < 4) continue;
    const length = Math.min(handle.length, 4 + (index % 9));
    const start = Math.floor((handle.length - length) / 2);
    const term = handle.slice(start, start + length).trim();
    if (term.length >= 3 && !/\s/.test(term)) queries.push({ kind: 'handle substring', term });
  }
  const words = texts.flatMap((text) => text.match(/\p{L}{5,}/gu) ?? []);
  const wordStride = Math.max(1, Math.floor(words.length / count));
  for (let index = 0; index < words.length && queries.length < 3 * count; index += wordStride) {
    const word = words[index] as string;
    queries.push({ kind: 'word', term: word });
    queries.push({ kind: 'word fragment', term: word.slice(1, -1) });
  }
  return queries;
}

interface OptionResult {
  readonly name: string;
  readonly writeMs: number;
  readonly bytes: number;
  readonly recall: Record<Query['kind'], number>;
  readonly precision: number;
  readonly queryP50Ms: number;
}

function measureOption(
  path: string,
  option: FtsOption,
  docs: readonly string[],
  queries: readonly Query[],
  truth: readonly Set<number>[],
): OptionResult {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE docs (rowid INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT;');
  db.exec(option.schema);
  const insertDoc = db.prepare('INSERT INTO docs (rowid, text) VALUES (?, ?)');
  const index = option.insert(db);
  const docsOnly = db.transaction((from: number) => {
    docs.slice(from, from + BATCH).forEach((text, offset) => insertDoc.run(from + offset + 1, text));
  });
  const both = db.transaction((from: number) => {
    docs.slice(from, from + BATCH).forEach((text, offset) => index(from + offset + 1, text));
  });
  let writeMs = 0;
  for (let from = 0; from < docs.length; from += BATCH) docsOnly.immediate(from);
  if (option.perBatch) {
    for (let from = 0; from < docs.length; from += BATCH) {
      const started = performance.now();
      both.immediate(from);
      writeMs += performance.now() - started;
    }
  }
  const bytes = (
    db
      .prepare(
        `SELECT COALESCE(SUM(pgsize), 0) AS bytes FROM dbstat WHERE name IN (${option.tables.map(() => '?').join(', ')})`,
      )
      .get(...option.tables) as { bytes: number }
  ).bytes;
  const search = option.search(db);
  const found: Record<Query['kind'], [number, number]> = {
    'handle substring': [0, 0],
    word: [0, 0],
    'word fragment': [0, 0],
  };
  let returned = 0;
  let correct = 0;
  const times: number[] = [];
  queries.forEach((query, position) => {
    const started = performance.now();
    const hits = new Set(search(query.term));
    times.push(performance.now() - started);
    const expected = truth[position] as Set<number>;
    const tally = found[query.kind];
    tally[1] += expected.size;
    for (const id of hits) {
      returned += 1;
      if (expected.has(id)) {
        correct += 1;
        tally[0] += 1;
      }
    }
  });
  db.close();
  const share = ([hit, all]: [number, number]) => (all === 0 ? 1 : hit / all);
  return {
    name: option.name,
    writeMs,
    bytes,
    recall: {
      'handle substring': share(found['handle substring']),
      word: share(found.word),
      'word fragment': share(found['word fragment']),
    },
    precision: returned === 0 ? 1 : correct / returned,
    queryP50Ms: percentile(times, 0.5),
  };
}

/** The store's index filled in one transaction after every document is written. */
function measureDeferred(path: string, docs: readonly string[]): number {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec("CREATE VIRTUAL TABLE fts USING fts5 (text, content = '', tokenize = 'trigram');");
  const insert = db.prepare('INSERT INTO fts (rowid, text) VALUES (?, ?)');
  const all = db.transaction(() => docs.forEach((text, index) => insert.run(index + 1, text)));
  const ms = (() => {
    const started = performance.now();
    all.immediate();
    return performance.now() - started;
  })();
  db.close();
  return ms;
}

/** Run the full-text option benchmark. */
export async function runFtsOptionsBench(context: BenchContext): Promise<BenchResult> {
  const corpus = await loadCorpus(context, context.quick ? 4e6 : 14e6);
  const counter = createApproximateCounter();
  const docs: string[] = [];
  const handles: string[] = [];
  const tokenMemo = new TokenMemo();
  for (const [index, text] of corpus.texts.entries()) {
    const { entries } = messageToEntries(
      { role: index % 2 === 0 ? 'user' : 'assistant', content: text },
      { maxSpanTokens: 2000, counter, byteStart: 0, tokenMemo },
    );
    for (const entry of entries) {
      docs.push(entry.span.text);
      for (const handle of entry.handles) handles.push(handle.text);
    }
  }
  const bytes = docs.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const queries = drawQueries(docs, handles, context.quick ? 100 : 200);
  context.log(`fts options: ${docs.length} spans (${(bytes / 1e6).toFixed(1)} MB), ${queries.length} queries`);
  const lowered = docs.map((text) => text.toLowerCase());
  const truth = queries.map((query) => {
    const term = query.term.toLowerCase();
    const ids = new Set<number>();
    lowered.forEach((text, index) => {
      if (text.includes(term)) ids.add(index + 1);
    });
    return ids;
  });
  const rows: (string | number | null)[][] = [];
  let baseline: OptionResult | undefined;
  for (const [position, option] of OPTIONS.entries()) {
    context.log(`fts options: ${option.name}`);
    const result = measureOption(join(context.tempDir, `fts-${position}.db`), option, docs, queries, truth);
    baseline ??= result;
    rows.push([
      result.name,
      round(result.writeMs, 0),
      round(bytes / 1e6 / (result.writeMs / 1000), 2),
      round(result.writeMs / baseline.writeMs, 3),
      round(result.bytes / 1e6, 3),
      round(result.bytes / bytes, 3),
      round(result.recall['handle substring'], 4),
      round(result.recall.word, 4),
      round(result.recall['word fragment'], 4),
      round(result.precision, 4),
      round(result.queryP50Ms, 3),
    ]);
  }
  const deferredMs = measureDeferred(join(context.tempDir, 'fts-deferred.db'), docs);
  rows.push([
    'trigram, detail=full, deferred (one transaction)',
    round(deferredMs, 0),
    round(bytes / 1e6 / (deferredMs / 1000), 2),
    round(deferredMs / (baseline?.writeMs ?? deferredMs), 3),
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  ]);
  return speedResult(context, 'speed-fts', 'SQLite full-text index options', {
    notes: [
      `Corpus: ${corpus.source}, chunked into ${docs.length} spans (${(bytes / 1e6).toFixed(1)} MB of span text); index rows written in transactions of ${BATCH}.`,
      `Queries: ${queries.length} (handle substrings, whole words of 5+ letters, and those words without their first and last letter); truth is the case-insensitive substring rule of the memory store. Recall = share of (query, span) pairs found; precision over everything returned.`,
      'Bytes: pages of the option’s own tables (dbstat), not the span text table.',
    ],
    tables: [
      {
        title: 'Full-text index options',
        columns: [
          'option',
          'write ms',
          'MB/s',
          'write vs current',
          'index MB',
          'index / text bytes',
          'recall: handle substrings',
          'recall: words',
          'recall: word fragments',
          'precision',
          'query p50 ms',
        ],
        rows,
      },
    ],
    targets: [],
  });
}
