import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InvalidConfigError } from '../../errors.js';
import { guardConnections } from './connection-guard.js';
import type { ConnectionCaps } from './connection-guard.js';
import { ledgerMcpServer } from './ledger-mcp-server.js';
import type { LedgerMcpServerOptions } from './ledger-mcp-server.js';
import { newLedgerServerState } from './server-state.js';
import type { LedgerServerState } from './server-state.js';

/** Options of {@link startLedgerMcpHttpServer}. */
export interface LedgerMcpHttpOptions extends LedgerMcpServerOptions {
  /** Port (0 = an ephemeral port). */
  readonly port: number;
  /** Interface to bind (default `127.0.0.1`). Any non-loopback host requires `token`. */
  readonly host?: string | undefined;
  /** Bearer token every request must carry as `Authorization: Bearer <token>`. */
  readonly token?: string | undefined;
  /** URL path of the endpoint (default `/mcp`). */
  readonly path?: string | undefined;
  /**
   * A GET event stream that carries no message for this long is closed (default 300 000 ms;
   * keep-alive comments do not count). The stateless server never pushes on it, so this bounds
   * how long an idle client holds one.
   */
  readonly streamIdleTimeoutMs?: number | undefined;
  /** Concurrent GET event streams; one more is answered 503 with Retry-After (default 32). */
  readonly maxStreams?: number | undefined;
  /**
   * Concurrent TCP connections (default 256). Beyond it the oldest connection that has not
   * authenticated yet is closed; when every one has, the new connection is closed at once.
   */
  readonly maxConnections?: number | undefined;
  /**
   * Connections that have not yet sent an authenticated request (default 64): beyond it the
   * oldest of them is closed, so sockets that never authenticate cannot crowd out the token holder.
   */
  readonly maxPendingConnections?: number | undefined;
  /** Such unauthenticated connections from one remote address (default 16; the oldest is closed). */
  readonly maxPendingPerAddress?: number | undefined;
  /** A connection must deliver a request's headers within this (default 10 000 ms; Node answers 408 and closes). */
  readonly headersTimeoutMs?: number | undefined;
  /** ... and the whole request, body included, within this (default 30 000 ms; at least `headersTimeoutMs`). */
  readonly requestTimeoutMs?: number | undefined;
  /** An idle keep-alive connection is closed after this (default 5 000 ms). */
  readonly keepAliveTimeoutMs?: number | undefined;
}

/** Defaults of the HTTP server's bounds. */
export const HTTP_SERVER_DEFAULTS = {
  streamIdleTimeoutMs: 300_000,
  maxStreams: 32,
  maxConnections: 256,
  maxPendingConnections: 64,
  maxPendingPerAddress: 16,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
} as const;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new InvalidConfigError(
      `${name} must be a positive whole number (got ${String(value)}; default ${fallback}).`,
      { field: name },
    );
  return value;
}

/** The request timeouts, checked: positive, and the request timeout at least the headers timeout. */
function httpTimeouts(options: LedgerMcpHttpOptions) {
  const headersTimeoutMs = positiveInteger(
    'headersTimeoutMs',
    options.headersTimeoutMs,
    HTTP_SERVER_DEFAULTS.headersTimeoutMs,
  );
  const requestTimeoutMs = positiveInteger(
    'requestTimeoutMs',
    options.requestTimeoutMs,
    Math.max(headersTimeoutMs, HTTP_SERVER_DEFAULTS.requestTimeoutMs),
  );
  if (requestTimeoutMs < headersTimeoutMs)
    throw new InvalidConfigError(
      `requestTimeoutMs (${requestTimeoutMs}) must be at least headersTimeoutMs (${headersTimeoutMs}).`,
      { field: 'requestTimeoutMs' },
    );
  const keepAliveTimeoutMs = positiveInteger(
    'keepAliveTimeoutMs',
    options.keepAliveTimeoutMs,
    HTTP_SERVER_DEFAULTS.keepAliveTimeoutMs,
  );
  return { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs };
}

function isKeepAlive(chunk: unknown): boolean {
  const text =
    typeof chunk === 'string'
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.subarray(0, 1)).toString('utf8')
        : '';
  return text.startsWith(':');
}

/** Close `response` after `idleMs` without a written message (SSE comments such as keep-alives do not count). */
function closeWhenIdle(response: ServerResponse, idleMs: number): void {
  let timer = setTimeout(() => response.end(), idleMs);
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  response.write = ((...args: unknown[]) => {
    if (!isKeepAlive(args[0])) {
      clearTimeout(timer);
      timer = setTimeout(() => response.end(), idleMs);
    }
    return write(...args);
  }) as ServerResponse['write'];
  response.once('close', () => clearTimeout(timer));
}

