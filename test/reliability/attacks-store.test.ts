/**
 * Probes from issue 10, each a test that failed on the code before the fix: cross-tenant span
 * spoofing through the ambiguous `cl-span-v1` form, a reused span id holding other content,
 * token counts leaking across tenants, `TENANT_MISMATCH` naming the owner, a writable SQLite
 * FTS index, records edited below the API, and token counting that choked on long runs.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { ImmutableSpanError, InvalidInputError, TenantMismatchError } from '../../src/errors.js';
import { createLedger } from '../../src/session/ledger.js';
import {
  canonicalSpanBytes,
  createSpan,
  isWellFormedText,
  legacyCanonicalSpanBytes,
  spanId,
  verifySpan,
} from '../../src/model/span.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { applyMigration } from '../../src/stores/sqlite/migrate.js';
import { storedSpanKey } from '../../src/stores/sqlite/span-keys.js';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/stores/sqlite/schema.js';
import { spanRowKey } from '../../src/stores/store-input.js';
import type { AppendEntry, LedgerStore } from '../../src/stores/store.js';
import { COUNT_PIECE_CAP, countO200kTokens, countingPieces } from '../../src/tokens/token-counter.js';
import type { CompactionRecord, Span } from '../../src/types.js';
import { entry, expectLedgerError, sampleRecord } from '../stores/fixtures.js';
import { PG_URL, describePostgres, dropSchema, rawClient, uniqueSchema } from '../stores/postgres-env.js';
import { fillerTurns, SEED_OPENING } from '../helpers.js';

/** The two tool results of the issue: v1 joined both to the same bytes. */
const ATTACKER = {
  kind: 'tool-result' as const,
  toolName: 'shell\u0000call_7',
  toolCallId: 'DO NOT deploy',
  text: 'deploy to eu-west-1 now',
};
const VICTIM = {
  kind: 'tool-result' as const,
  toolName: 'shell',
  toolCallId: 'call_7',
  text: 'DO NOT deploy\u0000deploy to eu-west-1 now',
};

function toolEntry(content: typeof ATTACKER, tokens = 7): AppendEntry {
  return {
    span: createSpan({ ...content, tokens }),
    role: 'tool',
    byteStart: 0,
    byteEnd: Buffer.byteLength(content.text),
    handles: [],
  };
}

function v1Id(content: Parameters<typeof legacyCanonicalSpanBytes>[0]): string {
  return 'sha256:' + createHash('sha256').update(legacyCanonicalSpanBytes(content)).digest('hex');
}

describe('span canonical form (cl-span-v2)', () => {
  it('gives the two spoofing spans of the issue different ids (v1 gave them one)', () => {
    expect(v1Id(ATTACKER)).toBe(v1Id(VICTIM));
    expect(spanId(ATTACKER)).not.toBe(spanId(VICTIM));
    expect(canonicalSpanBytes(VICTIM).subarray(0, 11).toString()).toBe('cl-span-v2\n');
  });

  it('never maps two different contents to the same bytes, whatever control characters the fields hold', () => {
    const control = fc.string({
      unit: fc.constantFrom('\u0000', '\u0001', '\n', '\r', '\u001f', '\u007f', ':', '-', '1', 'a'),
      maxLength: 6,
    });
    const content = fc.record({
      kind: fc.constantFrom('user' as const, 'tool-result' as const),
      toolName: fc.option(control, { nil: undefined }),
      toolCallId: fc.option(control, { nil: undefined }),
      text: control,
    });
    fc.assert(
      fc.property(content, content, (a, b) => {
        const same =
          a.kind === b.kind && a.text === b.text && a.toolName === b.toolName && a.toolCallId === b.toolCallId;
        expect(Buffer.from(canonicalSpanBytes(a)).equals(canonicalSpanBytes(b))).toBe(same);
      }),
      { numRuns: 3000, seed: 10 },
    );
  });

  it('tells an absent tool name from an empty one', () => {
    expect(spanId({ kind: 'tool-result', text: 'x', toolName: '' })).not.toBe(
      spanId({ kind: 'tool-result', text: 'x' }),
    );
  });

  it('verifies v1 spans of older ledgers only where v1 is unambiguous', () => {
    const plain = { kind: 'tool-result' as const, toolName: 'bash', toolCallId: 'c1', text: 'exit 0', tokens: 2 };
    expect(verifySpan({ ...plain, id: v1Id(plain) })).toBe(true);
    // The attacker's row: its tool name holds U+0000, so its v1 id may name other content.
    expect(verifySpan({ ...ATTACKER, tokens: 2, id: v1Id(ATTACKER) })).toBe(false);
    expect(verifySpan({ ...plain, text: 'exit 1', id: v1Id(plain) })).toBe(false);
  });

  it('refuses to append a span whose id is the v1 form', async () => {
    const store = createMemoryStore();
    await store.openSession('s');
    const plain = { kind: 'user' as const, text: 'hello', tokens: 1 };
    const legacy: Span = Object.freeze({ ...plain, id: v1Id(plain), toolName: undefined, toolCallId: undefined });
    await expectLedgerError(
      store.append('s', 0, [{ span: legacy, role: 'user', byteStart: 0, byteEnd: 5, handles: [] }]),
      InvalidInputError,
      'INVALID_INPUT',
      [/cl-span-v2/],
    );
  });
});

