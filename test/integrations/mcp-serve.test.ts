import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startLedgerMcpHttpServer } from '../../src/integrations/mcp/index.js';
import type { LedgerMcpHttpServer } from '../../src/integrations/mcp/index.js';
import { SEED_OPENING, memoryLedger } from '../helpers.js';

const CLI = join(process.cwd(), 'dist/cli/main.js');

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

describe('context-ledger serve --stdio (real subprocess)', () => {
  it('answers tools/list, append and recall over stdio with a SQLite store', async () => {
    expect(existsSync(CLI), 'run npm run build first').toBe(true);
    const directory = await mkdtemp(join(tmpdir(), 'cl-mcp-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        CLI,
        'serve',
        '--stdio',
        '--create',
        '--store',
        `sqlite:${join(directory, 'ledger.db')}`,
        '--session',
        'agent',
      ],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
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
      const appended = (await client.callTool({
        name: 'append',
        arguments: { messages: [SEED_OPENING] },
      })) as CallToolResult;
      expect(appended.isError ?? false, text(appended)).toBe(false);
      expect(JSON.parse(text(appended))).toMatchObject({ session: 'agent', seqs: [0] });
      const recalled = (await client.callTool({
        name: 'recall',
        arguments: { query: 'eu-west-2b' },
      })) as CallToolResult;
      const view = JSON.parse(text(recalled)) as { status: string; results: { label: string; text: string }[] };
      expect(view.status).toBe('verified');
      expect(view.results[0]).toMatchObject({ label: 'verified', text: SEED_OPENING.content });
    } finally {
      await client.close();
    }
    expect(stderr).toBe('');
  }, 30_000);
});

describe('Streamable HTTP server', () => {
  let server: LedgerMcpHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves the tools on 127.0.0.1 with an ephemeral port', async () => {
    server = await startLedgerMcpHttpServer({ ledger: memoryLedger(), defaultSession: 'web', port: 0 });
    expect(server.url.hostname).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(9);
    await client.callTool({ name: 'append', arguments: { messages: [SEED_OPENING] } });
    const recalled = (await client.callTool({
      name: 'recall',
      arguments: { query: 'PAYMENTS_DB_REPLICA=eu-west-2b' },
    })) as CallToolResult;
    expect(JSON.parse(text(recalled))).toMatchObject({ status: 'verified' });
    await client.close();
  });

  it('refuses to bind a non-loopback host without a token', async () => {
    await expect(startLedgerMcpHttpServer({ ledger: memoryLedger(), port: 0, host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
  });

  it('answers 401 without the bearer token and serves with it', async () => {
    server = await startLedgerMcpHttpServer({
      ledger: memoryLedger(),
      defaultSession: 'web',
      port: 0,
      token: 's3cret-token',
    });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await fetch(server.url, { method: 'POST', headers, body })).status).toBe(401);
    expect(
      (await fetch(server.url, { method: 'POST', headers: { ...headers, authorization: 'Bearer wrong-token!' }, body }))
        .status,
    ).toBe(401);
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(server.url, {
        requestInit: { headers: { authorization: 'Bearer s3cret-token' } },
      }),
    );
    expect((await client.listTools()).tools).toHaveLength(9);
    await client.close();
  });

  it('rejects a foreign Origin on a loopback bind without a token', async () => {
    server = await startLedgerMcpHttpServer({ ledger: memoryLedger(), port: 0 });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{}',
    });
    expect(response.status).toBe(403);
  });
});
