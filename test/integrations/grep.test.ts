import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLedger } from '../../src/session/ledger.js';
import type { Ledger } from '../../src/session/ledger.js';
import { GREP_ENGINE } from '../../src/integrations/grep-pattern.js';
import { grepSpans } from '../../src/integrations/grep.js';
import { startLedgerMcpHttpServer } from '../../src/integrations/mcp/index.js';
import type { LedgerMcpHttpServer } from '../../src/integrations/mcp/index.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { PG_URL, describePostgres, dropSchema, uniqueSchema } from '../stores/postgres-env.js';
import { SEED_OPENING, memoryLedger } from '../helpers.js';

/** Lines on which a backtracking engine takes exponential (or high polynomial) time. */
const ATTACK_LINES = ['a'.repeat(2500), `b${'a'.repeat(2500)}`, `${'a'.repeat(1990)}b]`];
const LONG_MATCH = 'a'.repeat(200);

async function attackLedger(ledger: Ledger) {
  const session = await ledger.session('attack');
  await session.append([SEED_OPENING, { role: 'tool', toolCallId: 'call_1', content: ATTACK_LINES.join('\n') }]);
  return ledger;
}

/** Each attack pattern with the (seq, match) pairs it must find in the attack span (seq 1). */
const ATTACKS: readonly (readonly [string, readonly string[]])[] = [
  ['[]?(a+)+b]', [LONG_MATCH]],
  ['a*a*a*c', []],
  ['a*a*a*a*a*a*b', ['b', LONG_MATCH]],
  ['(a+)+b', [LONG_MATCH]],
  ['(a|a)*b', ['b', LONG_MATCH]],
  ['(a|aa)+!', []],
  ['(?:a*)*c', []],
  ['(.*a){12}b', [LONG_MATCH]],
  ['(\\w+\\s?)*!', []],
  ['([a-z]+)*\\]', [LONG_MATCH]],
  ['^(a|b)+\\]$', [LONG_MATCH]],
];

/** Every attack pattern finishes on the linear engine with exactly its expected matches. */
async function expectAttacksAnswered(ledger: Ledger) {
  for (const [pattern, expected] of ATTACKS) {
    const view = await grepSpans(ledger.store, 'attack', pattern, { regex: true, fromSeq: 1 });
    expect(view.engine, pattern).toBe(GREP_ENGINE);
    expect(view.stopped, pattern).toBeUndefined();
    expect(
      view.matches.map((match) => match.match),
      pattern,
    ).toEqual(expected);
    expect(view.matches.every((match) => match.seq >= 1 && match.status === 'verified')).toBe(true);
  }
}

