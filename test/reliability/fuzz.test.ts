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
import { InvalidInputError, LedgerError } from '../../src/errors.js';
import { createSpan, roleOf, spanId, verifySpan } from '../../src/model/span.js';
import { countO200kTokens, countingPieces } from '../../src/tokens/token-counter.js';
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
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 10_000, max: 120_000 })
      .map((length) => 'eu-west-2b '.repeat(Math.ceil(length / 11)).slice(0, length)),
  },
);

/** Control characters (C0, DEL, C1, U+0000 first among them) mixed with a few ordinary ones. */
const controlText = fc.string({
  unit: fc.constantFrom(
    '\u0000',
    '\u0001',
    '\u0007',
    '\t',
    '\n',
    '\r',
    '\u001b',
    '\u001f',
    '\u007f',
    '\u0085',
    'a',
    ':',
    '-',
    '~',
  ),
  minLength: 1,
  maxLength: 8,
});

/** An id field: absent, plain, or full of control characters. */
const idField = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z_]{1,8}$/) },
  { weight: 3, arbitrary: controlText },
);

/** A long run of one character class (letters, spaces, digits, newlines, CJK, astral, punctuation). */
const singleClassRun = fc
  .tuple(fc.constantFrom('a', 'x', ' ', '1', '\n', '中', '🚀', '-', '\t', 'é'), fc.integer({ min: 1_000, max: 30_000 }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));

/** How an entry is broken, if at all. */
const flaw = fc.constantFrom(
  'none',
  'none',
  'none',
  'none',
  'forged-id',
  'handle-offset',
  'handle-other-span',
  'negative-byte',
  'reversed-bytes',
  'fractional-tokens',
  'negative-chunk',
  'handles-missing',
  'nul-label',
);

const entrySpec = fc.record({
  kind: fc.constantFrom(...KINDS),
  text: fc.oneof({ weight: 9, arbitrary: text }, { weight: 1, arbitrary: singleClassRun }),
  flaw,
  cut: fc.tuple(fc.nat(), fc.nat()),
  tokens: fc.nat({ max: 5000 }),
  label: fc.oneof(fc.option(fc.string({ maxLength: 8 }), { nil: undefined }), controlText),
  toolName: idField,
  toolCallId: idField,
});

type EntrySpec = typeof entrySpec extends fc.Arbitrary<infer T> ? T : never;

/** Session ids: mostly plain, sometimes with control characters (U+0000 included) appended. */
const controlSuffix = fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: controlText });

