/**
 * SQLite ingest: `session.append` (canonicalize, hash, count tokens, extract handles, write
 * span + occurrence + handles + full-text row in one transaction) vs a raw better-sqlite3
 * insert of the same messages (session, seq, role, text) in transactions of the same size,
 * with the same pragmas (WAL, synchronous=NORMAL). Target: ledger throughput >= 1/3 of raw.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createLedger } from '../../src/session/ledger.js';
import { messageToEntries } from '../../src/ingest/ingest.js';
import { TokenMemo } from '../../src/handles/token-memo.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import type { AppendEntry } from '../../src/stores/store.js';
import { createApproximateCounter, createO200kCounter } from '../../src/tokens/token-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import { atLeast, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { loadCorpus } from './corpus.js';
import { speedResult } from './speed-result.js';
import { timeMs } from './timing.js';

const BATCH = 50;

async function ledgerIngest(
  path: string,
  messages: readonly TranscriptMessage[],
  counter: TokenCounter,
): Promise<number> {
  const store = createSqliteStore({ path });
  const session = await createLedger({ store, tokenCounter: counter }).session('ingest', {
    window: { maxTokens: 1_000_000 },
  });
  const ms = await timeMs(async () => {
    for (let index = 0; index < messages.length; index += BATCH)
      await session.append(messages.slice(index, index + BATCH));
  });
  await store.close();
  return ms;
}

/** The two halves of an append, timed apart: building entries (chunk, hash, count, extract) and writing them. */
async function splitIngest(
  path: string,
  messages: readonly TranscriptMessage[],
  counter: TokenCounter,
): Promise<{ prepareMs: number; writeMs: number }> {
  const entries: AppendEntry[] = [];
  // One memo of token classifications for the transcript, as a session keeps one.
  const tokenMemo = new TokenMemo();
  const prepareMs = await timeMs(() => {
    let byte = 0;
    for (const message of messages) {
      const ingested = messageToEntries(message, { maxSpanTokens: 2000, counter, byteStart: byte, tokenMemo });
      entries.push(...ingested.entries);
      byte = ingested.byteEnd;
    }
  });
  const store = createSqliteStore({ path });
  await store.openSession('split');
  const writeMs = await timeMs(async () => {
    for (let index = 0; index < entries.length; index += BATCH)
      await store.append('split', index, entries.slice(index, index + BATCH));
  });
  await store.close();
  return { prepareMs, writeMs };
}

function rawIngest(path: string, messages: readonly TranscriptMessage[]): Promise<number> {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE messages (session_id TEXT NOT NULL, seq INTEGER NOT NULL, role TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (session_id, seq)) STRICT, WITHOUT ROWID',
  );
  const insert = db.prepare('INSERT INTO messages VALUES (?, ?, ?, ?)');
  const batch = db.transaction((from: number) => {
    messages
      .slice(from, from + BATCH)
      .forEach((message, offset) => insert.run('ingest', from + offset, message.role, message.content));
  });
  return timeMs(() => {
    for (let index = 0; index < messages.length; index += BATCH) batch.immediate(index);
  }).finally(() => db.close());
}

/** Run the ingest benchmark. */
export async function runIngestBench(context: BenchContext): Promise<BenchResult> {
  const corpus = await loadCorpus(context, context.quick ? 3e6 : 12e6);
  const messages: TranscriptMessage[] = corpus.texts.map((text, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: text,
  }));
  const bytes = corpus.bytes / 1e6;
  const rows: (string | number | null)[][] = [];
  const raw = await rawIngest(join(context.tempDir, 'ingest-raw.db'), messages);
  rows.push(['raw better-sqlite3 insert', round(messages.length / (raw / 1000), 0), round(bytes / (raw / 1000), 2), 1]);
  let ratio = Number.NaN;
  for (const [label, counter] of [
    ['o200k (default)', createO200kCounter()],
    ['approx-4', createApproximateCounter()],
  ] as const) {
    context.log(`ingest: session.append with ${label} counter, ${messages.length} messages`);
    const ms = await ledgerIngest(join(context.tempDir, `ingest-${counter.name}.db`), messages, counter);
    const relative = raw / ms;
    if (counter.name === 'o200k_base') ratio = relative;
    rows.push([
      `session.append, ${label} counter`,
      round(messages.length / (ms / 1000), 0),
      round(bytes / (ms / 1000), 2),
      round(relative, 4),
    ]);
  }
  const split = await splitIngest(join(context.tempDir, 'ingest-split.db'), messages, createO200kCounter());
  rows.push([
    '  of which: build entries (chunk, hash, o200k count, extract)',
    round(messages.length / (split.prepareMs / 1000), 0),
    round(bytes / (split.prepareMs / 1000), 2),
    round(raw / split.prepareMs, 4),
  ]);
  rows.push([
    '  of which: store.append of built entries (SQLite)',
    round(messages.length / (split.writeMs / 1000), 0),
    round(bytes / (split.writeMs / 1000), 2),
    round(raw / split.writeMs, 4),
  ]);
  return speedResult(context, 'speed-ingest', 'SQLite ingest', {
    notes: [
      `Corpus: ${corpus.source}; ${messages.length} messages appended in batches of ${BATCH}, one transaction per batch on both sides.`,
      'The raw side writes one row per message into one table; the ledger writes span, occurrence, handles and a trigram full-text row. The two "of which" rows time the halves of an append separately (same work as session.append, split) to locate the cost.',
    ],
    tables: [{ title: 'Ingest throughput', columns: ['path', 'messages/s', 'MB/s', 'throughput vs raw'], rows }],
    targets: [atLeast('SQLite ingest throughput: session.append / raw insert (o200k counter)', round(ratio, 4), 0.33)],
  });
}
