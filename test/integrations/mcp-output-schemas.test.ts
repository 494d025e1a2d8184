/**
 * Typed MCP output: every tool lists an `outputSchema` in `tools/list` and returns `structuredContent` that
 * validates against it (checked with the SDK's own Ajv validator, on top of the SDK client's check), equal to
 * the JSON text block kept for older clients. Read-only tools say so and close the world (`openWorldHint: false`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { createLedgerMcpServer } from '../../src/integrations/mcp/index.js';
import { MCP_TOOL_NAMES } from '../../src/integrations/mcp/tool-names.js';
import { SEED_OPENING, fillerTurns, memoryLedger, rewritingSummarizer } from '../helpers.js';

async function connected() {
  const ledger = memoryLedger(rewritingSummarizer());
  const session = await ledger.session('s', { window: { maxTokens: 3000 } });
  await session.append([SEED_OPENING, ...fillerTurns(6)]);
  await session.compact(300);
  const server = createLedgerMcpServer({ ledger, defaultSession: 's' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'schema-test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const recordId = session.activeRecord()?.id ?? '';
  return { client, recordId };
}

describe('MCP tools declare outputSchema and return structuredContent', () => {
  it('every tool, called as a client would, returns content valid against its listed schema', async () => {
    const { client, recordId } = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    const byName = new Map<string, Tool>(tools.map((tool) => [tool.name, tool]));
    const calls: [string, Record<string, unknown>][] = [
      ['append', { session: 'other', messages: [{ role: 'user', content: 'Deploy to eu-west-2b.' }] }],
      ['recall', { query: 'eu-west-2b' }],
      ['recall', { query: 'eu-west-3a' }],
      ['handles', {}],
      ['handles', { scope: 'all' }],
      ['records', {}],
      ['gaps', {}],
      ['describe', { record: recordId }],
      ['expand', { record: recordId }],
      ['grep', { pattern: 'eu-west' }],
      ['sessions', {}],
    ];
    const validator = new AjvJsonSchemaValidator();
    const called = new Set<string>();
    for (const [name, args] of calls) {
      const tool = byName.get(name);
      expect(tool?.outputSchema, name).toBeDefined();
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const first = result.content[0];
      expect(result.isError ?? false, first?.type === 'text' ? first.text : '').toBe(false);
      expect(result.structuredContent, name).toBeDefined();
      expect(result.structuredContent).toEqual(JSON.parse(first?.type === 'text' ? first.text : 'null'));
      const check = validator.getValidator(tool?.outputSchema as Parameters<typeof validator.getValidator>[0]);
      const verdict = check(result.structuredContent);
      expect(verdict.errorMessage, `${name} ${JSON.stringify(args)}`).toBeUndefined();
      expect(verdict.valid).toBe(true);
      if (name === 'recall' && args.query === 'eu-west-3a') expect(result.structuredContent?.status).toBe('gap');
      called.add(name);
    }
    expect([...called].sort()).toEqual([...MCP_TOOL_NAMES].sort());
  });

  it('read-only tools are annotated read-only and closed-world', async () => {
    const { client } = await connected();
    const { tools } = await client.listTools();
    const readOnly = tools.filter((tool) => tool.name !== 'append');
    expect(readOnly).toHaveLength(MCP_TOOL_NAMES.length - 1);
    for (const tool of readOnly)
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });
});