/** What each backend's attack tests need: a store, and a raw insert below the API where there is one. */
interface Target {
  store: LedgerStore;
  /** Insert a span row directly (no trigger stops a new key); absent for memory. */
  insertSpanRow?: (key: string, text: string) => Promise<void>;
}

function describeAttacks(name: string, open: () => Promise<Target & { cleanup(): Promise<void> }>): void {
  describe(`attacks on ${name}`, () => {
    let target: Target & { cleanup(): Promise<void> };
    beforeEach(async () => {
      target = await open();
    });
    afterEach(async () => {
      await target.cleanup();
    });

    it("cross-tenant spoofing: tenant A reads back its own tool result, never tenant B's", async () => {
      const { store } = target;
      await store.openSession('b-session', { tenantId: 'tenant-b' });
      await store.openSession('a-session', { tenantId: 'tenant-a' });
      const attack = await store.append('b-session', 0, [toolEntry(ATTACKER)]).catch((error: unknown) => error);
      // PostgreSQL refuses U+0000 in a tool name; the others store it, under its own id.
      if (attack instanceof Error) expect(InvalidInputError.isInstance(attack)).toBe(true);
      const [written] = await store.append('a-session', 0, [toolEntry(VICTIM)]);
      for (const span of [
        written!.span,
        (await store.occurrences('a-session'))[0]!.span,
        (await store.spans('a-session', [written!.spanId]))[0]!,
      ]) {
        expect(span).toMatchObject({ text: VICTIM.text, toolName: 'shell', toolCallId: 'call_7' });
        expect(verifySpan(span)).toBe(true);
      }
      expect(await store.occurrencesOf('a-session', written!.spanId)).toHaveLength(1);
    });

    it("cross-tenant spoofing through a session: A's recall returns A's text", async () => {
      const ledger = createLedger({ store: target.store });
      const intruder = await ledger.session('b-session', { tenantId: 'tenant-b' });
      await intruder
        .append({ role: 'tool', toolName: ATTACKER.toolName, toolCallId: ATTACKER.toolCallId, content: ATTACKER.text })
        .catch(() => undefined);
      const victim = await ledger.session('a-session', { tenantId: 'tenant-a' });
      const appended = await victim
        .append({ role: 'tool', toolName: VICTIM.toolName, toolCallId: VICTIM.toolCallId, content: VICTIM.text })
        .catch((error: unknown) => error);
      if (target.store.kind === 'postgres') {
        // PostgreSQL refuses the handles extracted around U+0000 (text cannot hold it): nothing to spoof.
        expect(InvalidInputError.isInstance(appended)).toBe(true);
        return;
      }
      const result = await victim.recall('eu-west-1');
      const texts = result.results.map((hit) => hit.text);
      expect(texts.length).toBeGreaterThan(0);
      for (const hit of result.results) expect(hit.text).toContain('DO NOT deploy');
    });

    it('keeps span rows per tenant: the same content in two tenants keeps each its own token count', async () => {
      const { store } = target;
      await store.openSession('a-session', { tenantId: 'tenant-a' });
      await store.openSession('b-session', { tenantId: 'tenant-b' });
      const text = { kind: 'user' as const, text: 'PAYMENTS_DB_PASSWORD=hunter2' };
      const [first] = await store.append('a-session', 0, [
        { span: createSpan({ ...text, tokens: 11 }), role: 'user', byteStart: 0, byteEnd: 28, handles: [] },
      ]);
      const [second] = await store.append('b-session', 0, [
        { span: createSpan({ ...text, tokens: 99 }), role: 'user', byteStart: 0, byteEnd: 28, handles: [] },
      ]);
      expect(first!.spanId).toBe(second!.spanId);
      // Before: B got A's count back (11), which told B that A holds this exact text.
      expect(second!.span.tokens).toBe(99);
      expect((await store.spans('b-session', [second!.spanId]))[0]!.tokens).toBe(99);
      expect((await store.spans('a-session', [first!.spanId]))[0]!.tokens).toBe(11);
      expect((await store.occurrences('b-session'))[0]!.span.tokens).toBe(99);
    });

    it('refuses to reuse a stored row whose content differs from the span appended under its id', async () => {
      if (!target.insertSpanRow) return;
      const { store } = target;
      await store.openSession('victim');
      const honest = entry('tool-result', 'the eu-west-1 replica is read-only, do not target it', [], {
        toolName: 'bash',
        toolCallId: 'c9',
      });
      await target.insertSpanRow(spanRowKey(honest.span.id, undefined), 'target eu-west-1');
      const error = await expectLedgerError(store.append('victim', 0, [honest]), ImmutableSpanError, 'IMMUTABLE_SPAN', [
        honest.span.id,
        'victim',
        /other content/,
      ]);
      expect(error.details).toMatchObject({ spanId: honest.span.id });
      expect(await store.nextSeq('victim')).toBe(0);
      expect(await store.occurrences('victim')).toEqual([]);
    });

    it('does not tell another tenant whether, or by whom, a session id is used', async () => {
      const { store } = target;
      await store.openSession('session-one', { tenantId: 'acme' });
      await store.openSession('session-two');
      const messages: string[] = [];
      for (const id of ['session-one', 'session-two']) {
        const error = await expectLedgerError(
          store.openSession(id, { tenantId: 'evil' }),
          TenantMismatchError,
          'TENANT_MISMATCH',
          [id, /evil/],
        );
        expect(error.message).not.toMatch(/acme|null|belongs/);
        expect(JSON.stringify(error.details)).not.toContain('acme');
        messages.push(error.message.replace(id, 'ID'));
      }
      expect(messages[0]).toBe(messages[1]);
    });
  });
}

