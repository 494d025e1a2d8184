/**
 * What a client learns of the ledger MCP server before calling a tool: the server's `instructions` (when to call
 * recall, grep, expand, describe; what verified / unverified / gap mean), a title on every tool, and the `sessions`
 * tool, which lists only the sessions of the server's tenant, a page at a time.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createLedgerMcpServer } from '../../src/integrations/mcp/index.js';
import type { LedgerMcpServerOptions } from '../../src/integrations/mcp/index.js';
import { MCP_TOOL_NAMES } from '../../src/integrations/mcp/tool-names.js';
import type { Ledger } from '../../src/session/ledger.js';
import { memoryLedger } from '../helpers.js';

async function connect(options: LedgerMcpServerOptions) {
  const server = createLedgerMcpServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'sessions-test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'sessions', arguments: args })) as CallToolResult;
  return { client, call };
}

interface SessionsAnswer {
  defaultSession: string | null;
  total: number;
  sessions: { id: string; createdAt: string; spans: number }[];
  nextCursor?: string;
}

async function sessionsOf(call: (args: Record<string, unknown>) => Promise<CallToolResult>, args = {}) {
  const result = await call(args);
  const first = result.content[0];
  expect(result.isError ?? false, first?.type === 'text' ? first.text : '').toBe(false);
  return result.structuredContent as unknown as SessionsAnswer;
}

/** Sessions of three tenants (and some without one), each with a message or two. */
async function threeTenants(): Promise<Ledger> {
  const ledger = memoryLedger();
  const add = async (id: string, tenantId: string | undefined, turns: number) => {
    const session = await ledger.session(id, { tenantId });
    for (let turn = 0; turn < turns; turn += 1) await session.append([{ role: 'user', content: `turn ${turn}` }]);
  };
  for (let index = 0; index < 7; index += 1) await add(`acme-${index}`, 'acme', 1 + (index % 3));
  await add('globex-secret', 'globex', 2);
  await add('loose-1', undefined, 1);
  await add('loose-2', undefined, 1);
  return ledger;
}

describe('ledger MCP server: instructions and titles', () => {
  it('sends instructions saying when to call recall, grep, expand and describe, and never to fill a gap', async () => {
    const { client } = await connect({ ledger: memoryLedger() });
    const instructions = client.getInstructions() ?? '';
    for (const tool of ['recall', 'grep', 'expand', 'describe', 'sessions']) expect(instructions).toContain(tool);
    for (const label of ['verified', 'unverified', 'gap']) expect(instructions).toContain(label);
    expect(instructions).toMatch(/never fill a gap from memory/);
    expect(instructions.length).toBeLessThan(1500);
  });

  it('gives every tool a title', async () => {
    const { client } = await connect({ ledger: memoryLedger() });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const tool of tools) expect(tool.title, tool.name).toMatch(/^\S.{3,60}$/);
    expect(new Set(tools.map((tool) => tool.title)).size).toBe(tools.length);
  });
});

describe('ledger MCP server: the sessions tool', () => {
  it("lists only its tenant's sessions, with span counts and the default session", async () => {
    const ledger = await threeTenants();
    const { call } = await connect({ ledger, tenantId: 'acme', defaultSession: 'acme-2' });
    const answer = await sessionsOf(call);
    expect(answer.total).toBe(7);
    expect(answer.sessions.map((session) => session.id)).toEqual([0, 1, 2, 3, 4, 5, 6].map((index) => `acme-${index}`));
    expect(answer.sessions.map((session) => session.spans)).toEqual([1, 2, 3, 1, 2, 3, 1]);
    expect(answer.defaultSession).toBe('acme-2');
    expect(answer.nextCursor).toBeUndefined();
    expect(JSON.stringify(answer)).not.toMatch(/globex|loose/);
  });

  it('without a tenant lists only the sessions that have none, and hides a default of another tenant', async () => {
    const ledger = await threeTenants();
    const { call } = await connect({ ledger, defaultSession: 'globex-secret' });
    const answer = await sessionsOf(call);
    expect(answer.sessions.map((session) => session.id)).toEqual(['loose-1', 'loose-2']);
    expect(answer.defaultSession).toBeNull();
    expect(JSON.stringify(answer)).not.toMatch(/globex|acme/);
  });

  it('pages with limit and cursor, every session once', async () => {
    const ledger = await threeTenants();
    const { call } = await connect({ ledger, tenantId: 'acme' });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await sessionsOf(call, cursor === undefined ? { limit: 3 } : { limit: 3, cursor });
      expect(answer.sessions.length).toBeLessThanOrEqual(3);
      expect(answer.total).toBe(7);
      seen.push(...answer.sessions.map((session) => session.id));
      cursor = answer.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6].map((index) => `acme-${index}`));
  });

  it("refuses another view's cursor with a message saying what to pass", async () => {
    const { call } = await connect({ ledger: await threeTenants(), tenantId: 'acme' });
    const result = await call({ cursor: 'records:3' });
    expect(result.isError).toBe(true);
    const first = result.content[0];
    expect(first?.type === 'text' ? first.text : '').toMatch(/^INVALID_INPUT: .*nextCursor/);
  });

  it('is annotated read-only and closed-world', async () => {
    const { client } = await connect({ ledger: memoryLedger() });
    const { tools } = await client.listTools();
    const sessions = tools.find((tool) => tool.name === 'sessions');
    expect(sessions?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });
});