/** A running HTTP server. */
export interface LedgerMcpHttpServer {
  /** The endpoint URL, e.g. `http://127.0.0.1:40123/mcp`. */
  readonly url: URL;
  /** The bound port. */
  readonly port: number;
  /** Stop accepting requests and close open connections. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function loopbackAuthority(value: string): boolean {
  try {
    return LOOPBACK.has(new URL(value.includes('://') ? value : `http://${value}`).hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

/** The bounds of one server, checked, with defaults filled in. */
interface HttpBounds {
  readonly streamIdleTimeoutMs: number;
  readonly maxStreams: number;
  readonly caps: ConnectionCaps;
  readonly timeouts: ReturnType<typeof httpTimeouts>;
}

function httpBounds(options: LedgerMcpHttpOptions): HttpBounds {
  const streamIdleTimeoutMs = positiveInteger(
    'streamIdleTimeoutMs',
    options.streamIdleTimeoutMs,
    HTTP_SERVER_DEFAULTS.streamIdleTimeoutMs,
  );
  const maxStreams = positiveInteger('maxStreams', options.maxStreams, HTTP_SERVER_DEFAULTS.maxStreams);
  const caps = {
    maxConnections: positiveInteger('maxConnections', options.maxConnections, HTTP_SERVER_DEFAULTS.maxConnections),
    maxPendingConnections: positiveInteger(
      'maxPendingConnections',
      options.maxPendingConnections,
      HTTP_SERVER_DEFAULTS.maxPendingConnections,
    ),
    maxPendingPerAddress: positiveInteger(
      'maxPendingPerAddress',
      options.maxPendingPerAddress,
      HTTP_SERVER_DEFAULTS.maxPendingPerAddress,
    ),
  };
  return { streamIdleTimeoutMs, maxStreams, caps, timeouts: httpTimeouts(options) };
}

/**
 * Answer 401 to a request without the token, or (no token) 403 to one whose Host or Origin is not loopback; true
 * when the request was refused.
 */
function refusedAccess(request: IncomingMessage, response: ServerResponse, token: string | undefined): boolean {
  if (token !== undefined && !tokenMatches(request.headers.authorization, token)) {
    refuse(response, 401, 'Unauthorized: send Authorization: Bearer <token>.', { 'www-authenticate': 'Bearer' });
    return true;
  }
  if (
    token === undefined &&
    (!loopbackAuthority(request.headers.host ?? '') ||
      (request.headers.origin !== undefined && !loopbackAuthority(request.headers.origin)))
  ) {
    refuse(response, 403, 'Forbidden: this server only accepts loopback Host and Origin headers.');
    return true;
  }
  return false;
}

/**
 * Admits GET event streams up to `maxStreams` at once (one more is answered 503: the answer is false) and closes each
 * after `idleMs` without a message.
 */
function eventStreamGate(maxStreams: number, idleMs: number): (response: ServerResponse) => boolean {
  let openStreams = 0;
  return (response) => {
    if (openStreams >= maxStreams) {
      refuse(response, 503, `Too many open event streams (${maxStreams}); retry later, or raise maxStreams.`, {
        'retry-after': '5',
      });
      return false;
    }
    openStreams++;
    response.once('close', () => openStreams--);
    closeWhenIdle(response, idleMs);
    return true;
  };
}

/**
 * Serve one request with a fresh MCP server and transport (stateless), both closed with the response. The HTTP
 * server's `state` (write queues, records read lately) is shared by the servers of all its requests.
 */
async function serveStateless(
  options: LedgerMcpServerOptions,
  state: LedgerServerState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const server = ledgerMcpServer(options, state);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response);
}

/** A node:http server with the request timeouts of `timeouts`; a request `handle` fails is answered 500 (or ended). */
function boundedHttpServer(
  timeouts: HttpBounds['timeouts'],
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Server {
  return createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      // Node checks the two request timeouts on this interval (default 30 s): keep it a fraction of them.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headersTimeoutMs / 4))),
    },
    (request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (!response.headersSent)
          refuse(response, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
        else response.end();
      });
    },
  );
}

/** Listen on `host`:`port`; the running server's URL, port and `close`. */
async function listening(http: Server, port: number, host: string, path: string): Promise<LedgerMcpHttpServer> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => resolve());
  });
  const { port: bound } = http.address() as AddressInfo;
  const url = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${bound}${path}`);
  return {
    url,
    port: bound,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.closeAllConnections();
        http.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Serve the ledger MCP server over Streamable HTTP (stateless: a fresh server and transport
 * per request) on node:http. Binds 127.0.0.1 by default. Binding any other host without a
 * token throws `INVALID_CONFIG` before listening. With a token, a request without
 * `Authorization: Bearer <token>` gets 401. On a loopback bind without a token, requests
 * whose Host or Origin is not loopback get 403 (DNS-rebinding protection). Bounded: GET
 * event streams close when idle and are capped in number (503 beyond), and so are connections;
 * headers and requests must arrive within short timeouts, and connections that have not
 * authenticated are capped in total and per address (the oldest is closed), so they cannot
 * lock out the token holder (`connection-guard.ts`).
 */
export async function startLedgerMcpHttpServer(options: LedgerMcpHttpOptions): Promise<LedgerMcpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const token = options.token !== undefined && options.token.length > 0 ? options.token : undefined;
  const bounds = httpBounds(options);
  if (!LOOPBACK.has(host) && token === undefined) {
    throw new InvalidConfigError(
      `Refusing to serve MCP on ${host} without a token: anyone who can reach it could read the ledger. ` +
        'Pass --token (or set CONTEXT_LEDGER_TOKEN), or bind 127.0.0.1.',
      { host },
    );
  }
  const admitStream = eventStreamGate(bounds.maxStreams, bounds.streamIdleTimeoutMs);
  const state = newLedgerServerState(options.ledger);
  const http = boundedHttpServer(bounds.timeouts, async (request, response) => {
    if (refusedAccess(request, response, token)) return;
    guard.trust(request.socket);
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path)
      return refuse(response, 404, `Not found: the MCP endpoint is ${path}.`);
    if (request.method === 'GET' && !admitStream(response)) return;
    await serveStateless(options, state, request, response);
  });
  const guard = guardConnections(http, bounds.caps);
  return listening(http, options.port, host, path);
}
