import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startLedgerMcpHttpServer } from '../../src/integrations/mcp/index.js';
import type { LedgerMcpHttpServer } from '../../src/integrations/mcp/index.js';
import { memoryLedger } from '../helpers.js';

const TOKEN = 'limits-test-token';
const PARTIAL_HEADERS = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Slow: ';

/** A raw socket that sends the start of a request and never finishes its headers. */
interface Partial {
  readonly socket: Socket;
  readonly closed: Promise<string>;
}

async function partialRequest(url: URL, text = PARTIAL_HEADERS): Promise<Partial> {
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('close', () => reject(new Error('closed before connecting')));
  });
  if (text.length > 0) await new Promise<void>((resolve) => socket.write(text, () => resolve()));
  return { socket, closed };
}

async function listToolsWithToken(url: URL): Promise<string[]> {
  const client = new Client({ name: 'token-holder', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
  );
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

describe('Streamable HTTP server under unauthenticated sockets', () => {
  let server: LedgerMcpHttpServer | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.close();
    server = undefined;
  });

  it('serves the token holder while 300 sockets hold partial headers (default limits)', async () => {
    server = await startLedgerMcpHttpServer({ ledger: memoryLedger(), port: 0, token: TOKEN });
    const url = server.url;
    for (let index = 0; index < 300; index++) {
      const partial = await partialRequest(url).catch(() => undefined);
      if (partial) sockets.push(partial.socket);
    }
    expect(await listToolsWithToken(url)).toContain('grep');
    // A second client in the same state is served too.
    for (let index = 0; index < 50; index++) {
      const partial = await partialRequest(url).catch(() => undefined);
      if (partial) sockets.push(partial.socket);
    }
    expect(await listToolsWithToken(url)).toContain('recall');
  });

  it('closes the oldest unauthenticated connections beyond the pending caps, not the newest', async () => {
    server = await startLedgerMcpHttpServer({
      ledger: memoryLedger(),
      port: 0,
      token: TOKEN,
      maxPendingConnections: 4,
      maxPendingPerAddress: 4,
    });
    const partials: Partial[] = [];
    for (let index = 0; index < 10; index++) partials.push(await partialRequest(server.url));
    sockets.push(...partials.map((partial) => partial.socket));
    await Promise.all(partials.slice(0, 6).map((partial) => partial.closed));
    expect(partials.slice(6).map((partial) => partial.socket.destroyed)).toEqual([false, false, false, false]);
    expect(await listToolsWithToken(server.url)).toContain('expand');
  });

  it('closes a socket that sends partial headers after headersTimeoutMs, answering 408', async () => {
    server = await startLedgerMcpHttpServer({ ledger: memoryLedger(), port: 0, token: TOKEN, headersTimeoutMs: 200 });
    const partial = await partialRequest(server.url);
    sockets.push(partial.socket);
    expect(await partial.closed).toMatch(/^HTTP\/1\.1 408/);
    const silent = await partialRequest(server.url, '');
    sockets.push(silent.socket);
    await silent.closed;
    expect(silent.socket.destroyed).toBe(true);
  });

  it('rejects limits that are not positive whole numbers, and a request timeout below the headers timeout', async () => {
    await expect(
      startLedgerMcpHttpServer({ ledger: memoryLedger(), port: 0, maxPendingConnections: 0 }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG', message: expect.stringMatching(/maxPendingConnections/) });
    await expect(
      startLedgerMcpHttpServer({ ledger: memoryLedger(), port: 0, headersTimeoutMs: 5000, requestTimeoutMs: 1000 }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG', message: expect.stringMatching(/requestTimeoutMs \(1000\)/) });
  });
});
