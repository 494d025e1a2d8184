/**
 * `context-ledger/mcp`: an MCP server exposing a ledger (`recall`, `handles`, `records`,
 * `gaps`, `append`), for stdio or Streamable HTTP.
 */
export { createLedgerMcpServer } from './ledger-mcp-server.js';
export type { LedgerMcpServerOptions } from './ledger-mcp-server.js';
export { startLedgerMcpHttpServer } from './http-server.js';
export type { LedgerMcpHttpOptions, LedgerMcpHttpServer } from './http-server.js';
export { serveLedgerMcpStdio } from './stdio-server.js';
