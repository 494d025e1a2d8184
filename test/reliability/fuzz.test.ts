/**
 * Fuzzing the store API of every backend with fast-check: random batches mixing valid and
 * broken entries (forged span ids, handles at wrong offsets or of another span, negative or
 * fractional numbers, stale or negative seqs, huge and unicode strings, U+0000). Every call
 * either succeeds and reads back exactly, or throws a typed LedgerError and changes nothing,
 * counted below the API where there is a below.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerError } from '../../src/errors.js';
import { createSpan, roleOf } from '../../src/span.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import type { AppendEntry, LedgerStore } from '../../src/stores/store.js';
import type { SourceKind } from '../../src/types.js';
import { PG_URL, describePostgres, dropSchema, rawClient, uniqueSchema } from '../stores/postgres-env.js';

const KINDS: SourceKind[] = ['system', 'user', 'assistant', 'tool-call', 'tool-result'];

/** Well-formed text: full Unicode (astral planes, U+0000), sometimes huge. */
const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9 _%\\.-]{1,30}$/) },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 120_000 }).map((length) => 'eu-west-2b '.repeat(Math.ceil(length / 11)).slice(0, length)) },
);

/** How an entry is broken, if at all. */
const flaw = fc.constantFrom('none', 'none', 'none', 'none', 'forged-id', 'handle-offset', 'handle-other-span', 'negative-byte', 'reversed-bytes', 'fractional-tokens', 'negative-chunk', 'handles-missing', 'nul-label');

const entrySpec = fc.record({ kind: fc.constantFrom(...KINDS), text, flaw, cut: fc.tuple(fc.nat(), fc.nat()), tokens: fc.nat({ max: 5000 }), label: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }) });

type EntrySpec = typeof entrySpec extends fc.Arbitrary<infer T> ? T : never;

function buildEntry(spec: EntrySpec): AppendEntry {
  const span = createSpan({ kind: spec.kind, text: spec.text, tokens: spec.tokens });
  const points = [...spec.text];
  const from = points.length === 0 ? 0 : spec.cut[0] % points.length;
  const to = Math.min(points.length, from + 1 + (spec.cut[1] % 12));
  const start = points.slice(0, from).join('').length;
  const handleText = points.slice(from, to).join('');
  const handle = { kind: 'identifier' as const, text: handleText, key: handleText.toLowerCase(), start, end: start + handleText.length, spanId: span.id, role: roleOf(spec.kind), tokens: 2 };
  const entry: AppendEntry = { span, role: roleOf(spec.kind), byteStart: 0, byteEnd: Buffer.byteLength(spec.text), label: spec.label, handles: handleText.length > 0 ? [handle] : [] };
  switch (spec.flaw) {
    case 'forged-id':
      return { ...entry, span: { ...span, text: span.text + 'x' } };
    case 'handle-offset':
      return { ...entry, handles: [{ ...handle, start: handle.start + 1, end: handle.end + 1 }] };
    case 'handle-other-span':
      return { ...entry, handles: [{ ...handle, spanId: 'sha256:' + '0'.repeat(64) }] };
    case 'negative-byte':
      return { ...entry, byteStart: -1 };
    case 'reversed-bytes':
      return { ...entry, byteStart: 10, byteEnd: 2 };
    case 'fractional-tokens':
      return { ...entry, handles: [{ ...handle, tokens: 1.5 }] };
    case 'negative-chunk':
      return { ...entry, chunk: { index: -1, count: 2 } };
    case 'handles-missing':
      return { ...entry, handles: undefined as never };
    case 'nul-label':
      return { ...entry, label: 'a\u0000b' };
    default:
      return entry;
  }
}

/** Everything observable of one session through the API. */
async function observe(store: LedgerStore, sessionId: string) {
  return { nextSeq: await store.nextSeq(sessionId), occurrences: (await store.occurrences(sessionId)).length, handles: (await store.handles(sessionId)).length };
}

interface Backend {
  store: LedgerStore;
  /** Row counts below the API (all sessions), where there is a below. */
  rawCounts?: () => Promise<number[]>;
}

