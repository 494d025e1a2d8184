/**
 * What a client meets at the edges of the MCP drill-down, through the SDK's own client: unresolved handles
 * (from an external summary) listed last and marked, recall by an external record id, the refusal naming the
 * colliding spans of an ambiguous span-id prefix, and `expand` refusing a reversed seq range.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createLedgerMcpServer } from '../../src/integrations/mcp/index.js';
import type { LedgerSession } from '../../src/session/session.js';
import { SEED_OPENING, fillerTurns, memoryLedger } from '../helpers.js';

async function connected(prepare: (session: LedgerSession) => Promise<void>) {
  const ledger = memoryLedger();
  const session = await ledger.session('s', { window: { maxTokens: 3000 } });
  await prepare(session);
  const server = createLedgerMcpServer({ ledger, defaultSession: 's' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'edges-test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const first = result.content[0];
    return { isError: result.isError ?? false, text: first?.type === 'text' ? first.text : '', result };
  };
  return { session, call };
}

describe('MCP drill-down edges', () => {
  it('handles: unresolved tokens of an external summary come last, marked, with no seq or span id', async () => {
    const { call } = await connected(async (session) => {
      await session.append([SEED_OPENING, ...fillerTurns(3)]);
      await session.importExternalSummary({
        summary: 'We use PAYMENTS_DB_REPLICA=eu-west-2b and looked at /var/tmp/unknown-file.log earlier.',
        summarizer: { name: 'claude-code', version: '2.1' },
      });
    });
    const { text } = await call('handles', {});
    const byKind = JSON.parse(text).byKind as Record<string, { seq: number | null; unresolved?: true }[]>;
    const all = Object.values(byKind).flat();
    expect(all.some((entry) => entry.unresolved === true)).toBe(true);
    for (const list of Object.values(byKind)) {
      const firstUnresolved = list.findIndex((entry) => entry.unresolved === true);
      if (firstUnresolved >= 0) expect(list.slice(firstUnresolved).every((entry) => entry.unresolved)).toBe(true);
    }
    expect(all.filter((entry) => entry.unresolved).every((entry) => entry.seq === null)).toBe(true);
    expect(all.some((entry) => entry.seq === -1)).toBe(false);
  });

  it('recall by an external record id returns its handles, not a gap', async () => {
    let recordId = '';
    const { call } = await connected(async (session) => {
      await session.append([SEED_OPENING, ...fillerTurns(3)]);
      const record = await session.importExternalSummary({
        summary: 'Keep PAYMENTS_DB_REPLICA=eu-west-2b.',
        summarizer: { name: 'claude-code', version: '2.1' },
      });
      recordId = record.id;
    });
    expect(recordId).toMatch(/^ext_/);
    const view = JSON.parse((await call('recall', { query: recordId })).text) as {
      status: string;
      results: { via: string; text: string }[];
    };
    expect(view.status).not.toBe('gap');
    expect(view.results.length).toBeGreaterThan(0);
    expect(view.results.every((hit) => hit.via === 'record')).toBe(true);
    expect(JSON.stringify(view.results)).toContain('PAYMENTS_DB_REPLICA=eu-west-2b');
  });

  it('recall of an ambiguous span-id prefix is refused, naming the colliding spans', async () => {
    let ids: string[] = [];
    const { call } = await connected(async (session) => {
      const written = await session.append(fillerTurns(40));
      ids = written.map((occurrence) => occurrence.spanId);
    });
    // The shortest prefix two stored ids share (a prefix query needs at least 4 hex digits after sha256:).
    const sorted = [...new Set(ids)].sort();
    let prefix = '';
    for (let length = 'sha256:'.length + 4; prefix === '' && length < 71; length += 1) {
      const heads = sorted.map((id) => id.slice(0, length));
      const shared = heads.find((head, index) => heads.indexOf(head) !== index);
      if (shared === undefined) break;
      prefix = shared;
    }
    if (prefix === '') prefix = 'sha256:'; // fallback below the minimum: see the assertion on the prefix length
    expect(prefix.length, `no two of ${sorted.length} span ids share 4 hex digits`).toBeGreaterThanOrEqual(11);
    const { isError, text } = await call('recall', { query: prefix });
    expect(isError).toBe(true);
    expect(text).toMatch(/^INVALID_INPUT: .*ambiguous/);
    const colliding = sorted.filter((id) => id.startsWith(prefix));
    expect(text).toContain(colliding[0]);
  });

  it('expand with fromSeq > toSeq is INVALID_INPUT, not an empty page', async () => {
    const { call } = await connected(async (session) => {
      await session.append(fillerTurns(3));
    });
    const { isError, text } = await call('expand', { fromSeq: 4, toSeq: 2 });
    expect(isError).toBe(true);
    expect(text).toMatch(/^INVALID_INPUT: .*fromSeq 4.*toSeq 2/);
  });
});

describe('MCP recall of a span-id prefix too short to name a span', () => {
  it('is refused with the minimum, not answered with a gap', async () => {
    const { call } = await connected(async (session) => {
      await session.append(fillerTurns(3));
    });
    const { isError, text } = await call('recall', { query: 'sha256:ab' });
    expect(isError).toBe(true);
    expect(text).toMatch(/^INVALID_INPUT: .*too short.*at least 4 hex digits/);
  });
});