describeAttacks('memory', async () => {
  const store = createMemoryStore();
  return { store, cleanup: () => store.close() };
});

describeAttacks('SQLite', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'context-ledger-attacks-'));
  const path = join(directory, 'ledger.db');
  const store = createSqliteStore({ path });
  const raw = new Database(path);
  return {
    store,
    insertSpanRow: async (key, text) =>
      void raw
        .prepare(
          "INSERT INTO spans (id, kind, text, tool_name, tool_call_id, tokens) VALUES (?, 'tool-result', ?, 'bash', 'c9', 1)",
        )
        .run(storedSpanKey(key), text),
    cleanup: async () => {
      raw.close();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

describePostgres('attacks: PostgreSQL', () => {
  describeAttacks('PostgreSQL', async () => {
    const schema = uniqueSchema('attack');
    const store = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 });
    const raw = await rawClient();
    return {
      store,
      insertSpanRow: async (key, text) =>
        void (await raw.query(
          `INSERT INTO "${schema}".spans (id, kind, text, tool_name, tool_call_id, tokens) VALUES ($1, 'tool-result', $2, 'bash', 'c9', 1)`,
          [key, text],
        )),
      cleanup: async () => {
        await raw.end();
        await store.close();
        await dropSchema(schema);
      },
    };
  });
});

