/**
 * `context-ledger/mcp`: an MCP server exposing a ledger (the tools of `MCP_TOOL_NAMES`: `recall`, `handles`,
 * `records`, `gaps`, `append`, `describe`, `expand`, `grep`, `sessions`), for stdio or Streamable HTTP.
 */
export { createLedgerMcpServer } from './ledger-mcp-server.js';
export type { LedgerMcpServerOptions } from './ledger-mcp-server.js';
export { startLedgerMcpHttpServer } from './http-server.js';
export type { LedgerMcpHttpOptions, LedgerMcpHttpServer } from './http-server.js';
export { serveLedgerMcpStdio } from './stdio-server.js';
export { MCP_TOOL_NAMES } from './tool-names.js';
export { LEDGER_SERVER_INSTRUCTIONS } from './server-instructions.js';
