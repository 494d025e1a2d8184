import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLedgerMcpServer } from './ledger-mcp-server.js';
import type { LedgerMcpServerOptions } from './ledger-mcp-server.js';

/**
 * Serve the ledger MCP server on this process's stdin/stdout. Nothing else may write to
 * stdout (it is the protocol). Resolves when the client disconnects (stdin closes).
 */
export async function serveLedgerMcpStdio(options: LedgerMcpServerOptions): Promise<void> {
  const server = createLedgerMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