describe('grep on the linear-time engine', () => {
  const stores: Array<() => Promise<Ledger>> = [async () => memoryLedger()];
  let directory: string | undefined;
  stores.push(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cl-grep-'));
    return createLedger({ store: createSqliteStore({ path: join(directory, 'ledger.db') }) });
  });
  afterEach(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
    directory = undefined;
  });

  it.each(['memory', 'sqlite'])("runs every attack pattern over a stored line of 2,500 a's (%s)", async (kind) => {
    const ledger = await attackLedger(await (kind === 'memory' ? stores[0] : stores[1])!());
    await expectAttacksAnswered(ledger);
    await ledger.close();
  });

  it.each([
    ['(a)\\1', /backreference \(\\1 at character 4\)/],
    ['(?<id>\\d+)-\\k<id>', /named backreference \(\\k<id> at character 12\)/],
    ['(?=a)b', /a lookahead \(\(\?=…\) at character 1\)/],
    ['x(?!a)', /negative lookahead \(\(\?!…\) at character 2\)/],
    ['(?<=PAY-)\\d+', /a lookbehind \(\(\?<=…\) at character 1\)/],
    ['(?<!a)b', /negative lookbehind/],
  ])('refuses %s with INVALID_INPUT naming the construct', async (pattern, message) => {
    const ledger = await attackLedger(memoryLedger());
    const refused = grepSpans(ledger.store, 'attack', pattern, { regex: true });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(refused).rejects.toThrow(message);
    await expect(refused).rejects.toThrow(/linear-time regex engine cannot run/);
  });

  it.each([
    ['a++', /`\+\+`/],
    ['(?>a)', /`\(\?>`/],
    ['(unclosed', /missing closing \)/],
    ['a{2,1}', /invalid repeat count/],
    ['\\p{L}{1000}', /compiles to 1002 engine instructions; the limit is 250/],
    ['[\\s\\S]{300}', /compiles to \d+ engine instructions; the limit is 250/],
  ])('refuses %s, which the engine cannot parse, with INVALID_INPUT and its reason', async (pattern, message) => {
    const ledger = await attackLedger(memoryLedger());
    const refused = grepSpans(ledger.store, 'attack', pattern, { regex: true });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(refused).rejects.toThrow(message);
  });

  it('keeps the flags and the JavaScript syntax of the old API', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('flags');
    await session.append([
      SEED_OPENING,
      { role: 'assistant', content: 'See (?=x) and [a] and PAY-1234; ALSO pay-99.' },
    ]);
    const found = async (pattern: string, options: Parameters<typeof grepSpans>[3] = {}) =>
      (await grepSpans(ledger.store, 'flags', pattern, options)).matches.map((match) => match.match);
    expect(await found('EU-WEST-2B')).toEqual(['eu-west-2b']);
    expect(await found('EU-WEST-2B', { caseSensitive: true })).toEqual([]);
    expect(await found('pay-\\d+', { regex: true })).toEqual(['PAY-1234', 'pay-99']);
    expect(await found('pay-\\d+', { regex: true, caseSensitive: true })).toEqual(['pay-99']);
    expect(await found('(?=x)')).toEqual(['(?=x)']);
    expect(await found('[a]')).toEqual(['[a]']);
    expect(await found('(?<digits>\\d{4})', { regex: true })).toEqual(['1234']);
    expect(await found('\\u0050AY', { regex: true, caseSensitive: true })).toEqual(['PAY', 'PAY']);
    expect(await found('[(?=]x\\)', { regex: true })).toEqual(['=x)']);
    expect(await found('^See', { regex: true })).toEqual(['See']);
  });

  it('stops inside one huge span when the character budget runs out, and resumes from nextOffset', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('huge', { window: { maxSpanTokens: 1_000_000 } });
    await session.append({ role: 'tool', toolCallId: 'call_1', content: `needle ${'a'.repeat(50_000)} needle` });
    const first = await grepSpans(ledger.store, 'huge', 'needle', { maxScanChars: 10_000 });
    expect(first).toMatchObject({ stopped: 'work', nextSeq: 0, nextOffset: 10_000, charsScanned: 10_000 });
    expect(first.matches.map((match) => match.match)).toEqual(['needle']);
    expect(first.note).toMatch(/Partial result: the search ran out of its work budget .* fromOffset 10000/);
    const found = [...first.matches];
    let view = first;
    let calls = 1;
    while (view.stopped === 'work') {
      view = await grepSpans(ledger.store, 'huge', 'needle', {
        maxScanChars: 10_000,
        fromSeq: view.nextSeq,
        fromOffset: view.nextOffset,
      });
      found.push(...view.matches);
      calls++;
    }
    expect(calls).toBe(6);
    expect(found.map((match) => match.match)).toEqual(['needle', 'needle']);
    await expect(grepSpans(ledger.store, 'huge', 'needle', { fromOffset: -1 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('stops inside one huge span when the time budget runs out (the clock is checked per window)', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('slow', { window: { maxSpanTokens: 1_000_000 } });
    await session.append({ role: 'tool', toolCallId: 'call_1', content: `needle ${'a'.repeat(200_000)}` });
    let clock = Date.now();
    const now = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 1));
    try {
      const view = await grepSpans(ledger.store, 'slow', 'needle', { timeBudgetMs: 30 });
      expect(view).toMatchObject({ stopped: 'time', nextSeq: 0, spansScanned: 1 });
      expect(view.nextOffset).toBeGreaterThan(0);
      expect(view.nextOffset).toBeLessThan(200_000);
      expect(view.matches.map((match) => match.match)).toEqual(['needle']);
      expect(view.note).toMatch(/ran out of its time budget \(30 ms\) at seq 0/);
    } finally {
      now.mockRestore();
    }
  });
});

describePostgres('grep on the linear-time engine (PostgreSQL)', () => {
  const schema = uniqueSchema('grep_attack');
  afterEach(async () => dropSchema(schema));
  it("runs every attack pattern over a stored line of 2,500 a's", async () => {
    const store = await createPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 });
    const ledger = await attackLedger(createLedger({ store }));
    await expectAttacksAnswered(ledger);
    await ledger.close();
  });
});

describe('grep over MCP Streamable HTTP', () => {
  let server: LedgerMcpHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers a grep with an attack pattern, and another client meanwhile', async () => {
    const ledger = await attackLedger(memoryLedger());
    server = await startLedgerMcpHttpServer({ ledger, defaultSession: 'attack', port: 0 });
    const attacker = new Client({ name: 'attacker', version: '1.0.0' });
    const other = new Client({ name: 'other', version: '1.0.0' });
    await attacker.connect(new StreamableHTTPClientTransport(server.url));
    await other.connect(new StreamableHTTPClientTransport(server.url));
    const [grep, tools] = await Promise.all([
      attacker.callTool({ name: 'grep', arguments: { pattern: 'a*a*a*a*!', regex: true } }) as Promise<CallToolResult>,
      other.listTools(),
    ]);
    expect(tools.tools.map((tool) => tool.name)).toContain('grep');
    expect(grep.isError ?? false).toBe(false);
    const first = grep.content[0];
    expect(JSON.parse(first?.type === 'text' ? first.text : '{}')).toMatchObject({ engine: 're2js', matches: [] });
    const refused = (await attacker.callTool({
      name: 'grep',
      arguments: { pattern: '(a)\\1', regex: true },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toMatchObject({ text: expect.stringMatching(/INVALID_INPUT.*backreference/s) });
    expect((await other.listTools()).tools.length).toBeGreaterThan(0);
    await attacker.close();
    await other.close();
  });
});