function fuzzAppends(backend: () => Backend, numRuns: number, searchRuns: number): void {
  it(`appends: success reads back exactly, failure is a typed error and writes nothing (${numRuns} cases)`, async () => {
    const { store, rawCounts } = backend();
    let round = 0;
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(entrySpec, { maxLength: 5 }), fc.constantFrom(0, 0, 0, 0, 1, -1, -5, 0.5), async (specs, offset) => {
        const sessionId = `fuzz-${Math.floor(round++ / 25)}`;
        await store.openSession(sessionId);
        const before = await observe(store, sessionId);
        const rawBefore = await rawCounts?.();
        const entries = specs.map(buildEntry);
        let written;
        try {
          written = await store.append(sessionId, before.nextSeq + offset, entries);
        } catch (error) {
          failures += 1;
          expect(LedgerError.isInstance(error), `not a LedgerError: ${String(error)}`).toBe(true);
          expect(await observe(store, sessionId)).toEqual(before);
          if (rawCounts) expect(await rawCounts()).toEqual(rawBefore);
          return;
        }
        expect(offset).toBe(0);
        const after = await store.occurrences(sessionId, { fromSeq: before.nextSeq });
        expect(after).toEqual(written);
        after.forEach((occurrence, index) => {
          expect(occurrence.span.text).toBe(entries[index]!.span.text);
          expect(occurrence.label).toBe(entries[index]!.label);
        });
        const handles = await store.handles(sessionId, { fromSeq: before.nextSeq });
        expect(handles.map((handle) => handle.text)).toEqual(entries.flatMap((entry) => entry.handles.map((handle) => handle.text)));
      }),
      { numRuns, seed: 4242, endOnFailure: true },
    );
    expect(failures).toBeGreaterThan(numRuns / 10);
  }, 60_000);

  it(`searches and lookups never throw and agree with a reference model on a small alphabet (${searchRuns} cases)`, async () => {
    const { store } = backend();
    const sessionId = 'fuzz-search';
    const reference = createMemoryStore();
    const word = fc.stringMatching(/^[abé_%\\-]{1,6}$/);
    const texts = fc.sample(fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')), { numRuns: 40, seed: 7 });
    const entries = texts.map((value) => ({ span: createSpan({ kind: 'user', text: value, tokens: 1 }), role: 'user' as const, byteStart: 0, byteEnd: 1, handles: [] }));
    for (const target of [store, reference]) {
      await target.openSession(sessionId);
      await target.append(sessionId, 0, entries);
    }
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')), async (query) => {
        const hits = await store.searchText(sessionId, query, 100);
        const expected = await reference.searchText(sessionId, query, 100);
        expect(hits.map((hit) => hit.seq).sort((a, b) => a - b)).toEqual(expected.map((hit) => hit.seq).sort((a, b) => a - b));
        expect(await store.findHandles(sessionId, query)).toEqual([]);
      }),
      { numRuns: searchRuns, seed: 99 },
    );
  }, 60_000);
}

describe('fuzz: memory', () => {
  const backend: Backend = { store: createMemoryStore() };
  fuzzAppends(() => backend, 2000, 500);
});

describe('fuzz: SQLite', () => {
  const directory = mkdtempSync(join(tmpdir(), 'context-ledger-fuzz-'));
  const path = join(directory, 'ledger.db');
  const backend: Backend = { store: createSqliteStore({ path }) };
  const raw = new Database(path, { readonly: true });
  backend.rawCounts = async () => ['spans', 'occurrences', 'handles', 'occurrence_fts'].map((table) => raw.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number);
  afterAll(async () => {
    raw.close();
    await backend.store.close();
    rmSync(directory, { recursive: true, force: true });
  });
  fuzzAppends(() => backend, 1500, 300);
});

describePostgres('fuzz: PostgreSQL', () => {
  const schema = uniqueSchema('fuzz');
  const backend = {} as Backend;
  let raw: pg.Client;
  beforeAll(async () => {
    backend.store = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 });
    raw = await rawClient();
    backend.rawCounts = async () => {
      const result = await raw.query(`SELECT (SELECT COUNT(*) FROM "${schema}".spans) AS a, (SELECT COUNT(*) FROM "${schema}".occurrences) AS b, (SELECT COUNT(*) FROM "${schema}".handles) AS c`);
      return Object.values(result.rows[0] as Record<string, string>).map(Number);
    };
  });
  afterAll(async () => {
    await raw.end();
    await backend.store.close();
    await dropSchema(schema);
  });
  fuzzAppends(() => backend, 500, 150);
});