describe('SQLite free-text index', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'context-ledger-fts-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const refusals = [
    "UPDATE occurrence_fts SET text = 'forged'",
    'DELETE FROM occurrence_fts',
    'UPDATE occurrence_text_rows SET seq = 5',
    'DELETE FROM occurrence_text_rows',
  ];

  it('refuses UPDATE and DELETE of the index from any connection', async () => {
    const path = join(directory, 'ledger.db');
    const store = createSqliteStore({ path });
    await store.openSession('s');
    await store.append('s', 0, [entry('user', 'the replica eu-west-2b is the target')]);
    // The index is written after the append; a search brings it up to date, so the attacks meet an indexed row.
    await store.searchText('s', 'replica', 5);
    const raw = new Database(path);
    for (const sql of refusals) expect(() => raw.exec(sql), sql).toThrow(/contentless|immutable/);
    raw.close();
    expect((await store.searchText('s', 'eu-west-2b', 5)).map((hit) => hit.seq)).toEqual([0]);
    await store.close();
  });

  it('migrates a version 1 file: rebuilds the index from the stored spans, then refuses changes', async () => {
    const path = join(directory, 'old.db');
    const old = new Database(path);
    applyMigration(old, 0);
    old.pragma('user_version = 1');
    const span = createSpan({ kind: 'user', text: 'deploy to eu-west-2b please', tokens: 5 });
    old.prepare("INSERT INTO sessions (id, tenant_id, created_at) VALUES ('s', NULL, 'then')").run();
    old.prepare("INSERT INTO spans (id, kind, text, tokens) VALUES (?, 'user', ?, 5)").run(span.id, span.text);
    old
      .prepare(
        "INSERT INTO occurrences (session_id, seq, span_id, role, byte_start, byte_end) VALUES ('s', 0, ?, 'user', 0, 27)",
      )
      .run(span.id);
    old.prepare("INSERT INTO occurrence_fts (text, session_id, seq) VALUES ('an edited index row', 's', 0)").run();
    old.close();
    const store = createSqliteStore({ path });
    expect((await store.searchText('s', 'eu-west-2b', 5)).map((hit) => hit.seq)).toEqual([0]);
    expect(await store.searchText('s', 'edited', 5)).toEqual([]);
    await store.append('s', 1, [entry('user', 'and then eu-west-2b again')]);
    expect((await store.searchText('s', 'eu-west-2b', 5)).map((hit) => hit.seq).sort()).toEqual([0, 1]);
    const raw = new Database(path);
    expect(raw.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.length);
    for (const sql of refusals) expect(() => raw.exec(sql), sql).toThrow(/contentless|immutable/);
    raw.close();
    await store.close();
  });
});

/** A real record from a compacting session, so its id is its content hash. */
async function compactedRecords(store: LedgerStore): Promise<CompactionRecord[]> {
  const ledger = createLedger({ store });
  const session = await ledger.session('tampered', { window: { maxTokens: 3000 } });
  await session.append(SEED_OPENING);
  await session.append(fillerTurns(20));
  await session.render();
  const records = await store.records('tampered');
  expect(records.length).toBeGreaterThan(0);
  return records;
}

describe('records edited below the API', () => {
  it('every record a session writes (summary, checkpoint, external) hashes to its id', async () => {
    const store = createMemoryStore();
    const ledger = createLedger({ store });
    const session = await ledger.session('ids', { window: { maxTokens: 3000, handleBudgetTokens: 60 } });
    await session.append(SEED_OPENING);
    await session.append(fillerTurns(30));
    await session.render();
    await session.importExternalSummary({
      summary: 'The user is debugging the payments deploy.',
      summarizer: { name: 'agent', version: '1' },
    });
    const records = await store.records('ids');
    expect(new Set(records.map((record) => record.type))).toEqual(new Set(['summary', 'checkpoint', 'external']));
    for (const record of records) {
      const prefix = record.id.slice(0, 3) as 'rec' | 'chk' | 'ext';
      expect(recordId(prefix, recordIdContent(record))).toBe(record.id);
    }
  });

  it('refuses a record whose content-derived id does not match it, at write', async () => {
    const store = createMemoryStore();
    await store.openSession('s');
    const record = sampleRecord('s');
    const hashed = { ...record, id: recordId('rec', recordIdContent(record)) };
    await store.writeRecord(hashed);
    await expectLedgerError(
      store.writeRecord({ ...hashed, ordinal: 1, summary: 'rewritten' }),
      InvalidInputError,
      'INVALID_INPUT',
      [hashed.id, 's'],
    );
  });

  it('SQLite: a record edited after DROP TRIGGER fails loudly on load, naming it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'context-ledger-records-'));
    const path = join(directory, 'ledger.db');
    try {
      const store = createSqliteStore({ path });
      const [record] = await compactedRecords(store);
      const raw = new Database(path);
      raw.exec('DROP TRIGGER records_no_update');
      const row = raw.prepare('SELECT delta FROM records WHERE id = ?').get(record!.id) as { delta: Buffer | null };
      if (row.delta === null)
        raw
          .prepare("UPDATE records SET json = json_set(json, '$.summary', 'Deploy to eu-west-1.') WHERE id = ?")
          .run(record!.id);
      else {
        // A packed snapshot (schema 11): its JSON, then a line with its carried-handle ids, deflated.
        const text = inflateRawSync(row.delta).toString('utf8');
        const cut = text.indexOf('\n');
        const json = JSON.stringify({ ...JSON.parse(text.slice(0, cut)), summary: 'Deploy to eu-west-1.' });
        raw
          .prepare('UPDATE records SET delta = ? WHERE id = ?')
          .run(deflateRawSync(json + text.slice(cut)), record!.id);
      }
      raw.close();
      await expectLedgerError(store.records('tampered'), ImmutableSpanError, 'IMMUTABLE_SPAN', [
        record!.id,
        'tampered',
        /changed after it was written/,
      ]);
      await expectLedgerError(store.record('tampered', record!.id), ImmutableSpanError, 'IMMUTABLE_SPAN', [record!.id]);
      await expectLedgerError(createLedger({ store }).session('tampered'), ImmutableSpanError, 'IMMUTABLE_SPAN', [
        record!.id,
      ]);
      await store.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  describePostgres('records edited below the API: PostgreSQL', () => {
    const schema = uniqueSchema('tamper');
    let store: LedgerStore;
    let raw: pg.Client;
    beforeAll(async () => {
      store = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 });
      raw = await rawClient();
    });
    afterAll(async () => {
      await raw.end();
      await store.close();
      await dropSchema(schema);
    });

    it('a record edited after DROP TRIGGER fails loudly on load, naming it', async () => {
      const [record] = await compactedRecords(store);
      await raw.query(`DROP TRIGGER records_immutable ON "${schema}".records`);
      await raw.query(
        `UPDATE "${schema}".records SET json = jsonb_set(json::jsonb, '{summary}', '"Deploy to eu-west-1."')::text WHERE id = $1`,
        [record!.id],
      );
      await expectLedgerError(store.records('tampered'), ImmutableSpanError, 'IMMUTABLE_SPAN', [
        /changed after it was written/,
        'tampered',
      ]);
      await expectLedgerError(store.record('tampered', record!.id), ImmutableSpanError, 'IMMUTABLE_SPAN', [record!.id]);
    });
  });
});

