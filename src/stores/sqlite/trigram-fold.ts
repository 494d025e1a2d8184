/**
 * Case folding exactly as SQLite's FTS5 trigram tokenizer folds (its default `case_sensitive 0`), so text can be
 * matched against a query term in JavaScript with the index's own rule (`text-search.ts`). The tokenizer maps each
 * code point to one code point (its own Unicode table, older than V8's: Cherokee, Georgian Mtavruli and others stay
 * as they are; `ſ` becomes `s`), reads U+FFFE and U+FFFF as U+FFFD, and skips NUL. JavaScript's `toLowerCase` differs
 * on several hundred code points, so the table is taken from the linked SQLite itself, once per process: every code
 * point that some case mapping changes (`Changes_When_Casemapped`; the test checks every code point) is put through
 * the tokenizer of an in-memory FTS5 table.
 */
import Database from 'better-sqlite3';

/** Code points below this are the only ones a case mapping changes (the highest, Adlam, is U+1E943). */
const CASED_BELOW = 0x20000;
const CASE_MAPPED = /\p{Changes_When_Casemapped}/u;
const REPLACEMENT = 0xfffd;

/**
 * The fold table, built on first use and never changed after: a constant of the linked SQLite (the same for every store
 * of the process), made lazily because probing takes a moment that a process reading no trigram index never pays.
 */
let folds: ReadonlyMap<number, number> | undefined;

/** Code point → what the trigram tokenizer folds it to, for every code point it changes. */
export function trigramFolds(): ReadonlyMap<number, number> {
  folds ??= foldsOfSqlite();
  return folds;
}

function foldsOfSqlite(): Map<number, number> {
  const probes = [0xfffe, 0xffff];
  for (let code = 1; code < CASED_BELOW; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if (CASE_MAPPED.test(String.fromCodePoint(code))) probes.push(code);
  }
  return foldsOf(probes);
}

/** What the tokenizer folds each of `codes` to (only those it changes), read back through `fts5vocab`. */
export function foldsOf(codes: readonly number[]): Map<number, number> {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE probe USING fts5 (text, tokenize = 'trigram', detail = none);
      CREATE VIRTUAL TABLE probe_terms USING fts5vocab (probe, instance);`);
    const insert = db.prepare('INSERT INTO probe (rowid, text) VALUES (?, ?)');
    db.transaction(() => {
      for (const code of codes) insert.run(code, String.fromCodePoint(code).repeat(3));
    })();
    const result = new Map<number, number>();
    const terms = db.prepare('SELECT doc, term FROM probe_terms') as Database.Statement<
      [],
      { doc: number; term: string }
    >;
    for (const { doc, term } of terms.iterate()) {
      const folded = term.codePointAt(0) as number;
      if (folded !== doc) result.set(doc, folded);
    }
    return result;
  } finally {
    db.close();
  }
}

/** Text that is ASCII without NUL folds by `toLowerCase` alone. */
function plainAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0 || unit > 0x7f) return false;
  }
  return true;
}

/** A text folded as the trigram tokenizer folds it (NUL dropped, lone surrogates read as U+FFFD) and its length in code points. */
export function foldForTrigrams(text: string): { readonly folded: string; readonly codePoints: number } {
  if (plainAscii(text)) return { folded: text.toLowerCase(), codePoints: text.length };
  const table = trigramFolds();
  let folded = '';
  let codePoints = 0;
  for (const character of text) {
    let code = character.codePointAt(0) as number;
    if (code === 0) continue;
    if (code >= 0xd800 && code <= 0xdfff) code = REPLACEMENT;
    folded += String.fromCodePoint(table.get(code) ?? code);
    codePoints += 1;
  }
  return { folded, codePoints };
}
