import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/session/ledger.js';
import { createLedgerMcpServer } from '../../src/integrations/mcp/index.js';
import type { LedgerMcpServerOptions } from '../../src/integrations/mcp/index.js';
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import type { Summarizer } from '../../src/summarizers/summarizer.js';
import { SEED_OPENING, fillerTurns, memoryLedger } from '../helpers.js';

/** Rewrites eu-west-2b as eu-west-2c (a token in none of the sources), so the record is lossy. */
function alteringSummarizer(): Summarizer {
  const inner = createExtractiveSummarizer();
  return {
    identity: { name: 'altering-test-summarizer', version: '1' },
    async summarize(request) {
      const result = await inner.summarize(request);
      const claims = [
        { text: 'The database replica is eu-west-2c.', spanIds: request.units[0]?.spanIds ?? [] },
        ...result.claims,
      ];
      return { summary: claims.map((claim) => claim.text).join(' '), claims };
    },
  };
}

async function connect(options: LedgerMcpServerOptions) {
  const server = createLedgerMcpServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const json = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    const first = result.content[0];
    expect(result.isError ?? false, first?.type === 'text' ? first.text : '').toBe(false);
    return JSON.parse(first?.type === 'text' ? first.text : 'null') as Record<string, unknown>;
  };
  const error = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    const first = result.content[0];
    return first?.type === 'text' ? first.text : '';
  };
  return { client, call, json, error };
}

async function seeded(ledger: Ledger, sessionId: string, tenantId?: string) {
  const session = await ledger.session(sessionId, { tenantId, window: { maxTokens: 3000 } });
  await session.append([SEED_OPENING, ...fillerTurns(6)]);
  await session.compact(300);
  return session;
}

describe('createLedgerMcpServer over InMemoryTransport', () => {
  it('lists its nine tools with input schemas', async () => {
    const { client } = await connect({ ledger: memoryLedger() });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'append',
      'describe',
      'expand',
      'gaps',
      'grep',
      'handles',
      'recall',
      'records',
      'sessions',
    ]);
    const recall = tools.find((tool) => tool.name === 'recall');
    expect(recall?.inputSchema.required).toEqual(['query']);
    expect(Object.keys(recall?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['session', 'query']));
  });

  it('appends, then recalls verified, and lists handles, records and gaps', async () => {
    const ledger = memoryLedger(alteringSummarizer());
    const { json } = await connect({ ledger, defaultSession: 'deploy' });
    const appended = await json('append', {
      messages: [
        SEED_OPENING,
        {
          role: 'assistant',
          content: 'Checking.',
          toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"cat /etc/payments/db.conf"}' }],
        },
        { role: 'tool', content: 'host=db.internal port=5432', toolCallId: 'c1', toolName: 'bash' },
      ],
    });
    expect(appended).toMatchObject({ session: 'deploy', seqs: [0, 1, 2, 3] });

    const recalled = await json('recall', { query: 'eu-west-2b' });
    expect(recalled.status).toBe('verified');
    expect(JSON.stringify(recalled.results)).toContain('PAYMENTS_DB_REPLICA=eu-west-2b');

    const all = await json('handles', { scope: 'all', kind: 'path' });
    expect(Object.keys(all.byKind as object)).toEqual(['path']);
    expect(JSON.stringify(all.byKind)).toContain('/etc/payments/db.conf');

    await seeded(ledger, 'compacted');
    const index = await json('handles', { session: 'compacted' });
    expect(index.recordId).toMatch(/^rec_/);
    expect(JSON.stringify(index.byKind)).toContain('eu-west-2b');
    const records = await json('records', { session: 'compacted' });
    const list = records.records as {
      id: string;
      type: string;
      reversible: boolean;
      depth: number;
      droppedRange: object;
      findings: object[];
      ancestors: string[];
    }[];
    const summary = list.find((record) => record.type === 'summary');
    expect(summary).toMatchObject({ depth: 1, reversible: false, ancestors: [] });
    expect(summary?.findings.length).toBeGreaterThan(0);
    const gaps = await json('gaps', { session: 'compacted' });
    expect(gaps.gaps).toEqual([expect.objectContaining({ recordId: summary?.id, originalsStored: true })]);
    const gap = await json('recall', { session: 'compacted', query: 'eu-west-2c' });
    expect(gap).toMatchObject({ status: 'gap', gap: { recordId: summary?.id } });
    expect(JSON.stringify(gap.gap)).toContain('do not reconstruct the detail from memory');
    expect(JSON.stringify(gap.gap).match(/from memory/gi)).toHaveLength(1);
  });

  it('returns tool errors whose text starts with the LedgerError code', async () => {
    const { error, call } = await connect({ ledger: memoryLedger() });
    expect(await error('recall', { session: 'missing', query: 'eu-west-2b' })).toMatch(
      /^NOT_FOUND: No session "missing"/,
    );
    expect(await error('recall', { query: 'eu-west-2b' })).toMatch(/^INVALID_INPUT: No session given/);
    expect(await error('append', { session: 's', messages: [{ role: 'tool', content: 'x' }] })).toMatch(
      /^INVALID_INPUT: .*toolCallId/,
    );
    const invalid = await call('append', { session: 's', messages: [{ role: 'robot', content: 'x' }] });
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toContain('role');
  });

  it('confines every tool to its tenant without naming other tenants', async () => {
    const ledger = memoryLedger();
    const acme = await connect({ ledger, tenantId: 'acme' });
    const globex = await connect({ ledger, tenantId: 'globex' });
    const untenanted = await connect({ ledger });
    await acme.json('append', { session: 'shared-id', messages: [SEED_OPENING] });
    expect((await acme.json('recall', { session: 'shared-id', query: 'eu-west-2b' })).status).toBe('verified');
    for (const tool of ['recall', 'handles', 'records', 'gaps']) {
      const text = await globex.error(tool, { session: 'shared-id', query: 'eu-west-2b' });
      expect(text).toMatch(/^NOT_FOUND: /);
      expect(text).not.toContain('acme');
      expect(await untenanted.error(tool, { session: 'shared-id', query: 'eu-west-2b' })).toMatch(/^NOT_FOUND: /);
    }
    const write = await globex.error('append', {
      session: 'shared-id',
      messages: [{ role: 'user', content: 'overwrite' }],
    });
    expect(write).toMatch(/^TENANT_MISMATCH: /);
    expect(write).not.toContain('acme');
    expect((await ledger.store.listSessions({ tenantId: 'globex' })).length).toBe(0);
  });
});