function buildEntry(spec: EntrySpec): AppendEntry {
  const span = createSpan({
    kind: spec.kind,
    text: spec.text,
    toolName: spec.toolName,
    toolCallId: spec.toolCallId,
    tokens: spec.tokens,
  });
  const points = [...spec.text];
  const from = points.length === 0 ? 0 : spec.cut[0] % points.length;
  const to = Math.min(points.length, from + 1 + (spec.cut[1] % 12));
  const start = points.slice(0, from).join('').length;
  const handleText = points.slice(from, to).join('');
  const handle = {
    kind: 'identifier' as const,
    text: handleText,
    key: handleText.toLowerCase(),
    start,
    end: start + handleText.length,
    spanId: span.id,
    role: roleOf(spec.kind),
    tokens: 2,
  };
  const entry: AppendEntry = {
    span,
    role: roleOf(spec.kind),
    byteStart: 0,
    byteEnd: Buffer.byteLength(spec.text),
    label: spec.label,
    handles: handleText.length > 0 ? [handle] : [],
  };
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
  return {
    nextSeq: await store.nextSeq(sessionId),
    occurrences: (await store.occurrences(sessionId)).length,
    handles: (await store.handles(sessionId)).length,
  };
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
      fc.asyncProperty(
        fc.array(entrySpec, { maxLength: 5 }),
        fc.constantFrom(0, 0, 0, 0, 1, -1, -5, 0.5),
        controlSuffix,
        async (specs, offset, suffix) => {
          const sessionId = `fuzz-${Math.floor(round++ / 25)}${suffix}`;
          try {
            await store.openSession(sessionId);
          } catch (error) {
            // Only PostgreSQL refuses a session id (one holding U+0000), with a typed error.
            expect(InvalidInputError.isInstance(error), `not InvalidInputError: ${String(error)}`).toBe(true);
            expect(sessionId).toContain('\u0000');
            return;
          }
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
            const source = entries[index]!.span;
            expect(occurrence.span.text).toBe(source.text);
            expect(occurrence.label).toBe(entries[index]!.label);
            // Every id field reads back exactly: no span of other content is ever returned under this id.
            expect([occurrence.span.kind, occurrence.span.toolName, occurrence.span.toolCallId]).toEqual([
              source.kind,
              source.toolName,
              source.toolCallId,
            ]);
            expect(verifySpan(occurrence.span)).toBe(true);
          });
          const handles = await store.handles(sessionId, { fromSeq: before.nextSeq });
          expect(handles.map((handle) => handle.text)).toEqual(
            entries.flatMap((entry) => entry.handles.map((handle) => handle.text)),
          );
        },
      ),
      { numRuns, seed: 4242, endOnFailure: true },
    );
    expect(failures).toBeGreaterThan(numRuns / 10);
  }, 60_000);

  it(`searches and lookups never throw and agree with a reference model on a small alphabet (${searchRuns} cases)`, async () => {
    const { store } = backend();
    const sessionId = 'fuzz-search';
    const reference = createMemoryStore();
    const word = fc.stringMatching(/^[abé_%\\-]{1,6}$/);
    const texts = fc.sample(
      fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')),
      { numRuns: 40, seed: 7 },
    );
    const entries = texts.map((value) => ({
      span: createSpan({ kind: 'user', text: value, tokens: 1 }),
      role: 'user' as const,
      byteStart: 0,
      byteEnd: 1,
      handles: [],
    }));
    for (const target of [store, reference]) {
      await target.openSession(sessionId);
      await target.append(sessionId, 0, entries);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
        async (query) => {
          const hits = await store.searchText(sessionId, query, 100);
          const expected = await reference.searchText(sessionId, query, 100);
          expect(hits.map((hit) => hit.seq).sort((a, b) => a - b)).toEqual(
            expected.map((hit) => hit.seq).sort((a, b) => a - b),
          );
          expect(await store.findHandles(sessionId, query)).toEqual([]);
        },
      ),
      { numRuns: searchRuns, seed: 99 },
    );
  }, 60_000);
}

describe('fuzz: control characters in id fields and long single-class runs', () => {
  it('gives different contents different span ids whatever control characters their id fields hold (20000 cases)', () => {
    const content = fc.record({
      kind: fc.constantFrom(...KINDS),
      text: fc.oneof(controlText, fc.constant('')),
      toolName: idField,
      toolCallId: idField,
    });
    fc.assert(
      fc.property(content, content, (a, b) => {
        const same =
          a.kind === b.kind && a.text === b.text && a.toolName === b.toolName && a.toolCallId === b.toolCallId;
        expect(spanId(a) === spanId(b)).toBe(same);
      }),
      { numRuns: 20_000, seed: 1010 },
    );
  });

  it('counts long single-class runs deterministically in bounded, lossless pieces (200 cases)', () => {
    fc.assert(
      fc.property(singleClassRun, fc.oneof(fc.constant(''), controlText), (run, tail) => {
        const value = run + tail;
        const pieces = countingPieces(value);
        expect(pieces.join('')).toBe(value);
        for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(2_000);
        expect(countO200kTokens(value)).toBe(countO200kTokens(value));
      }),
      { numRuns: 200, seed: 77 },
    );
  });
});

describe('fuzz: memory', () => {
  const backend: Backend = { store: createMemoryStore() };
  fuzzAppends(() => backend, 2000, 500);
});

describe('fuzz: SQLite', () => {
  const directory = mkdtempSync(join(tmpdir(), 'context-ledger-fuzz-'));
  const path = join(directory, 'ledger.db');
  const backend: Backend = { store: createSqliteStore({ path }) };
  const raw = new Database(path, { readonly: true });
  backend.rawCounts = async () =>
    ['spans', 'occurrences', 'handle_rows', 'occurrence_fts'].map(
      (table) => raw.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number,
    );
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
      const result = await raw.query(
        `SELECT (SELECT COUNT(*) FROM "${schema}".spans) AS a, (SELECT COUNT(*) FROM "${schema}".occurrences) AS b, (SELECT COUNT(*) FROM "${schema}".handles) AS c`,
      );
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