describe('token counting in bounded pieces', () => {
  const ordinary = [
    'Deploy the payments service to eu-west-2b.\nDo not touch the primary database.',
    'PAYMENTS_DB_REPLICA=eu-west-2b\nPAYMENTS_PORT=8443\n  indented\tline\r\n/etc/payments/config.env\n/usr/bin\n',
    'Ünïcödé wörds, 中文文本，还有标点。 emoji 🚀🚀 and  double  spaces   here\n\n\nnext paragraph',
  ];

  it('equals countTokens exactly on long ordinary text (pieces cut at pre-token boundaries)', () => {
    for (const sample of ordinary) {
      const text = Array.from({ length: 200 }, (_, index) => `${sample} #${index}`).join('\n\n\n');
      expect(countingPieces(text).length).toBeGreaterThan(5);
      expect(countO200kTokens(text)).toBe(countTokens(text));
    }
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...ordinary, ' ', '\n', '\t', 'x', '/', '.\n/', '12345', 'ab'), {
          minLength: 50,
          maxLength: 400,
        }),
        (parts) => {
          const text = parts.join('');
          expect(countO200kTokens(text)).toBe(countTokens(text));
        },
      ),
      { numRuns: 60, seed: 3 },
    );
  });

  it('cuts a run without boundaries into pieces no longer than the cap, losslessly and deterministically', () => {
    for (const unit of ['a', ' ', '1', '\n', '中', '🚀', '-']) {
      const text = unit.repeat(12_345);
      const pieces = countingPieces(text);
      expect(pieces.join('')).toBe(text);
      for (const piece of pieces) {
        expect(piece.length).toBeLessThanOrEqual(COUNT_PIECE_CAP);
        expect(isWellFormedText(piece)).toBe(true);
      }
      expect(countO200kTokens(text)).toBe(countO200kTokens(text));
    }
  });

  it('differs from the exact count on one-character runs by at most 2 tokens per cut', () => {
    for (const unit of ['x', 'a', '1', ' ', '-', '\n', '中', '🚀']) {
      const text = unit.repeat(8_000);
      const cuts = countingPieces(text).length - 1;
      expect(Math.abs(countO200kTokens(text) - countTokens(text)), JSON.stringify(unit)).toBeLessThanOrEqual(2 * cuts);
    }
  });

  it('counts special-token strings as plain text instead of throwing', () => {
    expect(() => countTokens('a <|endoftext|> b')).toThrow();
    expect(countO200kTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});
